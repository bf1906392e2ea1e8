"""Generate the portal-f catalog files from the hand-written data modules."""
import json, os, random, re, sys
from datetime import date, datetime

sys.path.insert(0, os.path.dirname(__file__))
from data_contests import CONTESTS
from data_news import NEWS, SOURCES
from windows import WINDOWS, match

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = date(2026, 11, 22)
rng = random.Random(7001_2026_1122)


def hexid(prefix, used):
    while True:
        h = prefix + "".join(rng.choice("0123456789abcdef") for _ in range(16))
        if h not in used:
            used.add(h)
            return h


def iso(s):
    return datetime.strptime(s, "%Y-%m-%d %H:%M").strftime("%Y-%m-%dT%H:%M:00+09:00")


def status(start, end):
    s, e = date.fromisoformat(start[:10]), date.fromisoformat(end[:10])
    if e < REF:
        return "ENDED"
    if s > REF:
        return "UPCOMING"
    return "ONGOING"


used = set()
contests, news = [], []
CID, NID = {}, {}
for key, title, st, en, src, dom, tags, desc in CONTESTS:
    cid = hexid("c-", used)
    CID[key] = cid
    contests.append({"id": cid, "title": title, "description": desc, "startDate": iso(st), "endDate": iso(en),
                     "status": status(st, en), "url": f"https://{dom}/contests/{key}", "sourceName": src, "tags": tags})
for key, pub, src, tags, title, summary, paras in NEWS:
    nid = hexid("n-", used)
    NID[key] = nid
    news.append({"id": nid, "title": title, "summary": summary, "content": "\n\n".join(paras), "publishedAt": iso(pub),
                 "url": f"https://{SOURCES[src]}/articles/{pub[:4]}/{pub[5:7]}/{key}", "sourceName": src, "tags": tags})
CBY = {c["id"]: c for c in contests}
NBY = {n["id"]: n for n in news}

# ---------------- bookmarks ----------------
BOOKMARKS = {
    "7001": [
        ("c", "khcl-2026-final", "algorithm", "본선 진출함!! 12/12 교육센터 가는 길 미리 확인하기"),
        ("c", "shield-ctf-2026-finals", "security", "새싹해커즈 선배들 본선 나감. 현장 응원 되는지 물어보기"),
        ("c", "ocfk-autumn-2026", "opensource", "동아리 트랙 신청 완료. 28일까지 PR 머지돼야 인정됨"),
        ("c", "khcl-winter-minihack-2027", "hackathon", "1학년 후배들 데리고 나가자"),
        ("c", "youth-ai-ethics", "idea", "영상으로 내도 된대. 딥페이크 주제 어때?"),
        ("c", "khcl-oss-contrib", "opensource", "지도교사 등록 정보쌤한테 부탁드리기"),
        ("n", "khcl-2026-finalists", "highschool", "명단에 내 이름 있음 ㅎㅎ"),
        ("n", "girls-coding-camp", "women", "동아리 여자 후배들한테 공유하기"),
        ("n", "ocfk-cla-policy", "opensource", "이제 보호자 서명 없어도 기여 가능!"),
    ],
    "7002": [
        ("c", "hercode-winter-2026", "hackathon", "데모 영상 24일 마감. 일요일 저녁 팀 싱크 잡기"),
        ("c", "datasoop-forecast-2026", "data", "올해는 시간 단위 예측이네요. 작년 피처 코드 재사용 가능한지 확인"),
        ("c", "datasoop-llmops-hack", "hackathon", "숲파일럿 무료 체험으로 미리 익혀두기"),
        ("c", "women-datathon-2026", "data", "참가했던 대회. 입문 트랙 노트북 자료 다시 보기"),
        ("c", "vectornamu-search-2027", "search", "1월 시작. 그 전에 하이브리드 검색 논문 정리"),
        ("n", "datasoop-series-c", "funding", "이직 연봉 협상할 때 참고"),
        ("n", "hercode-leadership-2026", "women", "다음 팀 회의 때 공유할 자료"),
        ("n", "vectornamu-datasoop-rag-eval", "ai", "툴킷 공개되면 사내 RAG에 바로 붙여보기"),
        ("n", "moatable-3-rc", "database", "벡터 컬럼 성능, VectorNamu랑 비교 테스트 해보기"),
    ],
    "7003": [
        ("c", "shield-ctf-2026-finals", "security", "Qualified 14th! 본선장 근처 숙소 예약"),
        ("c", "six-g-hack-2027", "hackathon", "테스트베드 API access 미리 신청해두기"),
        ("c", "haneul-6g-channel", "6g", "Baseline model by mid-December, then tune"),
        ("c", "shield-bounty-s3", "security", "Onnuri app scope 다시 확인. 인증 API 쪽 재점검"),
        ("c", "openran-plugfest-2026", "telecom", "Attended day 2 — DU/RIC interop notes in Notion"),
        ("n", "onnuri-auth-api-vuln", "security", "BOLA case study for next team seminar"),
        ("n", "six-g-field-trial", "6g", "120Gbps @300m — compare with our lab numbers"),
        ("n", "gureum-cred-stuffing", "security", "MFA 의무화 전에 우리 팀 콘솔 계정 점검"),
        ("n", "openran-plugfest-report", "telecom", "Read the full interop report when published"),
    ],
}
bookmarks, BID = [], {}
for uid, rows in BOOKMARKS.items():
    for typ, key, tag, memo in rows:
        bid = hexid("b-", used)
        BID[(uid, key)] = bid
        if typ == "c":
            item = CBY[CID[key]]
            summ = re.split(r"(?<=\.)\s", item["description"])[0]
            itype = "CONTEST"
        else:
            item = NBY[NID[key]]
            summ = item["summary"]
            itype = "NEWS_ARTICLE"
        bookmarks.append({"id": bid, "userId": uid, "itemType": itype, "itemId": item["id"], "itemTitle": item["title"],
                          "itemSummary": summ.strip(), "tag": tag, "memo": memo})

# ---------------- queries ----------------
U = "7001"  # default asker for non-bookmark questions rotates below
Q = []  # (kind, userId, query, expected list of (collection,key or (uid,key)))


def c(k): return ("contests", k)
def n(k): return ("news_articles", k)
def b(u, k): return ("bookmarks", (u, k))


contest_qs = [
    ("Shield CTF 2026 본선 언제야? 예선 말고", [c("shield-ctf-2026-finals")]),
    ("온누리텔레콤 6G 공모전 올해 학생 부문 요강 좀 알려줘", [c("onnuri-6g-2026-student")]),
    ("What was the grand prize perk in Onnuri Telecom's 6G idea contest for working professionals this year?", [c("onnuri-6g-2026-general")]),
    ("전국 고교 코딩 리그 작년 본선은 몇 문제 나왔어?", [c("khcl-2025-final")]),
    ("HerCode hackathon 2027 접수 언제 열려요?", [c("hercode-2027")]),
    ("그녀의코드 겨울 온라인 해커톤 데모 영상 마감 언제예요?", [c("hercode-winter-2026"), n("hercode-winter-kickoff")]),
    ("데이터숲 수요예측 대회 올해 거 최종 제출 마감일", [c("datasoop-forecast-2026"), n("datasoop-forecast-2026-open")]),
    ("창고에서 로봇이 상자 옮기는 대회 있잖아, 그거 본선 일정 궁금해", [c("hangyeol-robot-2026-final")]),
    ("쇼핑몰 클릭 로그로 다음 구매 예측하는 추천 대회 지금 하고 있지?", [c("nm-recsys-2026")]),
    ("쿠버네티스 보안만 다루는 CTF 있었던 것 같은데 그거 뭐였지", [c("gureum-k8s-ctf-2026")]),
    ("Is there a competition where you train ML models on measured sub-THz channel data?", [c("haneul-6g-channel"), n("haneul-channel-dataset")]),
    ("새솔칩스가 주최하는 대회 전부 알려줘", [c("saesol-npu-2025"), c("saesol-edge-2026"), c("saesol-npu-2027")]),
    ("벡터나무에서 연 대회 목록 보여줘", [c("vectornamu-embed-2025"), c("vectornamu-rag-2026"), c("vectornamu-search-2027")]),
    ("{codenuri-r40} 대회 설명해줘", [c("codenuri-r40")]),
    ("what is {a11y-ideathon-2026}? who ran it?", [c("a11y-ideathon-2026")]),
    ("모아레이크 데이터 엔지니어링 대회 2027년 거 언제 시작해?", [c("moalake-cup-2027")]),
    ("방패시큐리티가 했던 LLM 챗봇 공격하는 레드팀 대회 정보", [c("shield-ai-redteam-2026")]),
    ("다음 주에 마감되는 대회 뭐 있어?", None),
    ("Anything closing soon? Contests ending within the next week", None),
    ("다음 달에 열리는 해커톤 있어?", None),
    ("오늘 참가할 수 있는 진행 중인 해커톤 있나요", None),
    ("이번 달 보안 대회 뭐 있었어?", None),
    ("12월에 알고리즘 대회 있어?", None),
    ("지난달에 열린 알고리즘 대회들", None),
    ("작년에 열린 CTF 뭐 있었지?", None),
    ("내년 1월 해커톤 일정 알려줘", None),
    ("올해 열린 여성 개발자 대상 대회 전부 보여줘", None),
    ("any game jam this December?", None),
    ("연말에 진행 중인 오픈소스 대회나 스프린트 있어?", None),
    ("고등학생이 나갈 수 있는 대회 중에 다음 달에 시작하는 거", None),
    ("전국 고교 코딩 리그 2026 예선 끝났지? 결과 나왔어?", [c("khcl-2026-prelim"), n("khcl-2026-finalists")]),
]
news_qs = [
    ("새벽길로지스 개인정보 유출 과징금 얼마 나왔어?", [n("saebyeok-fine")]),
    ("Saebyeokgil data breach in 2025 — what exactly leaked?", [n("saebyeok-breach-2025")]),
    ("누리마켓 11.11 결제 장애 원인 뭐였음?", [n("nm-1111-delay")]),
    ("VectorNamu disk-based index 나온 버전 기사", [n("vectornamu-3-0")]),
    ("Sol-N3 스펙 알려줘", [n("saesol-sol-n3")]),
    ("새솔칩스 상장 관련 뉴스 다 찾아줘", [n("saesol-ipo-filing"), n("saesol-ipo-day")]),
    ("소리JS 5 베타 뭐가 바뀌었어?", [n("sori-js-5-beta")]),
    ("가온 언어가 재단 졸업 프로젝트 됐다는 기사", [n("gaon-graduated")]),
    ("Which telco launched a network slice for delivery robots?", [n("onnuri-slicing-logistics")]),
    ("여성 개발자 팀장 비율 조사한 보고서 기사 찾아줘", [n("hercode-leadership-2026")]),
    ("DataSoop 투자 유치 기사 전부", [n("datasoop-series-b"), n("datasoop-series-c")]),
    ("MoaTable에 벡터 컬럼 추가됐다던데 그 뉴스", [n("moatable-3-rc")]),
    ("쇼핑몰 호스팅 업체 랜섬웨어 사건 어떻게 된 거야", [n("ransomware-hosting")]),
    ("HerCode Winter Build-a-thon 시작했다는 기사 몇 팀 참가했대?", [n("hercode-winter-kickoff")]),
    ("구름다리 콘솔 계정 털린 사건, MFA 없는 계정 몇 개였어?", [n("gureum-cred-stuffing")]),
    ("Onnuri and Haneulmang 6G field trial — how many Gbps?", [n("six-g-field-trial")]),
    ("{n:codenuri-ai-tool-survey} 이 기사 핵심만 요약해줘", [n("codenuri-ai-tool-survey")]),
    ("지난달 보안 사고 뉴스 정리해줘", None),
    ("이번 주 AI 관련 뉴스 뭐 있어?", None),
    ("작년 12월 뉴스 보여줘", None),
    ("올해 투자 유치 소식 모아줘", None),
    ("이번 달 6G 뉴스", None),
    ("last month's telecom news please", None),
    ("작년 11월에 클라우드 장애 났던 기사 있었지?", None),
    ("이번 달 나온 데이터베이스 뉴스", None),
    ("지난주 물류 관련 뉴스 있어?", None),
    ("작년에 나온 6G 관련 기사들", None),
    ("누리마켓 AI 쇼핑 도우미 Nuri Mate 출시 기사", [n("nm-nuri-mate")]),
    ("프런트엔드 프레임워크 Sori.js에서 가상 DOM 없앤 버전 기사", [n("sori-js-4")]),
]
bookmark_qs = [
    ("7001", "내 북마크 중에 해커톤 뭐 있었지?", [b("7001", "khcl-winter-minihack-2027")]),
    ("7001", "북마크한 뉴스 기사들 보여줘", [b("7001", "khcl-2026-finalists"), b("7001", "girls-coding-camp"), b("7001", "ocfk-cla-policy")]),
    ("7001", "내가 저장해둔 대회 중에 12월에 있는 거", [b("7001", "khcl-2026-final"), b("7001", "shield-ctf-2026-finals"), b("7001", "youth-ai-ethics"), b("7001", "khcl-oss-contrib")]),
    ("7001", "내 북마크에 오픈소스 관련된 거 뭐 있어?", [b("7001", "ocfk-autumn-2026"), b("7001", "khcl-oss-contrib"), b("7001", "ocfk-cla-policy")]),
    ("7002", "제가 북마크한 뉴스 중에 DataSoop 관련 기사 있었나요?", [b("7002", "datasoop-series-c"), b("7002", "vectornamu-datasoop-rag-eval")]),
    ("7002", "내 북마크에서 여성 개발자 관련된 것만 골라줘", [b("7002", "hercode-winter-2026"), b("7002", "women-datathon-2026"), b("7002", "hercode-leadership-2026")]),
    ("7002", "what did I note about the MoaTable article I saved?", [b("7002", "moatable-3-rc")]),
    ("7003", "my bookmarked CTF — when is it again?", [b("7003", "shield-ctf-2026-finals")]),
    ("7003", "북마크한 6G 관련 항목 정리해줘", [b("7003", "six-g-hack-2027"), b("7003", "haneul-6g-channel"), b("7003", "six-g-field-trial")]),
    ("7003", "보안 관련 북마크 다 보여줘", [b("7003", "shield-ctf-2026-finals"), b("7003", "shield-bounty-s3"), b("7003", "onnuri-auth-api-vuln"), b("7003", "gureum-cred-stuffing")]),
]
general_qs = [
    "pytest로 async 함수 테스트하는 방법 알려줘",
    "what is a vector database and when do I actually need one?",
    "해커톤 나가면 취업에 진짜 도움 돼?",
    "CTF 처음인데 포렌식 문제는 어디서부터 공부해야 돼?",
    "5G에서 mmWave랑 sub-6GHz 대역 차이가 뭐야?",
    "How do I set up a local Kubernetes cluster on my laptop for testing?",
    "HNSW 알고리즘 원리 간단하게 설명해줘",
    "RAG 평가할 때 faithfulness 지표는 보통 어떻게 계산해요?",
    "고등학교 코딩 동아리 첫 수업으로 뭘 가르치면 좋을까?",
    "women in tech 커뮤니티에서 멘토 구하는 팁 있어?",
    "오픈소스 첫 PR 보낼 때 주의할 점이 뭐야",
    "Apache 2.0이랑 MIT 라이선스 차이 뭐예요?",
    "수요예측 모델 평가할 때 MAPE 말고 어떤 지표 써?",
    "물류 경로 최적화(VRP) 풀 때 쓸 만한 파이썬 라이브러리 추천해줘",
    "Kotlin Multiplatform vs Flutter — which should a small team pick?",
    "레이크하우스가 데이터 웨어하우스랑 뭐가 달라?",
    "데이터 파이프라인 오케스트레이션에 Airflow 말고 쓸 만한 거 있어?",
    "알고리즘 대회 레이팅 올리려면 하루에 몇 문제 정도 풀어야 해?",
    "개발자 포트폴리오용 GitHub README 어떻게 꾸미면 좋아요?",
    "SQL 인젝션 막으려면 ORM만 쓰면 충분해?",
    "GPU 없이 CPU에서 PyTorch 모델 추론 빠르게 하는 방법 있어?",
    "오늘 저녁 뭐 먹지? 혼밥 메뉴 추천 좀",
    "부산 1박 2일 여행 코스 추천해줘",
    "what's the weather usually like in Seoul in late November?",
    "김장하려는데 4인 가족이면 배추 몇 포기 사야 돼?",
    "주말에 판교 근처 조용한 카페 어디 좋아?",
]
greeting_qs = ["안녕!", "hi there 👋", "고마워요 덕분에 찾았어요", "thanks, that helped!", "안녕하세요~ 처음 써봐요", "ㅎㅇ 오늘도 왔다"]

users = ["7001", "7002", "7003"]
queries, windows_out = [], {}
qn = 0


def add(kind, uid, text, exp, opts):
    global qn
    qn += 1
    qid = f"pf-{qn:03d}"
    queries.append({"id": qid, "userId": uid, "query": text, "options": opts, "expected": exp, "kind": kind})
    return qid


CN = {"includeContests": True, "includeNews": True, "includeBookmarks": False}
BM = {"includeContests": False, "includeNews": False, "includeBookmarks": True}


def resolve(exp):
    out = []
    for coll, k in exp:
        if coll == "contests":
            out.append({"collection": coll, "id": CID[k]})
        elif coll == "news_articles":
            out.append({"collection": coll, "id": NID[k]})
        else:
            out.append({"collection": coll, "id": BID[k]})
    return out


def fill(text):
    for k in CID:
        text = text.replace("{" + k + "}", CID[k])
    for k in NID:
        text = text.replace("{n:" + k + "}", NID[k])
    return text


i = 0
for kind, qs in (("contest", contest_qs), ("news", news_qs)):
    for text, exp in qs:
        uid = users[i % 3]; i += 1
        if exp is None:
            spec = WINDOWS[text]
            coll = "contests" if spec["coll"] == "contests" else "news_articles"
            items = contests if coll == "contests" else news
            res = [{"collection": coll, "id": it["id"]} for it in items if match(spec, it)]
            assert 1 <= len(res) <= 5, (text, len(res))
            qid = add(kind, uid, text, res, dict(CN))
            windows_out[qid] = {"query": text, **spec}
        else:
            add(kind, uid, fill(text), resolve(exp), dict(CN))
for uid, text, exp in bookmark_qs:
    add("bookmark", uid, text, resolve(exp), dict(BM))
for text in general_qs:
    uid = users[i % 3]; i += 1
    add("general", uid, text, [], dict(CN))
for text in greeting_qs:
    uid = users[i % 3]; i += 1
    add("greeting", uid, text, [], dict(CN))


def dump(name, rows):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


dump("contests.jsonl", contests)
dump("news_articles.jsonl", news)
dump("bookmarks.jsonl", bookmarks)
dump("queries.jsonl", queries)
with open(os.path.join(OUT, "scripts", "time_windows.json"), "w", encoding="utf-8") as f:
    json.dump(windows_out, f, ensure_ascii=False, indent=1)
from collections import Counter
print(len(contests), len(news), len(bookmarks), len(queries), Counter(q["kind"] for q in queries),
      Counter(c["status"] for c in contests))
for qid, w in windows_out.items():
    q = next(q for q in queries if q["id"] == qid)
    names = [(CBY.get(e["id"]) or NBY.get(e["id"]))["title"] for e in q["expected"]]
    print(qid, w["query"], "->", names)
