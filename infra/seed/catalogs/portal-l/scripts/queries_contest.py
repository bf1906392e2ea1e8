# -*- coding: utf-8 -*-
"""Contest questions (kind "contest") for portal-l.

q(user, text, expected, rule=None)
  expected: list of refs "c:<contest key>", "n:<news key>"
  text may hold placeholders like {c:N13}; generate.py replaces them with the item's id.
  rule (time-word questions only): how validate.py recomputes the expected set, see README.
    coll: "contests" | "news_articles" | "bookmarks"
    win: window name (today, this_week, next_week, last_week, this_month, next_month,
         last_month, this_year, last_year, next_year, closing_soon, month:YYYY-MM)
    field: start | end | overlap | published
    tags_any: item must carry one of these tags
    title_all: every regex must match the title (case-insensitive)
    plus: refs that answer a non-time part of the question (e.g. the winner article)
"""

Q = []


def q(user, text, expected, rule=None):
    Q.append(dict(kind="contest", user=user, text=text, expected=expected, rule=rule))


# ------------------------------------------------ one item, by name (KO / EN / typo / abbreviation)
q("9401", "은결 CFT 2027 예선 언제 해?", ["c:C27q"])
q("9403", "What format will the Eungyeol CTF 2027 finals use?", ["c:C27f"])
q("9402", "해솔 오션 해커톤 2026 본선 대상 상금이 얼마였나요?", ["c:A26f"])
q("9402", "2025 해솔 오션 해커톤 본선에서 대상 받은 팀이 어디예요?",
  ["c:A25f", "n:n25-haesol-2025-winner"])
q("9401", "은결ctf 26 본선 우승 누가 했어?", ["c:C26f", "n:n26-ctf-finals-2026"])
q("9403", "Who won first prize in the Garam MusicTech Challenge 2026 student division?",
  ["c:B26s", "n:n26-musictech-2026-winners"])
q("9402", "가람 뮤직테크 챌린지 2027 학생 부문은 고등학생도 참가할 수 있나요?", ["c:B27s"])
q("9403", "byeolbat cubesat cup 2026 학생부문 대상 누구?",
  ["c:D26s", "n:n26-cubesat-2026-winners"])
q("9402", "2026 두레 핀테크 아이디어톤 대상은 어느 팀이 받았나요?",
  ["c:E26", "n:n26-dure-ideathon-2026"])
q("9403", "Where is the Dure Fintech Ideathon 2027 held?", ["c:E27"])
q("9401", "새싹 주코대 2026 본선 대상 누구야", ["c:G26f", "n:n26-saessak-f-2026"])
q("9402", "새싹 주니어 코딩대회 2025 예선은 몇 문제였나요?", ["c:G25q"])
q("9403", "Cheolgil Open Data Contest 2026 grand prize winner?",
  ["c:F26", "n:n26-cheolgil-2026-winner"])
q("9401", "물마루 베타챌린지 버그 하나 제보하면 얼마 줘?", ["c:N1"])
q("9403", "프롬프트실드 레드팀 챌린지 1등 누구였어?", ["c:O15", "n:n27-redteam-results"])
q("9401", "퍼로우 로보틱스 챌린지 우승팀 어디야?", ["c:O8", "n:n26-furrow-winner"])
q("9402", "궤도창 산불 감시 챌린지는 지금 어느 팀이 1위인가요?",
  ["c:N4", "n:n27-wildfire-leaderboard"])

# ------------------------------------------------ by id
q("9403", "{c:N13} 이 대회 참가 조건 알려줘", ["c:N13"])
q("9402", "{c:U9} 대회는 팀을 몇 명으로 꾸려야 하나요?", ["c:U9"])

# ------------------------------------------------ time words
q("9401", "이번 주에 끝나는 대회 뭐 있어?",
  ["c:N1", "c:N2", "c:F27", "c:B27g", "c:C27q", "c:U1"],
  dict(coll="contests", win="this_week", field="end"))
q("9402", "마감 임박한 공모전 알려 주세요.",
  ["c:N1", "c:N2", "c:F27", "c:B27g", "c:N3", "c:N4"],
  dict(coll="contests", win="closing_soon", field="end"))
q("9403", "which contests are closing soon?",
  ["c:N1", "c:N2", "c:F27", "c:B27g", "c:N3", "c:N4"],
  dict(coll="contests", win="closing_soon", field="end"))
q("9403", "any hackathon starting next month?", ["c:A27q"],
  dict(coll="contests", win="next_month", field="start", tags_any=["hackathon"]))
q("9401", "다음 주에 시작하는 대회 있어?", ["c:U2", "c:U3"],
  dict(coll="contests", win="next_week", field="start"))
q("9402", "오늘 시작한 대회가 있나요?", ["c:N7"],
  dict(coll="contests", win="today", field="start"))
q("9403", "this month 끝나는 ocean 대회 list 줘", ["c:N1", "c:U1", "c:N5"],
  dict(coll="contests", win="this_month", field="end", tags_any=["ocean"]))
q("9401", "작년 연말에 열린 해커톤 뭐 있었어?", ["c:O11", "c:O12"],
  dict(coll="contests", win="month:2026-12", field="start", tags_any=["hackathon"]))
q("9402", "올해 열리는 은결 CTF 본선은 언제인가요?", ["c:C27f"],
  dict(coll="contests", win="this_year", field="start",
       title_all=["(은결|Eungyeol) CTF", "본선|Finals"]))
q("9403", "Are any contests for next year listed already?", ["c:U12"],
  dict(coll="contests", win="next_year", field="start"))
q("9401", "5월에 시작하는 대회 뭐 있어?", ["c:A27f", "c:U9", "c:U14"],
  dict(coll="contests", win="month:2027-05", field="start"))
q("9402", "지난달에 끝난 대회는 어떤 것이 있었나요?", ["c:O13", "c:O14"],
  dict(coll="contests", win="last_month", field="end"))
q("9403", "last year Eungyeol CTF quals에서 몇 팀이 본선 갔어?", ["c:C26q"],
  dict(coll="contests", win="last_year", field="start",
       title_all=["(은결|Eungyeol) CTF", "예선|Qualifier"]))
q("9401", "올해 가람 뮤직테크 학생부문 1등 상금 얼마야?", ["c:B27s"],
  dict(coll="contests", win="this_year", field="start",
       title_all=["(가람|Garam) (뮤직테크|MusicTech)", "학생|Student"]))
q("9402", "작년 별밭 큐브샛 일반 부문 우승팀은 어디인가요?",
  ["c:D26g", "n:n26-cubesat-2026-winners"],
  dict(coll="contests", win="last_year", field="start",
       title_all=["별밭|Byeolbat", "큐브샛|CubeSat", "일반|Open"],
       plus=["n:n26-cubesat-2026-winners"]))
