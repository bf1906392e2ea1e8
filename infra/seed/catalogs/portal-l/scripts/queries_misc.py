# -*- coding: utf-8 -*-
"""Bookmark, general and greeting questions for portal-l.

Bookmark questions expect only the asking user's bookmarks ("b:<bookmark key>").
General and greeting questions expect nothing (the catalog does not answer them).
"""

Q = []


def q(kind, user, text, expected=(), rule=None):
    Q.append(dict(kind=kind, user=user, text=text, expected=list(expected), rule=rule))


# ------------------------------------------------ bookmarks
q("bookmark", "9401", "내가 북마크한 CTF 뭐 있었지?", ["b:b9401-1", "b:b9401-2", "b:b9401-3"])
q("bookmark", "9401", "북마크한 것 중에 소리결 SDK 쓰는 거 보여줘",
  ["b:b9401-4", "b:b9401-5", "b:b9401-6", "b:b9401-7"])
q("bookmark", "9402", "제가 저장해 둔 북마크 중에 이번 주에 마감되는 대회가 있나요?", ["b:b9402-6"],
  dict(coll="bookmarks", win="this_week", field="end"))
q("bookmark", "9402", "북마크해 둔 물마루 관련 기사 보여 주세요.", ["b:b9402-3", "b:b9402-4"])
q("bookmark", "9403", "list my bookmarks about DurePay",
  ["b:b9403-1", "b:b9403-2", "b:b9403-3", "b:b9403-4"])
q("bookmark", "9403", "북마크한 contest 중 next month에 시작하는 거 있어?", ["b:b9403-1", "b:b9403-7"],
  dict(coll="bookmarks", win="next_month", field="start"))
q("bookmark", "9401", "내 북마크에서 게임잼에 메모 뭐라고 써 놨더라?", ["b:b9401-7"])
q("bookmark", "9402", "농업 쪽으로 북마크해 둔 게 뭐였죠?", ["b:b9402-7", "b:b9402-8"])
q("bookmark", "9403", "bookmark 해둔 BS-2 관련 항목 있어?", ["b:b9403-6", "b:b9403-7"])
q("bookmark", "9401", "내가 북마크한 뉴스만 보여줘", ["b:b9401-3", "b:b9401-5", "b:b9401-8"])

# ------------------------------------------------ general (nothing in the catalog answers these)
q("general", "9401", "해커톤 처음 나가는데 팁 좀 줘")
q("general", "9402", "CTF 대회를 준비하려면 무엇부터 공부해야 하나요?")
q("general", "9403", "What is WebSocket and why use it instead of polling?")
q("general", "9401", "MIDI 2.0이 정확히 뭐야?")
q("general", "9402", "mIoU는 어떻게 계산하나요?")
q("general", "9403", "How is the F1 score calculated?")
q("general", "9401", "RMSE랑 MAE 차이가 뭐야?")
q("general", "9402", "What exactly is the OAuth 2.0 client credentials flow?")
q("general", "9403", "What is prompt injection and how do I defend my chatbot against it?")
q("general", "9401", "멱등성 키가 뭐야? 왜 쓰는 거야?")
q("general", "9402", "What is the SARIF format and why is it used?")
q("general", "9403", "How do I implement exponential backoff for webhook retries in Python?")
q("general", "9401", "python read csv file")
q("general", "9402", "블루카본이 정확히 무엇인가요?")
q("general", "9403", "What's the difference between King-of-the-Hill and Attack & Defense CTF formats?")
q("general", "9401", "이안류가 뭐야? 왜 생기는 거야?")
q("general", "9402", "해커톤에서 팀 빌딩을 잘하는 방법이 있을까요?")
q("general", "9403", "How do I set up automatic TLS certificate renewal?")
q("general", "9401", "오늘 저녁 뭐 먹지")
q("general", "9402", "개발자 포트폴리오에 해커톤 수상 경력은 어떻게 쓰면 좋을까요?")
q("general", "9403", "git rebase vs merge, which one should I use?")
q("general", "9401", "음원 분리 모델은 어떻게 학습시켜?")
q("general", "9402", "부산 가는 기차표를 싸게 사는 방법이 있을까요?")
q("general", "9403", "How do I write a good technical blog post?")
q("general", "9401", "레드팀이랑 블루팀 차이가 뭐야?")
q("general", "9402", "스마트팜 양액 농도는 어떻게 계산하나요?")

# ------------------------------------------------ greetings
q("greeting", "9401", "안녕!")
q("greeting", "9402", "안녕하세요, 처음 왔어요.")
q("greeting", "9403", "hi there 👋")
q("greeting", "9401", "고마워 ㅎㅎ")
q("greeting", "9402", "감사합니다. 덕분에 많은 도움이 됐어요.")
q("greeting", "9403", "thanks, 좋은 하루 보내!")
