# -*- coding: utf-8 -*-
"""News questions (kind "news") for portal-l.  Same conventions as queries_contest.py."""

Q = []


def q(user, text, expected, rule=None):
    Q.append(dict(kind="news", user=user, text=text, expected=expected, rule=rule))


# ------------------------------------------------ one fact / one product version
q("9401", "물마루 API 3.0 베타에서 인증 방식 어떻게 바뀌었어?", ["n:n27-mulmaru-30-beta"])
q("9402", "소리결 SDK 5.0에서 제거된 기능은 무엇인가요?", ["n:n26-sorigyeol-50"])
q("9403", "Sorigyeol SDK 4.2에서 Bluetooth 헤드폰 관련해서 뭐 고쳤어?", ["n:n26-sorigyeol-42"])
q("9401", "sorigyeol 5.0.1 patch notes", ["n:n27-sorigyeol-501"])
q("9402", "두레페이 오픈 API v4에서 결제 취소할 때 꼭 넣어야 하는 헤더가 무엇인가요?",
  ["n:n26-durepay-v4"])
q("9403", "When is DurePay Open API v4.1 generally available?", ["n:n27-durepay-v41-preview"])
q("9401", "pasukkun 2.0 new languages", ["n:n26-pasukkun-20"])
q("9402", "PromptShield 2.0 latency vs 1.0", ["n:n27-promptshield-20"])
q("9403", "What caused the 2025 Mulmaru API outage?", ["n:n25-mulmaru-outage"])
q("9402", "철길 실시간 도착 API 장애 원인이 무엇이었나요?", ["n:n27-cheolgil-outage"])
q("9403", "How much funding has Pado Games raised?", ["n:n25-pado-seriesA", "n:n26-pado-seriesB"])
q("9402", "국가데이터개방위원회의 공공 API 장애 공시 제도는 언제부터 시행되나요?",
  ["n:n27-nodc-api-disclosure", "n:n26-nodc-budget"])
q("9403", "When does the elevator outage feed rule take effect?", ["n:n26-elevator-policy"])
q("9401", "별밭 BS-2 궤도 올라갔어?", ["n:n26-bs2-orbit"])
q("9402", "갈매기눈 팀은 어떤 방법으로 1위를 했나요?", ["n:n26-marine-litter-winner"])
q("9401", "NullMari 2025 winner?",
  ["n:n25-ctf-finals-2025", "n:n26-ctf-finals-2026"])

# ------------------------------------------------ by id
q("9403", "{n:n26-bluecarbon-winner} 이 기사 요약해줘", ["n:n26-bluecarbon-winner"])

# ------------------------------------------------ time words
q("9401", "두레페이 장애 작년 12월에 왜 났어?", ["n:n26-durepay-outage-dec"],
  dict(coll="news_articles", win="month:2026-12", field="published",
       tags_any=["outage"], title_all=["두레|DurePay"]))
q("9401", "오늘 나온 기사 뭐 있어?", ["n:n27-plugin-marathon-day1"],
  dict(coll="news_articles", win="today", field="published"))
q("9402", "이번 주에 발표된 보안 관련 뉴스가 있나요?", ["n:n27-redteam-results"],
  dict(coll="news_articles", win="this_week", field="published", tags_any=["security"]))
q("9403", "summarize last month's outage news", ["n:n27-cheolgil-outage"],
  dict(coll="news_articles", win="last_month", field="published", tags_any=["outage"]))
q("9401", "지난달 해솔 관련 뉴스 뭐 있었어?",
  ["n:n27-mulmaru-30-beta", "n:n27-oyster-mortality", "n:n27-tongyeong-pact"],
  dict(coll="news_articles", win="last_month", field="published",
       tags_any=["haesol", "mulmaru"]))
q("9402", "올해 나온 릴리스 소식을 알려 주세요.",
  ["n:n27-durepay-v41-preview", "n:n27-mulmaru-30-beta", "n:n27-sorigyeol-501",
   "n:n27-promptshield-20", "n:n27-mulmaru-30-date"],
  dict(coll="news_articles", win="this_year", field="published", tags_any=["release"]))
q("9403", "any DurePay news this week?", ["n:n27-dure-busan-campus"],
  dict(coll="news_articles", win="this_week", field="published", tags_any=["durepay"]))
q("9401", "작년 12월에 나온 우승 소식 알려줘",
  ["n:n26-yearend-hackathon-winner", "n:n26-winter-orbit-winner"],
  dict(coll="news_articles", win="month:2026-12", field="published", tags_any=["results"]))
q("9402", "2025년 3월에 나온 정책 기사가 있나요?", ["n:n25-nodc-plan"],
  dict(coll="news_articles", win="month:2025-03", field="published", tags_any=["policy"]))
q("9403", "show me all Sorigyeol SDK release news from last year",
  ["n:n26-sorigyeol-42", "n:n26-sorigyeol-50"],
  dict(coll="news_articles", win="last_year", field="published",
       tags_any=["release"], title_all=["소리결|Sorigyeol"]))
q("9401", "이번 달 기사 중에 물마루 얘기 있어?", ["n:n27-mulmaru-30-date"],
  dict(coll="news_articles", win="this_month", field="published", tags_any=["mulmaru"]))
