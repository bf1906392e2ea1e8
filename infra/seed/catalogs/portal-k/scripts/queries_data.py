# -*- coding: utf-8 -*-
"""Source data for queries.jsonl.

exp: list of ("c" | "n" | "b", key) -> contests / news_articles / bookmarks.
time: for questions with a time word, a machine-readable reading of it that
validate.py uses to recompute the expected set from the generated data:
  coll   "contests" | "news_articles"
  mode   contests: "start" (startDate day in window), "end" (endDate day in window),
                   "active" ([start day, end day] overlaps window),
                   "closing" (status ONGOING and end day within ref .. ref+7)
         news:     "published" (publishedAt day in window)
  window today | this_week | next_week | this_month | next_month | last_month |
         this_year | last_year | next_year | month:YYYY-MM
  tags   optional; the item must carry all of these tags
Query text may contain {id:KEY} which generate.py replaces with the item's id.
"""

Q = []


def q(user, kind, text, exp=(), time=None):
    Q.append(dict(user=user, kind=kind, q=text, exp=list(exp), time=time))


# =========================== contest questions (33) ===========================
q("9301", "contest", "등대 CTF 2026 본선 언제야?", [("c", "lighthouse-2026-final")])
q("9302", "contest", "Mulgyeol Data Challenge 2026 본선에서 대상을 받은 팀이 어디인가요?",
  [("c", "mulgyeol-2026-final"), ("n", "mulgyeol-2026-final-result")])
q("9303", "contest", "Who won the Mulgyeol Data Challenge 2025 final?",
  [("c", "mulgyeol-2025-final"), ("n", "mulgyeol-2025-final-result")])
q("9301", "contest", "사운드잼 2026 일반부문 상금 얼마야?", [("c", "soundjam-2026-general")])
q("9302", "contest", "누리레일 공공데이터 공모전 2026 학생 부문은 참가 자격이 어떻게 되나요?",
  [("c", "nurirail-2026-student")])
q("9303", "contest", "Where is the Lighthouse CTF 2026 finals venue?", [("c", "lighthouse-2026-final")])
q("9301", "contest", "별밭 게임잼 2026 우승작 뭐였지?",
  [("c", "byeolbat-jam-2026"), ("n", "byeolbat-2026-result")])
q("9302", "contest", "구름비 포캐스트컵 2026은 평가 지표가 무엇인가요?", [("c", "gureumbi-cup-2026")])
q("9303", "contest", "Gureumbi Forecast Cup 2025 winner?",
  [("c", "gureumbi-cup-2025"), ("n", "gureumbi-cup-2025-result")])
q("9301", "contest", "등대 ctf 2025 본썬 누가 이겼어?",
  [("c", "lighthouse-2025-final"), ("n", "lighthouse-2025-final-result")])
q("9302", "contest", "스마트양식 IoT 해커톤 2026은 어디서 열리나요?", [("c", "aqua-iot-2026")])
q("9303", "contest", "SoundJam 2027 student division schedule?", [("c", "soundjam-2027-student")])
q("9303", "contest", "Which contests are closing soon?",
  [("c", "soundjam-2026-general"), ("c", "nurirail-2026-student"), ("c", "badanoon-idea-2026"),
   ("c", "energy-ideathon-2026"), ("c", "port-hack-2026"), ("c", "chorong-2026-online"),
   ("c", "aqua-fw-hack-2026"), ("c", "game-a11y-jam-2026")],
  time=dict(coll="contests", mode="closing"))
q("9302", "contest", "{id:nurirail-2026-general} 대회는 언제 마감되나요?", [("c", "nurirail-2026-general")])
q("9303", "contest", "Tell me about {id:aqua-fw-hack-2026}", [("c", "aqua-fw-hack-2026")])
q("9301", "contest", "바다눈 API 아이디어 공모전 상금 얼마야?", [("c", "badanoon-idea-2026")])
q("9302", "contest", "등대 CTF 2026 예선 학생 부문에서 1위를 한 팀은 어디인가요?",
  [("c", "lighthouse-2026-prelim"), ("n", "lighthouse-2026-qual-result")])
q("9303", "contest", "NuriRail 2025 general division grand prize winner?",
  [("c", "nurirail-2025-general"), ("n", "nurirail-2025-result")])
q("9301", "contest", "byeolbat winter game jam 몇 시간짜리야?", [("c", "byeolbat-winter-2026")])
q("9302", "contest", "샌드캐슬 엔진 플러그인 공모전에서 1등은 누구였나요?",
  [("c", "sandcastle-plugin-2025"), ("n", "sandcastle-plugin-result"), ("n", "sandcastle-20-2026")])
q("9301", "contest", "마감 임박한 대회 뭐 있어?",
  [("c", "soundjam-2026-general"), ("c", "nurirail-2026-student"), ("c", "badanoon-idea-2026"),
   ("c", "energy-ideathon-2026"), ("c", "port-hack-2026"), ("c", "chorong-2026-online"),
   ("c", "aqua-fw-hack-2026"), ("c", "game-a11y-jam-2026")],
  time=dict(coll="contests", mode="closing"))
q("9302", "contest", "다음 달에 시작하는 공모전이 있나요?",
  [("c", "rc-plugin-2026"), ("c", "aqua-iot-2026"), ("c", "snow-forecast-2026"),
   ("c", "chorong-2026-final"), ("c", "ocean-drone-ai-2026"), ("c", "byeolbat-winter-2026"),
   ("c", "oss-sprint-2026")],
  time=dict(coll="contests", mode="start", window="next_month"))
q("9303", "contest", "Any contests starting next week?", [("c", "lighthouse-2026-final")],
  time=dict(coll="contests", mode="start", window="next_week"))
q("9301", "contest", "이번 달에 끝나는 대회 다 알려줘",
  [("c", "sungrid-hack-2026"), ("c", "busan-demo-2026"), ("c", "soundjam-2026-general"),
   ("c", "nurirail-2026-student"), ("c", "nurirail-2026-general"), ("c", "badanoon-idea-2026"),
   ("c", "energy-ideathon-2026"), ("c", "port-hack-2026"), ("c", "chorong-2026-online"),
   ("c", "aqua-fw-hack-2026"), ("c", "game-a11y-jam-2026"), ("c", "chorong-teacher-ai-2026"),
   ("c", "lighthouse-2026-final")],
  time=dict(coll="contests", mode="end", window="this_month"))
q("9302", "contest", "지난달에 끝난 대회에는 어떤 것들이 있었나요?",
  [("c", "lighthouse-2026-prelim"), ("c", "byeolbat-jam-2026"), ("c", "source-sep-2026"),
   ("c", "aqua-datasprint-2026")],
  time=dict(coll="contests", mode="end", window="last_month"))
q("9303", "contest", "CTFs happening next year?",
  [("c", "lighthouse-2027-prelim"), ("c", "deungdae-junior-2027")],
  time=dict(coll="contests", mode="active", window="next_year", tags=["ctf"]))
q("9301", "contest", "12월에 하는 해커톤 뭐 있어?",
  [("c", "byeolbat-winter-2026"), ("c", "aqua-iot-2026"), ("c", "oss-sprint-2026")],
  time=dict(coll="contests", mode="active", window="month:2026-12", tags=["hackathon"]))
q("9302", "contest", "연말에 참가할 수 있는 게임잼이 있을까요?", [("c", "byeolbat-winter-2026")],
  time=dict(coll="contests", mode="active", window="next_month", tags=["gamejam"]))
q("9303", "contest", "올해 열린 Mulgyeol challenge 전부 보여줘",
  [("c", "mulgyeol-2026-prelim"), ("c", "mulgyeol-2026-final")],
  time=dict(coll="contests", mode="active", window="this_year", tags=["mulgyeol"]))
q("9301", "contest", "작년 사운드잼 어디서 했어?",
  [("c", "soundjam-2025-student"), ("c", "soundjam-2025-general")],
  time=dict(coll="contests", mode="active", window="last_year", tags=["soundjam"]))
q("9302", "contest", "오늘 진행 중인 해커톤이 있나요?",
  [("c", "soundjam-2026-general"), ("c", "port-hack-2026"), ("c", "game-a11y-jam-2026")],
  time=dict(coll="contests", mode="active", window="today", tags=["hackathon"]))
q("9303", "contest", "AI contests starting in December?",
  [("c", "snow-forecast-2026"), ("c", "ocean-drone-ai-2026")],
  time=dict(coll="contests", mode="start", window="month:2026-12", tags=["ai"]))
q("9301", "contest", "물결 챌린지 2027 본선 언제 어디서 해?", [("c", "mulgyeol-2027-final")])

# =========================== news questions (28) ===========================
q("9301", "news", "리듬켄버스 3.0에서 뭐가 바뀌었어?", [("n", "rc-30-beta-2026"), ("n", "rc-30-ga-2026")])
q("9302", "news", "바다눈 API v2에 새로 추가된 기능이 무엇인가요?", [("n", "bn-v2-2025")])
q("9303", "news", "What changed in RailMap API 2.1?", [("n", "railmap-21-2026")])
q("9301", "news", "레일맵 API 장애 원인 뭐였어?", [("n", "railmap-outage-2025"), ("n", "railmap-outage-2026")])
q("9302", "news", "구름비기상테크는 시리즈 B에서 얼마를 투자받았나요?", [("n", "gureumbi-seriesb-2025")])
q("9303", "news", "How big was Sorigyeol's Series A?", [("n", "sorigyeol-seriesa-2026")])
q("9301", "news", "샌드캐슬 엔진 2.1 뭐 추가됐어?", [("n", "sandcastle-21-2026")])
q("9302", "news", "비구름 나우캐스트 v5의 예측 범위는 몇 시간인가요?", [("n", "nowcast-v5-2026")])
q("9303", "news", "What was the bug fixed in AquaSense firmware 2.1?", [("n", "aquasense-fw21-2026")])
q("9301", "news", "햇살그리드 API 장애 얼마나 갔어?", [("n", "sungrid-outage-2026")])
q("9302", "news", "{id:ocean-budget-2027} 기사를 요약해 주세요", [("n", "ocean-budget-2027")])
q("9303", "news", "What did Lighthouse Security Lab report about port systems?",
  [("n", "port-ot-report-2026"), ("n", "port-vuln-disclosure-2026")])
q("9301", "news", "해파리 예측 연구 결과 나온 거 있어?", [("n", "jellyfish-research-2026")])
q("9302", "news", "게임 접근성 가이드라인에서는 무엇을 권고했나요?", [("n", "game-a11y-guideline-2025")])
q("9303", "news", "How much seed funding did Getbeol AquaFarm raise?", [("n", "getbeol-seed-2025")])
q("9301", "news", "오늘 나온 뉴스 뭐 있어?", [("n", "chorong-online-week1-2026"), ("n", "rc-31-beta-2026")],
  time=dict(coll="news_articles", mode="published", window="today"))
q("9302", "news", "이번 주 기사 중에 장애 관련 소식이 있나요?", [("n", "bn-buoy-outage-2026")],
  time=dict(coll="news_articles", mode="published", window="this_week", tags=["outage"]))
q("9303", "news", "Any outage news from last month?",
  [("n", "sorigyeol-outage-2026"), ("n", "railmap-outage-2026")],
  time=dict(coll="news_articles", mode="published", window="last_month", tags=["outage"]))
q("9301", "news", "이번 달 투자 소식 있어?", [("n", "gaon-seriesa-2026")],
  time=dict(coll="news_articles", mode="published", window="this_month", tags=["funding"]))
q("9302", "news", "지난달 발표된 정책 기사를 알려주세요",
  [("n", "chorong-teacher-training-2026"), ("n", "haetsal-data-policy-2026")],
  time=dict(coll="news_articles", mode="published", window="last_month", tags=["policy"]))
q("9303", "news", "Funding news from last year?", [("n", "gureumbi-seriesb-2025"), ("n", "getbeol-seed-2025")],
  time=dict(coll="news_articles", mode="published", window="last_year", tags=["funding"]))
q("9301", "news", "올해 나온 리듬캔버스 기사 다 보여줘",
  [("n", "rc-30-beta-2026"), ("n", "rc-30-ga-2026"), ("n", "sorigyeol-outage-2026"),
   ("n", "rc-302-2026"), ("n", "rc-31-roadmap-2026"), ("n", "rc-31-beta-2026")],
  time=dict(coll="news_articles", mode="published", window="this_year", tags=["rhythmcanvas"]))
q("9302", "news", "3월에 나온 기사 중에 대회 결과 기사가 있었나요?",
  [("n", "nowcast-lite-result"), ("n", "debris-ai-result")],
  time=dict(coll="news_articles", mode="published", window="month:2026-03", tags=["results"]))
q("9303", "news", "This week's contest results news", [("n", "sungrid-hack-result-2026"), ("n", "busan-demo-result-2026")],
  time=dict(coll="news_articles", mode="published", window="this_week", tags=["results"]))
q("9301", "news", "작년 12월 뉴스 뭐 있었어?",
  [("n", "rail-location-policy-2025"), ("n", "chorong-2025-result"), ("n", "debris-paper-2025"),
   ("n", "winter-sprint-2025-report")],
  time=dict(coll="news_articles", mode="published", window="month:2025-12"))
q("9302", "news", "Sandcastle Engine 2.0은 언제 정식 출시되었나요?", [("n", "sandcastle-20-2026")])
q("9303", "news", "How much did Gaon Port Digital raise in its Series A?", [("n", "gaon-seriesa-2026")])
q("9301", "news", "bada noon api 부이 점검 때문에 멈춘 데 어디야?", [("n", "bn-buoy-outage-2026")])

# =========================== bookmark questions (10) ===========================
q("9301", "bookmark", "내가 북마크한 CTF 관련 거 뭐 있지?",
  [("b", "9301-lh-final"), ("b", "9301-lh-qual-result"), ("b", "9301-lh-2025-result")])
q("9301", "bookmark", "내 북마크 중에 게임잼 뭐 저장했더라",
  [("b", "9301-winter-jam"), ("b", "9301-jam-2026-result"), ("b", "9301-a11y-jam")])
q("9301", "bookmark", "부산 가야 된다고 메모해 둔 북마크 뭐였지?", [("b", "9301-lh-final")])
q("9302", "bookmark", "제가 저장한 철도 관련 북마크를 보여주세요",
  [("b", "9302-nurirail-student"), ("b", "9302-delay-ai"), ("b", "9302-railmap-21"),
   ("b", "9302-railmap-outage")])
q("9302", "bookmark", "날씨 태그로 저장해 둔 북마크가 무엇이었죠?",
  [("b", "9302-forecast-cup"), ("b", "9302-nowcast-v5")])
q("9302", "bookmark", "제 북마크 중에서 대회만 보여주세요",
  [("b", "9302-nurirail-student"), ("b", "9302-delay-ai"), ("b", "9302-forecast-cup"),
   ("b", "9302-mulgyeol-2027")])
q("9303", "bookmark", "show my RhythmCanvas bookmarks",
  [("b", "9303-rc-plugin"), ("b", "9303-rc-31-beta"), ("b", "9303-rc-30-ga")])
q("9303", "bookmark", "energy related bookmarks?",
  [("b", "9303-sungrid-outage"), ("b", "9303-energy-ideathon")])
q("9303", "bookmark", "내가 저장한 news articles 목록 보여줘",
  [("b", "9303-rc-31-beta"), ("b", "9303-rc-30-ga"), ("b", "9303-sungrid-outage"),
   ("b", "9303-aquasense-fw22"), ("b", "9303-sorigyeol-seriesa")])
q("9301", "bookmark", "내 북마크 전부 보여줘",
  [("b", "9301-lh-final"), ("b", "9301-lh-qual-result"), ("b", "9301-lh-2025-result"),
   ("b", "9301-winter-jam"), ("b", "9301-jam-2026-result"), ("b", "9301-a11y-jam"),
   ("b", "9301-sandcastle-21"), ("b", "9301-bounty"), ("b", "9301-soundjam-open")])

# =========================== general questions (26) ===========================
q("9301", "general", "CTF 처음 나가는데 뭐부터 준비하면 돼?")
q("9302", "general", "해커톤에서 팀 빌딩은 어떻게 하는 것이 좋을까요?")
q("9303", "general", "What is WebAssembly and why use it?")
q("9301", "general", "MQTT가 정확히 뭐야?")
q("9302", "general", "CSI 지표는 어떻게 계산하나요?")
q("9303", "general", "How is F1 score calculated?")
q("9301", "general", "파이썬으로 CSV 파일 읽는 법 알려줘")
q("9302", "general", "나우캐스팅이 정확히 무엇인가요?")
q("9303", "general", "How do I handle API rate limits in Python?")
q("9301", "general", "공격-방어 CTF랑 제퍼디 방식 차이가 뭐야?")
q("9302", "general", "TLS 인증서 만료를 미리 감지하는 방법이 있을까요?")
q("9303", "general", "WebGPU vs WebGL - what's the difference?")
q("9301", "general", "게임잼 48시간 동안 잠은 어떻게 자?")
q("9302", "general", "데이터 분석 대회를 준비하려면 어떤 공부를 해야 하나요?")
q("9303", "general", "git rebase vs merge, when should I use which?")
q("9301", "general", "오늘 점심 뭐 먹지?")
q("9302", "general", "주말에 부산에서 가 볼 만한 곳을 추천해 주세요")
q("9303", "general", "MIDI 2.0이 뭐고 MIDI 1.0이랑 뭐가 달라?")
q("9301", "general", "용존산소 센서는 무슨 원리로 재는 거야?")
q("9302", "general", "자바스크립트에서 async/await는 어떻게 사용하나요?")
q("9303", "general", "How do I write a good README for a hackathon submission?")
q("9301", "general", "비주얼 스크립팅이 그냥 코딩보다 나아?")
q("9302", "general", "공공데이터 API 키는 어떻게 안전하게 보관하나요?")
q("9303", "general", "How should I list hackathon awards on my resume?")
q("9301", "general", "리눅스에서 포트 열려 있는지 확인하는 명령어 뭐야?")
q("9302", "general", "비 오는 날 젖은 우산을 빨리 말리는 방법이 있을까요?")

# =========================== greetings (6) ===========================
q("9301", "greeting", "안녕!")
q("9302", "greeting", "안녕하세요, 잘 부탁드립니다.")
q("9303", "greeting", "hi there 👋")
q("9301", "greeting", "고마워 ㅎㅎ")
q("9302", "greeting", "감사합니다. 덕분에 많이 도움이 되었어요.")
q("9303", "greeting", "thanks!")
