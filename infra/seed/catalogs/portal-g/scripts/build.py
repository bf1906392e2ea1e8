#!/usr/bin/env python3
"""Generate catalog portal-g (contests, news, bookmarks, queries) from the data modules.

Deterministic: every id comes from random.Random(SEED + ":" + key), so re-running
gives identical files. Statuses are computed from dates (reference day 2026-11-25 KST).
Time-word query answers are computed with the window table in validate.py.
"""
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from data_contests import C, ORG_URL  # noqa: E402
from data_news_a import N_A  # noqa: E402
from data_news_b import N_B  # noqa: E402
from data_news_c import N_C  # noqa: E402
import validate  # noqa: E402

SEED = "portal-g-2026"

OUTLET_URL = {
    "테크누리": "https://technuri.example",
    "핀테크데일리": "https://fintechdaily.example",
    "Game Insight": "https://gameinsight.example",
    "헬스테크뉴스": "https://healthtechnews.example",
    "Robot Times": "https://robottimes.example",
    "Dev Weekly": "https://devweekly.example",
    "공공데이터저널": "https://opendatajournal.example",
}


def hid(prefix, key):
    return f"{prefix}-{random.Random(f'{SEED}:{prefix}:{key}').getrandbits(64):016x}"


def iso(s):
    d, t = s.split()
    return f"{d}T{t}:00+09:00"


def first_sentence(text):
    m = re.match(r"(.+?[.!?])(\s|$)", text)
    return m.group(1) if m else text


# ---------------------------------------------------------------- contests
contests, cid = [], {}
for key, title, org, start, end, tags, path, desc in C:
    assert key not in cid, key
    cid[key] = hid("c", key)
    row = {"id": cid[key], "title": title, "description": desc, "startDate": iso(start), "endDate": iso(end),
           "status": None, "url": ORG_URL[org] + "/contests" + path, "sourceName": org, "tags": tags}
    row["status"] = validate.status_of(row)
    contests.append(row)

# ---------------------------------------------------------------- news
news, nid = [], {}
for key, pub, outlet, tags, title, summary, paras in N_A + N_B + N_C:
    assert key not in nid, key
    nid[key] = hid("n", key)
    y, m = pub[:4], pub[5:7]
    news.append({"id": nid[key], "title": title, "summary": summary, "content": "\n\n".join(paras),
                 "publishedAt": iso(pub), "url": f"{OUTLET_URL[outlet]}/news/{y}/{m}/{key}",
                 "sourceName": outlet, "tags": tags})
news.sort(key=lambda n: n["publishedAt"])
cmap = {c["id"]: c for c in contests}
nmap = {n["id"]: n for n in news}

# ---------------------------------------------------------------- bookmarks
# (user, local key, "c:key" | "n:key", tag, memo)
BM = [
    ("8001", 1, "c:upcf26f", "algorithm", "본선 28일 토요일! 대전 가는 KTX 미리 예매해두기"),
    ("8001", 2, "c:maru26f", "ctf", "본선은 못 나가지만 유튜브 생중계 꼭 봐야지 ㅋㅋ"),
    ("8001", 3, "c:bgj26", "gamejam", "팀원 구해야 됨. 아트 해줄 사람 동아리 단톡에 물어보기"),
    ("8001", 4, "c:cn-r42", "algorithm", "레이팅 올릴 기회. 12/5 저녁 약속 잡지 마"),
    ("8001", 5, "n:maru26q-result", "ctf", "널포인터즈 또 1위네 ㄷㄷ 작년 우승팀이잖아"),
    ("8001", 6, "c:dk-npc", "ai", "8B 이하 모델만 된대. 내 3060으로 돌아가나 테스트해보자"),
    ("8001", 7, "n:cn-r40-recap", "algorithm", "G번 세그트리 온 트리... 나중에 꼭 업솔빙"),
    ("8001", 8, "c:hn-delivery", "drone", "드론 동아리 형들 나간대. 29일 마지막 비행날 응원 가자"),
    ("8001", 9, "n:bm-mod-open", "game", "스타폴 모드 툴 써보고 맵 하나 만들어서 내볼까"),
    ("8002", 1, "c:gaon-cxr", "healthcare", "27일 18시 마감이니 26일까지 최종 모델을 제출하겠습니다."),
    ("8002", 2, "c:osm-wear", "healthcare", "대전 출장 일정과 겹치는지 확인해 봐야겠어요."),
    ("8002", 3, "n:gaon-lung", "healthcare", "민감도 94.1% 수치는 다음 주 발표 자료에 인용하겠습니다."),
    ("8002", 4, "c:nuri-ai26g", "fintech", "일반 부문은 12월 15일 마감입니다. 팀원분들께 공유드리기."),
    ("8002", 5, "n:fsc-fapi", "security", "2027년 7월까지 FAPI 2.0 대응이 필요합니다. 보안팀과 회의를 잡아야겠어요."),
    ("8002", 6, "c:gaon-fhir26", "fhir", "FHIR R5도 허용된다고 하니 R5 기준으로 준비해 보겠습니다."),
    ("8002", 7, "n:osm-care-1m", "healthcare", "경쟁사 동향 자료로 보관해 둡니다."),
    ("8002", 8, "c:hbp-fds", "fintech", "PR-AUC로 평가하니 불균형 데이터 처리 방법을 미리 정리해 두겠습니다."),
    ("8002", 9, "n:gaon-ecg-result", "ai", "우승팀 구성(전공의 2명과 엔지니어 1명)이 인상적이네요."),
    ("8003", 1, "c:ss-slam", "slam", "Warehouse-40 dataset 공개되면 바로 ORB-SLAM3 baseline 돌려보기"),
    ("8003", 2, "c:maru26f", "security", "Finals at Magok — 직관 가능한지 check, maybe 토요일만"),
    ("8003", 3, "n:ss-amr7", "robotics", "AMR-7 spec: 600kg payload, 2m/s. 우리 capstone reference로 쓰기"),
    ("8003", 4, "c:hanul-transit", "opendata", "2-page proposal only라서 주말에 써서 내자"),
    ("8003", 5, "n:hn-cargo2-cert", "drone", "BVLOS approval news — final report 참고자료"),
    ("8003", 6, "c:hn-race27", "drone", "Yeongwol venue, 자율비행 부문 next year 도전!"),
    ("8003", 7, "n:pd26g-result", "opendata", "정시버스 idea가 우리 거랑 비슷함... differentiate 필요"),
    ("8003", 8, "c:kpda-docs", "opendata", "Today only! 번역 PR 몇 개 올리기"),
    ("8003", 9, "n:robot-times-survey", "robotics", "Market numbers for the pitch deck: 38k units, +27%"),
]


def ref(s):
    kind, key = s.split(":", 1)
    if kind == "c":
        return "contests", cid[key]
    if kind == "n":
        return "news", nid[key]
    if kind == "b":
        return "bookmarks", bid[key]
    raise KeyError(s)


bookmarks, bid = [], {}
for user, k, item, tag, memo in BM:
    bkey = f"{user}-{k}"
    bid[bkey] = hid("b", bkey)
    coll, iid = ref(item)
    it = cmap[iid] if coll == "contests" else nmap[iid]
    summ = first_sentence(it["description"] if coll == "contests" else it["summary"])
    bookmarks.append({"id": bid[bkey], "userId": user, "itemType": "CONTEST" if coll == "contests" else "NEWS_ARTICLE",
                      "itemId": iid, "itemTitle": it["title"], "itemSummary": summ, "tag": tag, "memo": memo})

# ---------------------------------------------------------------- queries
# (user, query text with {c:key}/{n:key} placeholders, kind, expected refs | "TIME")
Q = [
    # --- contest questions (18, includes two by id)
    ("8001", "한빛페이 해커톤 2026 상금 얼마였어?", "contest", ["c:hbp26", "n:hbp26-result"]),
    ("8003", "Where is the Hanbit Pay hackathon 2027 held?", "contest", ["c:hbp27", "n:hbp26-result"]),
    ("8002", "누리은행 금융 AI 챌린지 학생 부문 마감일이 언제에요?", "contest",
     ["c:nuri-ai26s", "n:nuri-ai26-open", "n:nuri-ai26s-870"]),
    ("8001", "nuri bank ai challenge general division prize money", "contest", ["c:nuri-ai26g", "n:nuri-ai26-open"]),
    ("8003", "Maru CTF 2026 본선 장소 어디야?", "contest", ["c:maru26f", "n:maru26f-venue", "n:maru26q-result"]),
    ("8001", "마루보안 CTF 2026 예선 몇 팀 참가했어?", "contest", ["c:maru26q", "n:maru26q-result"]),
    ("8002", "Dokkaebi Studio 인디게임 공모전 2027에 새로 생기는 부문이 있나요?", "contest",
     ["c:dk-indie27", "n:dk-indie26-result"]),
    ("8003", "which contest uses the Warehouse-40 dataset?", "contest", ["c:ss-slam", "n:ss-slam-announce"]),
    ("8001", "세종시에서 하는 드론 배송 대회 뭐였지", "contest",
     ["c:hn-delivery", "n:hn-delivery-announce", "n:hn-delivery-start"]),
    ("8002", "상금 5천만원 걸린 게임 AI 대회가 있다던데 어떤 건가요?", "contest", ["c:dk-npc", "n:dk-npc-announce"]),
    ("8003", "hackathon with smartwatch data in 대전?", "contest", ["c:osm-wear", "n:osm-wear-announce"]),
    ("8001", "{c:upcf26f} 대회 상금 얼마야?", "contest", ["c:upcf26f", "n:upcf26f-dday"]),
    ("8002", "{c:gaon-cxr} 이 대회 최종 제출 마감 시간 알려주세요", "contest", ["c:gaon-cxr", "n:gaon-cxr-start"]),
    ("8001", "별무리 학생 게임잼 2027 어디서 열려?", "contest", ["c:bgjs27", "n:bgjs26-result"]),
    ("8002", "공공데이터 활용 경진대회 2026 일반 부문 대상 상금이 얼마인가요?", "contest",
     ["c:pd26g", "n:pd26-open", "n:pd26g-result"]),
    ("8003", "Daon Securities quant challenge 2027 - how long is it and what's new?", "contest",
     ["c:daon27", "n:daon26-result"]),
    ("8003", "is the FHIR hackathon 2026 in busan?", "contest", ["c:gaon-fhir26", "n:gaon-fhir25-result"]),
    ("8001", "hanbit pay 버그바운티 시즌3 최대 포상금 얼마임", "contest", ["c:hbp-bb3", "n:hbp-bb3-announce"]),
    # --- contest time-word questions (12) -> answers from validate.TIME_QUERIES
    ("8001", "지금 진행 중인 헤커톤 있어?", "contest", "TIME:pg-019"),
    ("8002", "곧 마감하는 대회 알려주세요", "contest", "TIME:pg-020"),
    ("8003", "hackathons in December?", "contest", "TIME:pg-021"),
    ("8001", "다음 달에 하는 게임잼 뭐 있음?", "contest", "TIME:pg-022"),
    ("8002", "이번 주에 마감되는 AI 대회가 있나요?", "contest", "TIME:pg-023"),
    ("8003", "contests starting in January 2027", "contest", "TIME:pg-024"),
    ("8001", "지난달에 끝난 대회 뭐 있었지", "contest", "TIME:pg-025"),
    ("8003", "ongoing fintech competitions?", "contest", "TIME:pg-026"),
    ("8002", "다음 주에 시작하는 대회 있나요?", "contest", "TIME:pg-027"),
    ("8001", "오늘 마감하는 대회 있어?", "contest", "TIME:pg-028"),
    ("8003", "any CTF starting next month", "contest", "TIME:pg-029"),
    ("8001", "작년에 열린 드론 대회 뭐 있었어?", "contest", "TIME:pg-030"),
    # --- news questions (22, includes one by id)
    ("8001", "Maru CTF 2025 누가 우승했어?", "news", ["n:maru25-result", "n:maru26q-result"]),
    ("8002", "가온렁 식약처 허가 기사 찾아 주세요", "news", ["n:gaon-lung"]),
    ("8003", "Hanbit Pay Q2 2026 transaction volume?", "news", ["n:hbp-q2-26"]),
    ("8001", "귀면 출시하고 이용자 몇 명 찍었대?", "news", ["n:dk-gwimyeon-2m"]),
    ("8002", "금융 앱 토큰 저장 취약점 보고서 내용이 궁금합니다", "news", ["n:maru-report26"]),
    ("8003", "오픈뱅킹 FAPI 의무화 news", "news", ["n:fsc-fapi"]),
    ("8001", "공공데이터 경진대회 2025 대상 뭐였음?", "news", ["n:pd25-result", "c:pd25"]),
    ("8002", "한울시 안전 데이터 해커톤 결과가 궁금해요", "news", ["n:hanul-safe-result"]),
    ("8003", "how many downloads does Starfall Tactics have", "news", ["n:bm-starfall-5m"]),
    ("8001", "누리은행 오픈뱅킹 API 하루 호출 몇 건이야", "news", ["n:nuri-ob-calls"]),
    ("8002", "온새미케어 가입자 수가 몇 명인가요?", "news", ["n:osm-care-1m"]),
    ("8003", "Which team won the UPCF 2025 finals?", "news", ["n:upcf25-result", "c:upcf25f"]),
    ("8001", "다온증권 퀀트 챌린지 2026 우승팀 누구?", "news", ["n:daon26-result"]),
    ("8002", "Korean fintech investment in the third quarter of 2026", "news", ["n:fintech-q3-funding"]),
    ("8003", "H-Agri 3 드론 가격 얼마?", "news", ["n:hn-agri3"]),
    ("8001", "코드나래 레이팅 시스템 바뀐다던데", "news", ["n:cn-rating-change", "n:cn-r40-recap"]),
    ("8002", "한국 게임 수출 전망 기사 있나요", "news", ["n:game-industry-report"]),
    ("8003", "service robot shipments survey 2026", "news", ["n:robot-times-survey"]),
    ("8001", "도깨비스튜디오 시리즈B 얼마 받았어?", "news", ["n:dk-seriesb"]),
    ("8002", "한빛페이 월간 이용자 900만 명 넘었다는 기사 있나요?", "news", ["n:hbp-fintech-q3-25"]),
    ("8003", "Hanul City drone delivery pilot for island villages", "news", ["n:hn-hanul-pilot"]),
    ("8001", "{n:dw-oss-900} 이 기사 요약해줘", "news", ["n:dw-oss-900"]),
    # --- news time-word questions (6)
    ("8002", "지난달 핀테크 뉴스 정리해 주세요", "news", "TIME:pg-053"),
    ("8001", "이번 주 뉴스 뭐 있어?", "news", "TIME:pg-054"),
    ("8003", "security news from last month", "news", "TIME:pg-055"),
    ("8001", "이번 달 게임 업계 소식 알려줘", "news", "TIME:pg-056"),
    ("8002", "작년 CTF 관련 기사 있나요?", "news", "TIME:pg-057"),
    ("8003", "November robotics news", "news", "TIME:pg-058"),
    # --- bookmark questions (10)
    ("8001", "내 북마크에서 CTF 관련된 거 보여줘", "bookmark", ["b:8001-2", "b:8001-5"]),
    ("8001", "저장해둔 알고리즘 대회 뭐 있었지", "bookmark", ["b:8001-1", "b:8001-4"]),
    ("8001", "팀원 구해야 된다고 적어둔 거 뭐였더라", "bookmark", ["b:8001-3"]),
    ("8002", "제가 북마크한 의료 관련 대회 목록 보여주세요", "bookmark", ["b:8002-1", "b:8002-2", "b:8002-6"]),
    ("8002", "북마크한 뉴스 중에 보안 관련 기사 있나요?", "bookmark", ["b:8002-5"]),
    ("8002", "what did I save about FHIR?", "bookmark", ["b:8002-6"]),
    ("8003", "my bookmarked drone stuff", "bookmark", ["b:8003-5", "b:8003-6"]),
    ("8003", "북마크한 open data contests 보여줘", "bookmark", ["b:8003-4", "b:8003-8"]),
    ("8003", "pitch deck에 쓰려고 저장한 기사 뭐였지?", "bookmark", ["b:8003-9"]),
    ("8003", "Maru CTF 북마크에 memo 뭐라고 적었지", "bookmark", ["b:8003-2"]),
    # --- general (26)
    ("8001", "OAuth PKCE가 뭐야? 오픈API 붙일 때 꼭 써야 돼?", "general", []),
    ("8003", "What is PSD2 and how is it different from open banking in Korea?", "general", []),
    ("8002", "게임 루프가 뭔가요? 유니티 Update랑 FixedUpdate 차이도 궁금해요", "general", []),
    ("8001", "SLAM 알고리즘 원리 쉽게 설명해줘", "general", []),
    ("8002", "How do I compute PR-AUC in scikit-learn?", "general", []),
    ("8002", "FHIR 리소스랑 HL7 v2 메시지 차이가 뭐예요?", "general", []),
    ("8001", "how to read a json file in python", "general", []),
    ("8003", "segment tree lazy propagation 설명 좀", "general", []),
    ("8001", "핀테크 회사 백엔드 개발자 되려면 뭐 공부해야 돼?", "general", []),
    ("8002", "게임 회사 지원할 때 포트폴리오는 어떻게 준비하나요?", "general", []),
    ("8003", "Is it worth doing a master's in robotics in Korea?", "general", []),
    ("8001", "드론 날리려면 자격증 필요해?", "general", []),
    ("8002", "How do you calculate a Sharpe ratio?", "general", []),
    ("8003", "What's the difference between mTLS and DPoP?", "general", []),
    ("8001", "CTF 처음인데 pwn 공부 뭐부터 해?", "general", []),
    ("8002", "공공데이터 API 키 발급은 어떻게 받나요?", "general", []),
    ("8001", "판교 근처 점심 맛집 추천해줘", "general", []),
    ("8003", "내일 서울 날씨 어때?", "general", []),
    ("8002", "부산 2박 3일 여행 코스 추천해 주세요", "general", []),
    ("8003", "what time does Sungsimdang in Daejeon open?", "general", []),
    ("8003", "good laptop for game dev under 2 million won?", "general", []),
    ("8001", "tips for a good hackathon demo pitch?", "general", []),
    ("8003", "docker compose로 postgres 띄우는 법", "general", []),
    ("8002", "What does macro F1 mean?", "general", []),
    ("8001", "LLM으로 NPC 대사 만들 때 프롬프트 어떻게 짜?", "general", []),
    ("8002", "연말정산 서류는 언제까지 내야 하나요?", "general", []),
    # --- greetings (6)
    ("8002", "안녕하세요!", "greeting", []),
    ("8003", "hi there", "greeting", []),
    ("8001", "고마워 덕분에 찾았어", "greeting", []),
    ("8003", "thanks, that helped!", "greeting", []),
    ("8001", "잘 있어~ 내일 또 올게", "greeting", []),
    ("8002", "bye", "greeting", []),
]


def fill(text):
    return re.sub(r"\{([cn]:[^}]+)\}", lambda m: ref(m.group(1))[1], text)


queries = []
for i, (user, text, kind, exp) in enumerate(Q, 1):
    qid = f"pg-{i:03d}"
    if isinstance(exp, str):
        assert exp == f"TIME:{qid}", (qid, exp)
        pairs = validate.recompute(validate.TIME_QUERIES[qid], contests, news)
        order = {c["id"]: n for n, c in enumerate(sorted(contests, key=lambda c: c["startDate"]))}
        order.update({n["id"]: k for k, n in enumerate(news)})
        expected = [{"collection": c, "id": x} for c, x in sorted(pairs, key=lambda p: order[p[1]])]
    else:
        expected = [dict(zip(("collection", "id"), ref(e))) for e in exp]
    # the engine names the news collection "news_articles"; these scripts call it "news"
    expected = [{**e, "collection": "news_articles" if e["collection"] == "news" else e["collection"]}
                for e in expected]
    opts = {"includeContests": kind != "bookmark", "includeNews": kind != "bookmark",
            "includeBookmarks": kind == "bookmark"}
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
print(f"wrote {len(contests)} contests, {len(news)} news, {len(bookmarks)} bookmarks, {len(queries)} queries")
