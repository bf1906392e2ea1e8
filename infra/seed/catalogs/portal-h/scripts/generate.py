# -*- coding: utf-8 -*-
"""Generate the portal-h catalog (contests, news, bookmarks, queries).

Deterministic: ids come from random.Random(SEED) drawn in a fixed order.
Run:  python3 scripts/generate.py   (from anywhere)
"""
import json
import os
import random
import re
import sys
from datetime import date

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from data_contests import ORGS, CONTESTS  # noqa: E402
from data_news import OUTLETS, NEWS  # noqa: E402
from windows import matches_window, contest_status, REF_DAY  # noqa: E402

SEED = 20261216
rng = random.Random(SEED)
_used = set()


def new_id(prefix):
    while True:
        h = "%016x" % rng.getrandbits(64)
        if h not in _used:
            _used.add(h)
            return "%s-%s" % (prefix, h)


def iso(s):
    # "2026-03-02 10:00" -> "2026-03-02T10:00:00+09:00"
    d, t = s.split(" ")
    return "%sT%s:00+09:00" % (d, t)


def first_sentence(text):
    m = re.match(r"(.+?(?:다\.|\.))(\s|$)", text)
    return m.group(1) if m else text


# ---------------------------------------------------------------- contests
contests, CID = [], {}
for key, org, title, desc, start, end, tags in CONTESTS:
    cid = new_id("c")
    CID[key] = cid
    row = {
        "id": cid,
        "title": title,
        "description": desc,
        "startDate": iso(start),
        "endDate": iso(end),
        "status": None,
        "url": "https://%s/contests/%s" % (ORGS[org][2], key),
        "sourceName": ORGS[org][0],
        "tags": tags,
    }
    row["status"] = contest_status(row)
    contests.append(row)

# ---------------------------------------------------------------- news
news, NID = [], {}
for key, outlet, pub, tags, title, summary, paras in NEWS:
    nid = new_id("n")
    NID[key] = nid
    slug = key[2:] if key.startswith("n-") else key
    news.append({
        "id": nid,
        "title": title,
        "summary": summary,
        "content": "\n\n".join(paras),
        "publishedAt": iso(pub),
        "url": "https://%s/%s/%s" % (OUTLETS[outlet][1], pub[:7].replace("-", "/"), slug),
        "sourceName": OUTLETS[outlet][0],
        "tags": tags,
    })

C_BY_ID = {c["id"]: c for c in contests}
N_BY_ID = {n["id"]: n for n in news}

# ---------------------------------------------------------------- bookmarks
# (bkey, userId, item key, tag, memo)
BOOKMARKS = [
    # 9001: student, casual 반말 — compilers, CTF, hackathons
    ("b1-gcc-general", "9001", "gcc-2026-general", "compiler", "일반 부문이라 좀 빡셀 듯.. 18일 저녁 6시까지 제출해야 됨"),
    ("b1-gcc-student", "9001", "gcc-2026-student", "compiler", "작년엔 예선에서 떨어졌음ㅠ 올해는 루프 융합 꼭 끝내자"),
    ("b1-ctf-final", "9001", "dandan-ctf-2026-final", "ctf", "본선 진출함!! 19일 아침 10시까지 성수 가야 됨"),
    ("b1-ctf-2025", "9001", "n-dandan-2025-winner", "ctf", "0xKimchi 라이트업 나중에 꼭 읽어보기"),
    ("b1-busan-winter", "9001", "busan-hack-2027w", "hackathon", "친구들이랑 같이 나가기로 함, 해운대 숙소 알아보기"),
    ("b1-gaonlite2", "9001", "n-gaonlite-2", "compiler", "MLIR 프론트엔드 코드 뜯어봐야지"),
    ("b1-daegu-algo", "9001", "daegu-algo-2026", "algorithm", "매일 한 문제씩 풀자. 주말 팀전은 민호랑"),
    ("b1-ieum-2027", "9001", "ieum-2027-s1", "blockchain", "온체인 게임 트랙 재밌어 보임. 1월 5일까지 신청!"),
    ("b1-oss", "9001", "byeolbit-oss-winter", "opensource", "PR 5개 머지되면 1학점이래, Gaon-Lite 이슈부터 보자"),
    # 9002: mobility engineer, polite 존댓말
    ("b2-sdv", "9002", "kmsa-sdv-2026", "mobility", "팀원 세 명과 참가 중입니다. 22일 18시 대구 결선까지 준비해야 합니다."),
    ("b2-hgos", "9002", "n-hgos-4", "mobility", "존 컨트롤러 구조 참고용으로 저장해 둡니다."),
    ("b2-hg-2027", "9002", "hg-ad-2027-pre", "mobility", "2월 10일까지 신청해야 합니다. HG-Sim 4 버전을 미리 확인하겠습니다."),
    ("b2-hg-2026-winner", "9002", "n-hg-2026-final-winner", "mobility", "본선 우승팀의 폭우 구간 주행 전략을 팀 회의에서 공유하겠습니다."),
    ("b2-sec-2027", "9002", "kmsa-sec-2027", "security", "회사 보안팀과 함께 참가할지 검토 중입니다."),
    ("b2-bounty", "9002", "n-dandan-hg-bounty", "security", "버그 한 건에 최대 3,000만원이라니 놀랍습니다. 사내 보안 교육 자료로 쓰겠습니다."),
    ("b2-autosar", "9002", "n-kmsa-autosar-winners", "automotive", "Adaptive 트랙 수상작의 SOME/IP 개선 방법을 다시 읽어볼 예정입니다."),
    ("b2-market", "9002", "n-kmsa-market-2030", "report", "시장 전망 수치를 다음 주 발표 자료에 인용하려고 합니다."),
    ("b2-gwangju", "9002", "gwangju-yearend", "meetup", "광주 출장 일정과 겹치는지 확인해야 합니다."),
    # 9003: streaming / edtech / web3 product person, mixed English-Korean
    ("b3-abr", "9003", "mulgyeol-abr", "streaming", "ABR 대회, our team's rebuffering 아직 1% 넘음. need to fix before Jan 15"),
    ("b3-llhls", "9003", "n-mulgyeol-llhls", "streaming", "LL-HLS pipeline 참고. 200ms partial segments, benchmark numbers good"),
    ("b3-latency", "9003", "mulgyeol-latency", "hackathon", "Jan 16-17, 연차 써야 함"),
    ("b3-ieum-2027", "9003", "ieum-2027-s1", "blockchain", "RWA track 관심 있음, maybe team up with 민수"),
    ("b3-ieum3", "9003", "n-ieum-3", "blockchain", "gas fee 60% down — check our dApp cost again"),
    ("b3-dasom-2027", "9003", "dasom-2027-general", "edtech", "Edtech idea 공모전 일반 부문, deadline end of March"),
    ("b3-dasombot", "9003", "n-dasombot-1200", "edtech", "다솜봇 case study, pitch deck에 넣기"),
    ("b3-pureun", "9003", "n-pureun-seriesb", "agritech", "agritech investor list 참고용 (Saebyeok Ventures)"),
    ("b3-oreum", "9003", "oreum-pitch-2027", "startup", "GPU credits 필요함, apply in Feb"),
]


def ref(key):
    if key in CID:
        return ("contests", CID[key])
    if key in NID:
        return ("news", NID[key])
    raise KeyError(key)


bookmarks, BID = [], {}
for bkey, user, ikey, tag, memo in BOOKMARKS:
    coll, iid = ref(ikey)
    item = C_BY_ID[iid] if coll == "contests" else N_BY_ID[iid]
    bid = new_id("b")
    BID[bkey] = bid
    summary = first_sentence(item["description"] if coll == "contests" else item["summary"])
    bookmarks.append({
        "id": bid,
        "userId": user,
        "itemType": "CONTEST" if coll == "contests" else "NEWS_ARTICLE",
        "itemId": iid,
        "itemTitle": item["title"],
        "itemSummary": summary,
        "tag": tag,
        "memo": memo,
    })

# ---------------------------------------------------------------- queries
# Each query: (userId, kind, text, expected keys or a window spec)
# Item keys: contest keys, news keys ("n-..."), bookmark keys ("b1-.." etc).
# Text may contain {id:KEY} which is replaced by that item's id.
W = lambda **kw: kw  # window spec

QUERIES = [
    # ---------------- contest (33) ----------------
    ("9001", "contest", "2026 한결 자율주행 본선 대상 상금 얼마엿어?",
     ["hg-ad-2026-final", "n-hg-2026-final-winner", "n-hg-2026-schedule", "n-hg-prize-raise"]),
    ("9002", "contest", "When was the qualifier of the 2025 Hangyeol autonomous driving challenge held?",
     ["hg-ad-2025-pre", "n-hg-2025-pre-310"]),
    ("9001", "contest", "가온 컴파일러컵 2026 학생부문 과제 뭐임?",
     ["gcc-2026-student", "n-gcc-2026-student-task", "n-gcc-2026-kickoff", "n-gcc-2026-student-close"]),
    ("9003", "contest", "gaon compiler cup 2026 general division submission deadline?",
     ["gcc-2026-general", "n-gcc-2026-kickoff", "n-gaonlite-2"]),
    ("9001", "contest", "{id:seum-chip-2026-final} 대회 상금 얼마야?",
     ["seum-chip-2026-final", "n-seum-final-judges"]),
    ("9003", "contest", "{id:ieum-2027-s1} when does it start, and until when can I register?",
     ["ieum-2027-s1", "n-ieum-2027-open"]),
    ("9002", "contest", "Dandan CTF 본선은 어디에서 열리나요?",
     ["dandan-ctf-2026-final", "n-dandan-final-teams"]),
    ("9003", "contest", "이음체인 빌더톤 2026 총상금 얼마였지",
     ["ieum-2026", "n-ieum-2026-prize", "n-ieum-2026-winners", "n-ieum-2027-open"]),
    ("9001", "contest", "what was the theme of the busan developers hackathon 2026?",
     ["busan-hack-2026", "n-busan-hack-2026-winner"]),
    ("9002", "contest", "Which contest offers summer internships to the top three students?",
     ["gcc-2026-student", "n-gcc-2026-student-task"]),
    ("9003", "contest", "다솜 공모전 2027 일반부문 마감일이 언제야?",
     ["dasom-2027-general"]),
    ("9002", "contest", "Seum NPU compiler challenge 상금은 얼마인가요?",
     ["seum-npu-2026", "n-seum-npu-challenge"]),
    ("9001", "contest", "광주에서 하는 농업 해커톤 있어?",
     ["gwangju-agri-hack", "bitgoeul-ai-2026"]),
    ("9002", "contest", "KMSA SDV hackathon 2026 언제 끝나나요?",
     ["kmsa-sdv-2026", "n-kmsa-sdv-2026-start"]),
    ("9003", "contest", "how many leaf images are in the Pureundeul crop vision challenge",
     ["pureun-cropvision", "n-pureun-cropvision"]),
    ("9003", "contest", "물결스트림 ABR 대회 총상금",
     ["mulgyeol-abr", "n-mulgyeol-abr-open"]),
    ("9002", "contest", "Korea Mobility Software Association AUTOSAR 대회에는 어떤 트랙이 있나요?",
     ["kmsa-autosar-2026", "n-kmsa-autosar-open", "n-kmsa-autosar-winners"]),
    ("9001", "contest", "which contest used the HG-Sim 3 simulator?",
     ["hg-ad-2026-pre", "n-hg-2026-pre-sim3", "n-hg-2026-schedule"]),
    ("9002", "contest", "vehicle bug bounty max reward per bug?",
     ["dandan-bounty-2026", "n-dandan-hg-bounty"]),
    ("9003", "contest", "Oreum Cloud 스타트업 피치 데모데이 어디서 해?",
     ["oreum-pitch-2027"]),
    ("9001", "contest", "Daegu Code Club rust meetup 정원 몇명?",
     ["daegu-dec-meetup", "n-daegu-rust-meetup"]),
    # time-window contest questions
    ("9001", "contest", "지금 진행 중인 해커톤 있어?",
     W(coll="contests", mode="ongoing", tags=["hackathon"])),
    ("9002", "contest", "곧 마감하는 대회 알려주세요",
     W(coll="contests", mode="end", frm="2026-12-16", to="2026-12-22")),
    ("9003", "contest", "다음 달에 시작하는 대회 뭐 있어?",
     W(coll="contests", mode="start", frm="2027-01-01", to="2027-01-31")),
    ("9003", "contest", "any hackatons in january?",
     W(coll="contests", mode="overlap", frm="2027-01-01", to="2027-01-31", tags=["hackathon"])),
    ("9001", "contest", "anything closing today?",
     W(coll="contests", mode="end", frm="2026-12-16", to="2026-12-16")),
    ("9001", "contest", "CTF in february?",
     W(coll="contests", mode="overlap", frm="2027-02-01", to="2027-02-28", tags=["ctf"])),
    ("9001", "contest", "올해 열린 컴파일러 대회 다 알려줘",
     W(coll="contests", mode="overlap", frm="2026-01-01", to="2026-12-31", tags=["compiler"])),
    ("9002", "contest", "anything starting this week?",
     W(coll="contests", mode="start", frm="2026-12-14", to="2026-12-20")),
    ("9002", "contest", "다음 주 밋업 일정 알려주세요",
     W(coll="contests", mode="overlap", frm="2026-12-21", to="2026-12-27", tags=["meetup"])),
    ("9003", "contest", "contests starting in February",
     W(coll="contests", mode="start", frm="2027-02-01", to="2027-02-28")),
    ("9003", "contest", "closing soon AI competitions",
     W(coll="contests", mode="end", frm="2026-12-16", to="2026-12-22", tags=["ai"])),
    ("9001", "contest", "Ieum Chain contests this year",
     W(coll="contests", mode="overlap", frm="2026-01-01", to="2026-12-31", org="이음체인")),

    # ---------------- news (26) ----------------
    ("9001", "news", "단단보안 CTF 2025 우승팀 누구야",
     ["n-dandan-2025-winner"]),
    ("9001", "news", "Dandan CTF 2026 qualifier how many teams joined",
     ["n-dandan-quals-412", "n-dandan-final-teams"]),
    ("9002", "news", "Seum Semiconductor Q3 NPU shipment growth?",
     ["n-seum-q3-npu"]),
    ("9002", "news", "Hangyeol HG-OS 4.0은 ECU 몇 개를 통합했나요?",
     ["n-hgos-4"]),
    ("9003", "news", "이음 3.0 업그레이드로 가스비 얼마나 줄었어",
     ["n-ieum-3"]),
    ("9003", "news", "Ieum wallet SDK social login news",
     ["n-ieum-wallet-sdk2"]),
    ("9003", "news", "how many schools use Dasombot now",
     ["n-dasombot-1200"]),
    ("9003", "news", "Mulgyeol live latency 1.8 seconds article",
     ["n-mulgyeol-llhls"]),
    ("9001", "news", "부산 해커톤 2026 대상 받은 팀 어디야",
     ["n-busan-hack-2026-winner", "n-busan-yearend"]),
    ("9002", "news", "2025 한결 자율주행 본선 대상 팀 이름을 알려주세요",
     ["n-hg-2025-final-winner"]),
    ("9001", "news", "Gaon-Lite 2.0 언제 나왔어?",
     ["n-gaonlite-2"]),
    ("9003", "news", "물결스트림 AV1 비중 몇 퍼센트?",
     ["n-mulgyeol-av1"]),
    ("9003", "news", "딸기 병해 예측 챌린지 결과 어떻게 됐어?",
     ["n-pureun-farm-2026-winners"]),
    ("9003", "news", "TideDeed가 무슨 서비스야?",
     ["n-ieum-2026-winners"]),
    ("9002", "news", "토마토 생육 데이터 몇 건 공개했나요",
     ["n-pureun-farm-2025-open", "pureun-farm-2025"]),
    ("9003", "news", "{id:n-pureun-seriesb} 이 기사 요약해줘",
     ["n-pureun-seriesb"]),
    ("9001", "news", "dapp 재진입 취약점 비율 보고서",
     ["n-dandan-reentrancy"]),
    ("9002", "news", "KMSA 2030 automotive software market forecast",
     ["n-kmsa-market-2030"]),
    ("9001", "news", "대구코드클럽 회원 몇 명이야?",
     ["n-daegu-2000"]),
    ("9002", "news", "How many engineers work at Hangyeol's Daegu campus?",
     ["n-hg-daegu-campus"]),
    # time-window news questions
    ("9002", "news", "지난달 모빌리티 뉴스 보여주세요",
     W(coll="news", mode="published", frm="2026-11-01", to="2026-11-30", tags=["mobility"])),
    ("9001", "news", "이번 달 나온 해커톤 뉴스",
     W(coll="news", mode="published", frm="2026-12-01", to="2026-12-31", tags=["hackathon"])),
    ("9003", "news", "edtech news from last year",
     W(coll="news", mode="published", frm="2025-01-01", to="2025-12-31", tags=["edtech"])),
    ("9001", "news", "last month's news on chips and compilers",
     W(coll="news", mode="published", frm="2026-11-01", to="2026-11-30", tags=["semiconductor", "compiler"])),
    ("9002", "news", "이번 주 해커톤 소식 있나요?",
     W(coll="news", mode="published", frm="2026-12-14", to="2026-12-20", tags=["hackathon"])),
    ("9003", "news", "web3 news from last month",
     W(coll="news", mode="published", frm="2026-11-01", to="2026-11-30", tags=["blockchain"])),

    # ---------------- bookmark (10) ----------------
    ("9001", "bookmark", "내가 저장한 컴파일러 관련 북마크 보여줘",
     ["b1-gcc-general", "b1-gcc-student", "b1-gaonlite2"]),
    ("9001", "bookmark", "did i bookmark any CTF stuff?",
     ["b1-ctf-final", "b1-ctf-2025"]),
    ("9001", "bookmark", "숙소 알아봐야 한다고 메모한 거 뭐였지",
     ["b1-busan-winter"]),
    ("9001", "bookmark", "ieum 빌더톤 북마크에 내가 뭐라고 적었더라",
     ["b1-ieum-2027"]),
    ("9002", "bookmark", "제가 저장해 둔 뉴스 중 보안 관련 기사가 있나요?",
     ["b2-bounty"]),
    ("9002", "bookmark", "제가 북마크한 대회 중 내년에 열리는 것을 알려주세요",
     W(coll="bookmarks", mode="overlap", frm="2027-01-01", to="2027-12-31")),
    ("9002", "bookmark", "발표 자료에 인용하려던 보고서 북마크 찾아주세요",
     ["b2-market"]),
    ("9003", "bookmark", "my bookmarks about streaming",
     ["b3-abr", "b3-llhls", "b3-latency"]),
    ("9003", "bookmark", "web3 북마크 뭐 있지?",
     ["b3-ieum-2027", "b3-ieum3"]),
    ("9003", "bookmark", "북마크한 것 중 2월에 하는 거 있어?",
     W(coll="bookmarks", mode="overlap", frm="2027-02-01", to="2027-02-28")),

    # ---------------- general (25) ----------------
    ("9001", "general", "스마트 컨트랙트가 뭐야?", []),
    ("9001", "general", "What is LLVM IR, in simple terms?", []),
    ("9002", "general", "AUTOSAR Classic과 Adaptive의 차이를 설명해 주세요", []),
    ("9003", "general", "adaptive bitrate streaming은 어떤 원리로 동작해?", []),
    ("9001", "general", "파이썬으로 CSV 파일 읽는 법", []),
    ("9001", "general", "how do i blink an LED with embedded rust on an stm32?", []),
    ("9003", "general", "how to fix an infinite loop in react useEffect", []),
    ("9001", "general", "MLIR이랑 LLVM 차이가 뭐야", []),
    ("9003", "general", "explain zero knowledge proofs like I'm five", []),
    ("9001", "general", "신입 개발자 포트폴리오 어떻게 준비해야 돼?", []),
    ("9002", "general", "Should I learn Go or Rust for a backend career?", []),
    ("9001", "general", "해커톤 팀 빌딩 잘하는 팁 있어?", []),
    ("9001", "general", "CTF 처음인데 포너블 공부 어떻게 시작해?", []),
    ("9002", "general", "부산 돼지국밥 맛집 추천해 주세요", []),
    ("9002", "general", "대구 내일 날씨 어때요?", []),
    ("9003", "general", "광주 가볼만한 곳 추천", []),
    ("9003", "general", "what's the weather like in Seoul this weekend?", []),
    ("9003", "general", "점심 뭐 먹지", []),
    ("9001", "general", "teach me RISC-V assembly basics", []),
    ("9003", "general", "How to reduce HLS latency in nginx-rtmp?", []),
    ("9003", "general", "스마트팜 창업하려면 초기 자본 얼마나 필요해?", []),
    ("9003", "general", "solidity에서 modifier는 어떻게 써?", []),
    ("9001", "general", "git rebase vs merge 뭐가 나아?", []),
    ("9002", "general", "연봉 협상할 때 팁이 있을까요?", []),
    ("9003", "general", "How do I convert KST to UTC in JavaScript?", []),

    # ---------------- greeting (6) ----------------
    ("9001", "greeting", "안녕!", []),
    ("9002", "greeting", "안녕하세요, 처음 써 봅니다", []),
    ("9003", "greeting", "hi there!", []),
    ("9001", "greeting", "고마워~ 덕분에 찾았어", []),
    ("9003", "greeting", "thanks a lot, bye!", []),
    ("9002", "greeting", "감사합니다. 다음에 또 올게요", []),
]

COLL_OF = {}
for k, v in CID.items():
    COLL_OF[k] = ("contests", v)
for k, v in NID.items():
    COLL_OF[k] = ("news", v)
for k, v in BID.items():
    COLL_OF[k] = ("bookmarks", v)

DATA = {"contests": contests, "news": news, "bookmarks": bookmarks}


def fill(text):
    return re.sub(r"\{id:([^}]+)\}", lambda m: COLL_OF[m.group(1)][1], text)


queries, WINDOW_TABLE = [], {}
for i, (user, kind, text, exp) in enumerate(QUERIES, 1):
    qid = "ph-%03d" % i
    if isinstance(exp, dict):
        WINDOW_TABLE[qid] = exp
        ids = sorted(matches_window(DATA, exp, user))
        expected = [{"collection": exp["coll"], "id": x} for x in ids]
    else:
        expected = [{"collection": COLL_OF[k][0], "id": COLL_OF[k][1]} for k in exp]
    # the engine names the news collection "news_articles"; this script calls it "news"
    expected = [{**e, "collection": "news_articles" if e["collection"] == "news" else e["collection"]}
                for e in expected]
    if kind == "bookmark":
        opts = {"includeContests": False, "includeNews": False, "includeBookmarks": True}
    else:
        opts = {"includeContests": True, "includeNews": True, "includeBookmarks": False}
    queries.append({"id": qid, "userId": user, "query": fill(text), "options": opts,
                    "expected": expected, "kind": kind})


def dump(name, rows):
    with open(os.path.join(ROOT, name), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


dump("contests.jsonl", contests)
dump("news_articles.jsonl", news)
dump("bookmarks.jsonl", bookmarks)
dump("queries.jsonl", queries)
# machine-readable copy of the window table (validate.py has its own literal copy)
with open(os.path.join(HERE, "window_questions.json"), "w", encoding="utf-8") as f:
    json.dump(WINDOW_TABLE, f, ensure_ascii=False, indent=1, sort_keys=True)

if __name__ == "__main__":
    from collections import Counter
    print("contests", len(contests), Counter(c["status"] for c in contests))
    print("news", len(news))
    print("bookmarks", len(bookmarks))
    print("queries", len(queries), Counter(q["kind"] for q in queries))
    for qid, spec in sorted(WINDOW_TABLE.items()):
        q = next(q for q in queries if q["id"] == qid)
        print(qid, q["query"], "->", len(q["expected"]), spec)
