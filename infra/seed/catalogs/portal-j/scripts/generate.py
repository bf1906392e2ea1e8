#!/usr/bin/env python3
"""Generate the portal-j catalog (contests, news, bookmarks, queries) as JSON Lines.

Deterministic: ids come from random.Random(SEED) drawn in a fixed order.
Run from anywhere:  python3 scripts/generate.py
"""
import json
import os
import random
import re
import sys
from datetime import date

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from data_contests import CONTESTS  # noqa: E402
from data_news import NEWS, OUTLETS  # noqa: E402

SEED = 20261127
REF = date(2026, 11, 27)
rng = random.Random(SEED)


def new_id(prefix):
    return "%s-%016x" % (prefix, rng.getrandbits(64))


def iso(s):
    d, t = s.split(" ")
    return "%sT%s:00+09:00" % (d, t)


def day(s):
    return date.fromisoformat(s[:10])


def status_of(start, end):
    if day(end) < REF:
        return "ENDED"
    if day(start) > REF:
        return "UPCOMING"
    return "ONGOING"


def first_sentence(text):
    m = re.match(r"(.+?[.!?])(\s|$)", text)
    return m.group(1) if m else text


# ---------------------------------------------------------------- contests
contests, C = [], {}
for slug, title, desc, start, end, src, url, tags in CONTESTS:
    row = {
        "id": new_id("c"), "title": title, "description": desc,
        "startDate": iso(start), "endDate": iso(end),
        "status": status_of(iso(start), iso(end)),
        "url": url, "sourceName": src, "tags": tags,
    }
    contests.append(row)
    C[slug] = row

# ---------------------------------------------------------------- news
news, N = [], {}
for slug, title, summary, paras, pub, outlet, tags in NEWS:
    y, m = pub[:4], pub[5:7]
    row = {
        "id": new_id("n"), "title": title, "summary": summary,
        "content": "\n\n".join(paras), "publishedAt": iso(pub),
        "url": "https://%s/%s/%s/%s" % (OUTLETS[outlet], y, m, slug),
        "sourceName": outlet, "tags": tags,
    }
    news.append(row)
    N[slug] = row

# ---------------------------------------------------------------- bookmarks
# (user, "c:slug" | "n:slug", memo)
BOOKMARKS = [
    ("9201", "c:uniai-2026-s2", "우리 동아리 시즌2 지금 3위임 ㅋㅋ 음성인식 과제 더 파야 함"),
    ("9201", "c:gaon-ctf-2026-final", "본선 12/5! 포너블 빡세게 공부하자. 학생부 우승하면 500이다"),
    ("9201", "c:nuridb-perf-2026", "컴팩션 패치 내볼까? 12/1 마감이니까 주말에 달려야 함"),
    ("9201", "n:uniai-2026-winner", "새빛대 진짜 잘함… 내년엔 우리가 이긴다"),
    ("9201", "c:gaon-junior-ctf-2027", "후배들한테 공유하기. 힌트 사면 점수 깎이는 거 주의"),
    ("9201", "n:gaon-ctf-2026-qual-result", "예선 통과 기념 ㅎㅎ 학생부 순위 캡처해둠"),
    ("9201", "c:codenarae-advent-2026", "12월 매일 한 문제씩. 25개 다 풀면 키보드 추첨이래!"),
    ("9201", "c:uniai-2027-pre", "동아리당 2팀 나갈 수 있대. 신입들로 팀 하나 더 꾸리자"),
    ("9201", "n:gaon-redteam-result", "프롬프트 인젝션 스터디 자료로 쓸 거"),
    ("9202", "c:recode-s2", "저희 팀 과제는 마루리테일랩 재고 시스템 전환입니다. 12월 18일 최종 발표 준비해야 합니다."),
    ("9202", "c:recode-demo-day", "데모데이 당일 이력서 10부를 챙겨 가기로 했습니다."),
    ("9202", "n:recode-s1-capstone", "1기 선배님들 취업 결과가 좋아서 참고하려고 저장합니다."),
    ("9202", "c:cheongnam-wearable", "수면 데이터 과제가 흥미롭습니다. 주말에 데이터셋 구조부터 살펴보겠습니다."),
    ("9202", "n:fhir-adoption-27", "예전 병원 전산 경력과 연결될 수 있을 것 같아 저장해 둡니다."),
    ("9202", "c:haeon-weld-vision", "조선소 근무 시절 용접 검사 경험이 있어 관심이 갑니다. 50ms 제한이 관건이겠습니다."),
    ("9202", "n:haeon-mirae-1100", "자율운항 관련 자료로 보관합니다."),
    ("9202", "c:nanum-winter-2026", "오픈소스 첫 기여에 도전해 보고 싶습니다. 짝 활동이라 부담이 덜할 것 같습니다."),
    ("9202", "n:recode-s3-recruit", "지인분께 시즌 3 모집 소식을 전해 드릴 예정입니다."),
    ("9203", "c:hanbit-miniapp-s2", "우리 팀 local shop mini-app 아이디어랑 딱 맞음. deadline 12/20 체크!"),
    ("9203", "c:maru-checkout-ux", "Senior shopper flow 참고용. closes 11/29, 제출할지 고민 중"),
    ("9203", "c:nuridb-perf-2026", "Backend팀한테 forward함. write amplification 줄이는 거 우리 서비스에도 relevant"),
    ("9203", "n:hanbit-15m", "Market sizing 자료로 쓸 것. MAU 1,500만 돌파"),
    ("9203", "n:maru-senior-checkout", "UX research reference. 큰 글씨 + 음성 안내로 84%까지 올라감, good"),
    ("9203", "c:maru-retail-2026", "Team building 해서 나가볼까? 12/19-20 성수"),
    ("9203", "n:gaon-phishing-miniapps", "Security review checklist에 verified badge 항목 추가해야 함"),
    ("9203", "c:gaon-bugbounty", "우리 mini-app도 bounty scope인지 확인 필요"),
    ("9203", "n:byeolbit-managed-nuridb", "Infra cost 비교할 때 참고. smallest cluster 월 18만 원"),
]

bookmarks, B = [], {}
for user, ref, memo in BOOKMARKS:
    kind, slug = ref.split(":", 1)
    item = C[slug] if kind == "c" else N[slug]
    row = {
        "id": new_id("b"), "userId": user,
        "itemType": "CONTEST" if kind == "c" else "NEWS_ARTICLE",
        "itemId": item["id"], "itemTitle": item["title"],
        "itemSummary": first_sentence(item["description"]) if kind == "c" else item["summary"],
        "tag": item["tags"][0], "memo": memo,
    }
    bookmarks.append(row)
    B[(user, ref)] = row


# ---------------------------------------------------------------- queries
def W(target, mode, d1, d2, tag=None, user=None):
    return {"target": target, "mode": mode, "from": d1, "to": d2, "tag": tag, "user": user}


def compute(spec, user):
    d1, d2 = date.fromisoformat(spec["from"]), date.fromisoformat(spec["to"])
    out = []
    if spec["target"] == "contests":
        for c in contests:
            if spec["tag"] and spec["tag"] not in c["tags"]:
                continue
            s, e = day(c["startDate"]), day(c["endDate"])
            ok = {"overlap": s <= d2 and e >= d1, "end": d1 <= e <= d2, "start": d1 <= s <= d2,
                  "status": c["status"] == "ONGOING"}[spec["mode"]]
            if ok:
                out.append({"collection": "contests", "id": c["id"]})
    elif spec["target"] == "news_articles":
        for n in news:
            if spec["tag"] and spec["tag"] not in n["tags"]:
                continue
            if d1 <= day(n["publishedAt"]) <= d2:
                out.append({"collection": "news_articles", "id": n["id"]})
    elif spec["target"] == "bookmarks":
        cid = {c["id"]: c for c in contests}
        for b in bookmarks:
            if b["userId"] != user or b["itemType"] != "CONTEST":
                continue
            c = cid[b["itemId"]]
            s, e = day(c["startDate"]), day(c["endDate"])
            if s <= d2 and e >= d1:
                out.append({"collection": "bookmarks", "id": b["id"]})
    return out


NOV = ("2026-11-01", "2026-11-30")
DEC = ("2026-12-01", "2026-12-31")
OCT = ("2026-10-01", "2026-10-31")

# (user, kind, query, expected refs | window spec)
Q = [
    # ----- contest (31) -----
    ("9201", "contest", "유니AI리그 2026 본선 상금 얼마야?", ["c:uniai-2026-final"]),
    ("9203", "contest", "who won the UniAI League 2025 finals?", ["c:uniai-2025-final", "n:uniai-2025-winner", "n:uniai-2026-winner"]),
    ("9201", "contest", "누리디비 해커톤 2026 학생부문 대상 상금?", ["c:nuridb-hack-2026-student"]),
    ("9203", "contest", "NuriDB hackathon 2026 general division - what tracks are there?", ["c:nuridb-hack-2026-general"]),
    ("9201", "contest", "가온 CTF 본선 어디서 열려? 올해 거", ["c:gaon-ctf-2026-final"]),
    ("9203", "contest", "Gaon Security Lab CTF qualifier this year: how many student teams advance to the final?",
     ["c:gaon-ctf-2026-pre", "c:gaon-ctf-2026-final"]),
    ("9202", "contest", "한빛 미니앱 챌린지 시즌2 개발 지원금이 얼마인가요?", ["c:hanbit-miniapp-s2"]),
    ("9202", "contest", "선박 용접 이미지로 결함 찾는 AI 대회가 있나요?", ["c:haeon-weld-vision"]),
    ("9201", "contest", "단일세포 데이터 쓰는 대회 학생도 나갈 수 잇어?", ["c:cheongnam-bio-2026-student"]),
    ("9203", "contest", "다온시 디지털 트윈 챌린지 총 상금 얼마예요?", ["c:daon-twin-2026"]),
    ("9201", "contest", "다온시 교통데이터 해커톤 작년 대상 뭐였어?", ["c:daon-traffic-2025"]),
    ("9201", "contest", "{id:gaon-ctf-2026-final} 대회 상금 얼마야?", ["c:gaon-ctf-2026-final"]),
    ("9203", "contest", "what is {id:haeon-smartship-2026} about?", ["c:haeon-smartship-2026"]),
    ("9202", "contest", "Maritime Cyber CTF는 어디서 열렸나요?", ["c:haeon-maritime-ctf"]),
    ("9203", "contest", "Maru smart checkout challenge 마감 언제야?", ["c:maru-checkout-ux"]),
    ("9202", "contest", "ReCode 50+ 시즌 3 지원 자격이 어떻게 되나요?", ["c:recode-s3"]),
    ("9203", "contest", "where is the Saegil senior developer demo day held?", ["c:recode-demo-day"]),
    ("9201", "contest", "mir port hackathon 우승팀 이름 알려줘", ["c:mir-port-hack-2026", "n:mir-hack-winner"]),
    ("9202", "contest", "Byeolbit GenAI 챌린지에 참가하면 크레딧을 얼마나 주나요?", ["c:byeolbit-genai"]),
    ("9202", "contest", "나눔 오픈소스 아카데미 2026에서 PR이 몇 건 병합됐나요?",
     ["c:nanum-contrib-2026", "n:nanum-academy-2026-close"]),
    ("9203", "contest", "EV 충전 데이터 대회 언제 시작해?", ["c:hangyeol-ev-2027"]),
    ("9201", "contest", "코드나래 CI 스피드런 기준 파이프라인 몇 분이었지", ["c:codenarae-ci-speedrun"]),
    ("9201", "contest", "지금 진행 중인 해커톤 있어?", W("contests", "status", "2026-11-27", "2026-11-27", "hackathon")),
    ("9203", "contest", "곧 마감하는 대회 알려줘", W("contests", "end", "2026-11-27", "2026-12-03")),
    ("9202", "contest", "이번 주에 끝나는 공모전이 있나요?", W("contests", "end", "2026-11-23", "2026-11-29")),
    ("9201", "contest", "다음 달에 시작하는 해커톤 뭐 있어", W("contests", "start", *DEC, "hackathon")),
    ("9203", "contest", "any AI competitions running in December?", W("contests", "overlap", *DEC, "ai")),
    ("9201", "contest", "CTF next week?", W("contests", "overlap", "2026-11-30", "2026-12-06", "ctf")),
    ("9202", "contest", "내년 1월에 시작하는 대회가 있나요?", W("contests", "start", "2027-01-01", "2027-01-31")),
    ("9201", "contest", "지난달에 끝난 AI 대회", W("contests", "end", *OCT, "ai")),
    ("9203", "contest", "ongoing security challenges", W("contests", "status", "2026-11-27", "2026-11-27", "security")),
    ("9202", "contest", "올해 열린 데이터베이스 대회 목록 알려 주세요", W("contests", "overlap", "2026-01-01", "2026-12-31", "database")),
    ("9203", "contest", "오늘 마감하는 공모전 있어?", W("contests", "end", "2026-11-27", "2026-11-27")),
    # ----- news (28) -----
    ("9201", "news", "NuriDB 3.0 뭐 바뀌었어?", ["n:nuridb-30"]),
    ("9203", "news", "NuriDB 2.0 write throughput 얼마나 늘었어?", ["n:nuridb-20"]),
    ("9203", "news", "How many monthly users does the Hanbit super-app have now?", ["n:hanbit-15m"]),
    ("9202", "news", "한빛 앱이 처음 월간 이용자 천만 명을 넘은 게 언제인가요?", ["n:hanbit-10m", "n:hanbit-15m"]),
    ("9202", "news", "How far did Haeon's autonomous test ship sail on its coastal voyage?", ["n:haeon-mirae-1100"]),
    ("9201", "news", "다온시 자율주행 셔틀 내년에 정류장 몇 개로 늘어?", ["n:daon-shuttle-expand"]),
    ("9203", "news", "Daon City smart city budget for 2026?", ["n:daon-budget-2026"]),
    ("9202", "news", "배달 서비스를 사칭하는 피싱 미니앱 관련 기사 찾아 주세요", ["n:gaon-phishing-miniapps"]),
    ("9203", "news", "한결모빌리티 Series C 얼마 받았어?", ["n:hangyeol-series-c"]),
    ("9202", "news", "병원 FHIR 도입률에 관한 기사가 있나요?", ["n:fhir-adoption-27"]),
    ("9202", "news", "ReCode 50+ 시즌 1 수료생 중에 몇 명이 취업했나요?", ["n:recode-s1-capstone"]),
    ("9201", "news", "{id:nuridb-31} 이 기사 무슨 내용이야?", ["n:nuridb-31"]),
    ("9203", "news", "CellAtlas-KR has how many cells", ["n:cellatlas"]),
    ("9203", "news", "마루 무인 편의점 100호점 언제 열었어?", ["n:marutest-100"]),
    ("9201", "news", "codenarae IDE 4.0 new features?", ["n:codenarae-ide-4"]),
    ("9203", "news", "managed NuriDB on Byeolbit - which regions?", ["n:byeolbit-managed-nuridb"]),
    ("9202", "news", "가온보안연구소 2026 보안 위협 전망에서 1위 위협이 무엇이었나요?", ["n:gaon-2026-outlook"]),
    ("9201", "news", "미르항만공사 디지털 트윈 예산 얼마야", ["n:mir-twin-budget"]),
    ("9203", "news", "AI 자동발주 도입하고 폐기율 얼마나 줄었대?", ["n:maru-auto-order"]),
    ("9202", "news", "고령층 셀프계산대 실험 결과가 궁금합니다", ["n:maru-senior-checkout"]),
    ("9201", "news", "지난달 보안 뉴스 뭐 있었어?", W("news_articles", "published", *OCT, "security")),
    ("9202", "news", "이번 달 모빌리티 관련 기사를 보여 주세요", W("news_articles", "published", *NOV, "mobility")),
    ("9203", "news", "what's in the news this week?", W("news_articles", "published", "2026-11-23", "2026-11-29")),
    ("9202", "news", "작년 데이터베이스 관련 뉴스가 있었나요?", W("news_articles", "published", "2025-01-01", "2025-12-31", "database")),
    ("9203", "news", "AI news from last month", W("news_articles", "published", *OCT, "ai")),
    ("9201", "news", "이번 달 조선 해양 뉴스", W("news_articles", "published", *NOV, "maritime")),
    ("9203", "news", "november retail news pls", W("news_articles", "published", *NOV, "retail")),
    ("9201", "news", "오늘 나온 뉴스 있어?", W("news_articles", "published", "2026-11-27", "2026-11-27")),
    # ----- bookmark (10) -----
    ("9201", "bookmark", "내 북마크 중에 CTF 관련된 거 뭐 있었지?",
     ["b:9201:c:gaon-ctf-2026-final", "b:9201:c:gaon-junior-ctf-2027", "b:9201:n:gaon-ctf-2026-qual-result"]),
    ("9201", "bookmark", "북마크한 대회 중에 12월에 하는 거 있어?", W("bookmarks", "overlap", *DEC, None, "9201")),
    ("9202", "bookmark", "제가 저장해 둔 뉴스 기사 목록을 보여 주세요",
     ["b:9202:n:recode-s1-capstone", "b:9202:n:fhir-adoption-27", "b:9202:n:haeon-mirae-1100", "b:9202:n:recode-s3-recruit"]),
    ("9202", "bookmark", "북마크 중에 조선이나 해양 관련된 것이 있나요?",
     ["b:9202:c:haeon-weld-vision", "b:9202:n:haeon-mirae-1100"]),
    ("9203", "bookmark", "my bookmarks 중에 Maru 관련된 거 다 보여줘",
     ["b:9203:c:maru-checkout-ux", "b:9203:n:maru-senior-checkout", "b:9203:c:maru-retail-2026"]),
    ("9203", "bookmark", "What did I note about NuriDB?",
     ["b:9203:c:nuridb-perf-2026", "b:9203:n:byeolbit-managed-nuridb"]),
    ("9201", "bookmark", "내가 저장한 유니AI리그 관련 북마크",
     ["b:9201:c:uniai-2026-s2", "b:9201:n:uniai-2026-winner", "b:9201:c:uniai-2027-pre"]),
    ("9202", "bookmark", "ReCode 관련해서 북마크한 것들 정리해 주세요",
     ["b:9202:c:recode-s2", "b:9202:c:recode-demo-day", "b:9202:n:recode-s1-capstone", "b:9202:n:recode-s3-recruit"]),
    ("9203", "bookmark", "bookmarks w/ security stuff?",
     ["b:9203:n:gaon-phishing-miniapps", "b:9203:c:gaon-bugbounty"]),
    ("9201", "bookmark", "내가 키보드 얘기 메모한 거 뭐였지", ["b:9201:c:codenarae-advent-2026"]),
    # ----- general (26) -----
    ("9201", "general", "LSM 트리가 뭐야? B트리랑 차이도 알려줘", []),
    ("9203", "general", "What is a digital twin, in simple terms?", []),
    ("9202", "general", "FHIR와 HL7 v2의 차이점을 설명해 주세요", []),
    ("9202", "general", "슈퍼앱이 정확히 무엇인가요?", []),
    ("9203", "general", "Kotlin Multiplatform vs Flutter, which should I pick for a new app?", []),
    ("9201", "general", "해커톤 팀 빌딩 잘하는 법", []),
    ("9203", "general", "how do I read tech news efficiently?", []),
    ("9202", "general", "50대에 개발자로 재취업하려면 무엇을 준비해야 할까요?", []),
    ("9201", "general", "CTF 처음인데 포너블 공부 순서 추천해줘", []),
    ("9203", "general", "how to reduce write amplification in an LSM-based storage engine?", []),
    ("9201", "general", "파이썬에서 큰 CSV 파일 빨리 읽는 법", []),
    ("9202", "general", "쿠버네티스에서 파드가 CrashLoopBackOff 상태가 되면 어떻게 해야 하나요?", []),
    ("9203", "general", "What's the difference between RMSE and MAE?", []),
    ("9202", "general", "AIS 데이터가 정확히 뭔가요?", []),
    ("9202", "general", "공모전 수상 경력을 이력서에 어떻게 쓰면 좋을까요?", []),
    ("9203", "general", "is it worth doing a master's in bioinformatics?", []),
    ("9201", "general", "git rebase랑 merge 차이 뭐임", []),
    ("9203", "general", "서버리스랑 컨테이너 중에 뭐가 더 싸?", []),
    ("9201", "general", "GPL 라이브러리 쓰면 내 코드도 공개해야 돼?", []),
    ("9203", "general", "how to prepare for a coding interview in 3 months", []),
    ("9201", "general", "판교 근처 점심 맛집 추천해줘", []),
    ("9202", "general", "내일 서울 날씨 어떤가요?", []),
    ("9201", "general", "부산 1박 2일 여행 코스 추천 ㄱㄱ", []),
    ("9203", "general", "What time does the Maru store in Seongsu open on Sunday?", []),
    ("9201", "general", "해커톤 밤샘할 때 컨디션 관리 팁 있어?", []),
    ("9203", "general", "how do hackathons usually judge projects? like general criteria", []),
    # ----- greeting (6) -----
    ("9202", "greeting", "안녕하세요!", []),
    ("9203", "greeting", "hi there", []),
    ("9201", "greeting", "고마워 ㅎㅎ", []),
    ("9203", "greeting", "thanks a lot!", []),
    ("9202", "greeting", "감사합니다. 다음에 또 올게요~", []),
    ("9201", "greeting", "bye!", []),
]


def resolve(ref):
    parts = ref.split(":")
    if parts[0] == "c":
        return {"collection": "contests", "id": C[parts[1]]["id"]}
    if parts[0] == "n":
        return {"collection": "news_articles", "id": N[parts[1]]["id"]}
    if parts[0] == "b":
        return {"collection": "bookmarks", "id": B[(parts[1], parts[2] + ":" + parts[3])]["id"]}
    raise ValueError(ref)


def fill(text):
    def sub(m):
        s = m.group(1)
        return (C.get(s) or N[s])["id"]
    return re.sub(r"\{id:([a-z0-9-]+)\}", sub, text)


queries, windows = [], []
for i, (user, kind, text, exp) in enumerate(Q, 1):
    qid = "pj-%03d" % i
    if isinstance(exp, dict):
        expected = compute(exp, user)
        windows.append((qid, exp))
    else:
        expected = [resolve(r) for r in exp]
    opts = ({"includeContests": False, "includeNews": False, "includeBookmarks": True} if kind == "bookmark"
            else {"includeContests": True, "includeNews": True, "includeBookmarks": False})
    queries.append({"id": qid, "userId": user, "query": fill(text), "options": opts,
                    "expected": expected, "kind": kind})


def dump(name, rows):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


dump("contests.jsonl", contests)
dump("news_articles.jsonl", news)
dump("bookmarks.jsonl", bookmarks)
dump("queries.jsonl", queries)

if "-v" in sys.argv:
    for qid, spec in windows:
        q = next(x for x in queries if x["id"] == qid)
        print(qid, q["query"], spec["mode"], spec["from"], spec["to"], spec["tag"], len(q["expected"]))
        lut = {r["id"]: r["title"] for r in contests + news}
        lut.update({b["id"]: b["itemTitle"] for b in bookmarks})
        for e in q["expected"]:
            print("    ", lut[e["id"]])
print("contests=%d news=%d bookmarks=%d queries=%d" % (len(contests), len(news), len(bookmarks), len(queries)))
