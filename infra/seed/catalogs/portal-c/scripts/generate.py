#!/usr/bin/env python3
"""Generate the portal-c catalog (contests, news, bookmarks, queries) from the data modules."""
import hashlib
import json
import os
import re
import sys
from datetime import date

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from data_contests import CONTESTS, SOURCES as CSRC  # noqa: E402
from data_news import NEWS, SOURCES as NSRC  # noqa: E402

SEED = "portal-c/2026-11-22"
REF = date(2026, 11, 22)


def hid(prefix, key):
    return prefix + hashlib.sha256(f"{SEED}:{prefix}:{key}".encode()).hexdigest()[:16]


def iso(s):
    return s.replace(" ", "T") + ":00+09:00"


def status(start, end):
    sd, ed = date.fromisoformat(start[:10]), date.fromisoformat(end[:10])
    if ed < REF:
        return "ENDED"
    if sd > REF:
        return "UPCOMING"
    return "ONGOING"


def slug(text):
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "item"


contests, C = [], {}
for key, title, start, end, src, tags, desc in CONTESTS:
    name, host = CSRC[src]
    cid = hid("c-", key)
    row = {
        "id": cid, "title": title, "description": desc,
        "startDate": iso(start), "endDate": iso(end), "status": status(start, end),
        "url": f"https://{host}/contests/{cid[2:10]}-{slug(title)}" if slug(title) != "item" else f"https://{host}/contests/{cid[2:]}",
        "sourceName": name, "tags": tags,
    }
    contests.append(row)
    C[key] = row

news, N = [], {}
for key, pub, src, tags, title, summary, paras in NEWS:
    name, host = NSRC[src]
    nid = hid("n-", key)
    row = {
        "id": nid, "title": title, "summary": summary, "content": "\n\n".join(paras),
        "publishedAt": iso(pub), "url": f"https://{host}/articles/{pub[:4]}/{pub[5:7]}/{nid[2:]}",
        "sourceName": name, "tags": tags,
    }
    news.append(row)
    N[key] = row
news.sort(key=lambda r: r["publishedAt"])

# ---------------------------------------------------------------- bookmarks
# (bkey, user, item key, tag, memo)
BOOKMARKS = [
    # 4001: university student, security club member, competitive programmer
    ("u1-ctf26q", 4001, "ctf26q", "CTF", "예선 토요일부터 밤샘 예정. 나는 포너블 담당, 월요일 아침 9시 종료 잊지 말기"),
    ("u1-ctf26f", 4001, "ctf26f", "CTF", "본선 가면 센텀 근처 숙소 미리 잡아두기!"),
    ("u1-wargame3", 4001, "wargame3", "보안", "시즌3 랭킹 50위 안 목표. LLM 트랙 문제 꼭 풀어보기"),
    ("u1-yuctf26", 4001, "yuctf26", "CTF", "작년보다 순위 올랐음 ㅎㅎ writeup 동아리 블로그에 정리하기"),
    ("u1-algo26_10", 4001, "algo26_10", "알고리즘", "시즌 포인트 조금 모자람 ㅠ 온라인 미러라도 참가"),
    ("u1-advent26", 4001, "advent26", "알고리즘", "12월엔 하루 한 문제씩. 러스트로 풀어볼까"),
    ("u1-gph26stu", 4001, "gph26stu", "해커톤", "팀원 모집 중! 프론트엔드 한 명 더 구해야 함, 24일 제출"),
    ("u1-n74", 4001, "n74", "읽을거리", "병원 랜섬웨어 사례, 동아리 세미나 발표 자료로 쓰기"),
    ("u1-n89", 4001, "n89", "읽을거리", "치트 분석 과정 흥미로움. 리버싱 공부할 때 참고"),
    # 4002: game client developer in Busan
    ("u2-jam26w", 4002, "jam26w", "게임잼", "이번엔 아트 하는 사람이랑 팀 짜고 싶다. 1월 둘째 주 연차 쓰기"),
    ("u2-padojam27", 4002, "padojam27", "게임잼", "2월에 접수 열리면 바로 신청"),
    ("u2-busangame26", 4002, "busangame26", "공모전", "12/9까지 플레이 가능한 빌드 제출. 사이드 프로젝트 다듬어서 내보자"),
    ("u2-gph26gen", 4002, "gph26gen", "해커톤", "게임 결제 SDK 트랙 있네, 회사 동료랑 일반 부문 나가볼까?"),
    ("u2-n75", 4002, "n75", "참고", "NPC 대화 메모리 구조 참고할 것"),
    ("u2-n80", 4002, "n80", "참고", "인디 게임에 결제 붙일 때 이 SDK 검토. 첫 천만 원 수수료 무료"),
    ("u2-n88", 4002, "n88", "참고", "Godot 전환 이유 정리되어 있음, 팀 회의 때 공유"),
    ("u2-n52", 4002, "n52", "참고", "SurfNet 코드 읽어보기 - 랙 보정 부분"),
    ("u2-n95", 4002, "n95", "커리어", "이직 고민... 클라이언트 직군 경력 조건 확인"),
    # 4003: data scientist at a Daegu fintech, interested in public-sector AI
    ("u3-fraud26", 4003, "fraud26", "대회", "PR-AUC 기준. 그래프 피처 아이디어 정리해서 12/11 전에 제출"),
    ("u3-pubidea26", 4003, "pubidea26", "공모전", "11/29 마감!! 제안서 마무리하고 발표 자료 한 장 요약"),
    ("u3-ypac27", 4003, "ypac27", "대회", "복지 사각지대 예측 트랙 관심. 2월 세부 규정 확인"),
    ("u3-gph26gen", 4003, "gph26gen", "해커톤", "일반 부문 참가 신청 완료, 나는 데이터/이상거래 파트 담당"),
    ("u3-mulapi26", 4003, "mulapi26", "대회", "벡터 검색 API로 금융상품 추천 서비스 만들어보기"),
    ("u3-n77", 4003, "n77", "정책", "고영향 공공 AI 범위 - 우리 회사 과제도 해당되는지 확인 필요"),
    ("u3-n94", 4003, "n94", "정책", "공공 SI 프로젝트에서 코딩 어시스턴트 써도 되는 조건 정리"),
    ("u3-n86", 4003, "n86", "기술", "pgvector + 능금 임베딩 조합, 우리 서비스에도 적용 검토"),
    ("u3-n83", 4003, "n83", "기술", "능금-LM 3 8B 공개 가중치, 사내 PoC 후보"),
]

ITEMS = {**{k: ("CONTEST", v) for k, v in C.items()}, **{k: ("NEWS_ARTICLE", v) for k, v in N.items()}}


def first_sentence(text):
    m = re.match(r"(.+?[.다])(\s|$)", text)
    return m.group(1) if m else text


bookmarks, B = [], {}
for bkey, user, ikey, tag, memo in BOOKMARKS:
    itype, item = ITEMS[ikey]
    summ = first_sentence(item["description"]) if itype == "CONTEST" else item["summary"]
    row = {"id": hid("b-", bkey), "userId": user, "itemType": itype, "itemId": item["id"],
           "itemTitle": item["title"], "itemSummary": summ, "tag": tag, "memo": memo}
    bookmarks.append(row)
    B[bkey] = row

# ---------------------------------------------------------------- queries
# (user, kind, query text, [expected keys])  expected keys: contest/news keys or "bm:<bkey>"
# time-window specs: see WINDOWS below (keyed by query number, 1-based)
Q = []


def q(user, kind, text, exp=(), window=None):
    Q.append((user, kind, text, list(exp), window))


# ---- contest questions (32)
q(4001, "contest", "등대 CTF 2026 본선 언제 열려?", ["ctf26f"])
q(4002, "contest", "Is the Lighthouse CTF 2026 qualifier still running? 지금 참가해도 되나", ["ctf26q"])
q(4001, "contest", "작년 등대 CTF 본선은 어떤 방식으로 진행됐어?", ["ctf25f"])
q(4003, "contest", "갈매기페이 해커톤 학생부 결과물 제출 마감이 언제예요?", ["gph26stu"])
q(4002, "contest", "Does the Galmaegi Pay hackathon have a division for working developers this year? When is it?", ["gph26gen"])
q(4001, "contest", "이번 주에 마감되는 대회 뭐 있어?", ["ctf26q", "gph26stu", "oss26a", "pubidea26"],
  ("contests", "end", "2026-11-22", "2026-11-29", None))
q(4003, "contest", "마감 임박한 해커톤 있나요?", ["gph26stu"],
  ("contests", "end", "2026-11-22", "2026-11-29", "hackathon"))
q(4002, "contest", "다음 주에 열리는 해커톤 알려줘", ["gph26gen", "pubaihack26"],
  ("contests", "overlap", "2026-11-30", "2026-12-06", "hackathon"))
q(4001, "contest", "12월에 참가할 수 있는 CTF나 보안 대회 있어?", ["ctf26f", "wargame3"],
  ("contests", "overlap", "2026-12-01", "2026-12-31", "security"))
q(4001, "contest", "지난달에 열린 알고리즘 대회 뭐였지?", ["icpcyn26", "algo26_8d1", "algo26_8d2"],
  ("contests", "overlap", "2026-10-01", "2026-10-31", "algorithm"))
q(4002, "contest", "작년에 열렸던 게임잼 정리해줘", ["jam25s", "jam25w", "padojam25"],
  ("contests", "overlap", "2025-01-01", "2025-12-31", "gamejam"))
q(4003, "contest", "올해 로봇 관련 대회 전부 보여줘", ["drone26", "robo26", "robowinter26"],
  ("contests", "overlap", "2026-01-01", "2026-12-31", "robotics"))
q(4003, "contest", "any data science competitions happening next year?", ["gamedata27", "ypac27"],
  ("contests", "overlap", "2027-01-01", "2027-12-31", "data"))
q(4002, "contest", "해오름 게임잼 2026 겨울 시즌 일정 알려줘", ["jam26w"])
q(4002, "contest", "What was the theme of the Haeoreum game jam this summer?", ["jam26s"])
q(4003, "contest", "{c:sydemand26} 대회 설명해줘", ["sydemand26"])
q(4003, "contest", "{c:mulapi26} 이거 무슨 대회야?", ["mulapi26"])
q(4001, "contest", "What is {c:robo25}?", ["robo25"])
q(4003, "contest", "능금AI가 주최하는 대회들 다 알려줘", ["llm25", "llm26", "nbench26", "agenthack27"])
q(4003, "contest", "민원 챗봇 새 기능 아이디어 내는 대회 있었던 것 같은데 뭐였지?", ["barodap26"])
q(4003, "contest", "보이스피싱 거래 탐지하는 데이터 대회 아직 참가할 수 있어?", ["fraud26"])
q(4001, "contest", "팔공 알고리즘 라운드 9회차 언제였지?", ["algo26_9"])
q(4001, "contest", "Palgong Algorithm Round #8 Div 2는 몇 시에 시작했어?", ["algo26_8d2"])
q(4002, "contest", "연말에 열리는 오픈소스 기여 행사 있어?", ["ossfesta26"],
  ("contests", "overlap", "2026-12-01", "2026-12-31", "opensource"))
q(4003, "contest", "내년 1월에 하는 해커톤 뭐 있어?", ["fsechack27", "agenthack27"],
  ("contests", "overlap", "2027-01-01", "2027-01-31", "hackathon"))
q(4002, "contest", "Busan game dev contest with prize money — is it still open for submissions?", ["busangame26"])
q(4001, "contest", "지금 진행 중인 보안 대회 있어?", ["ctf26q", "wargame3"],
  ("contests", "overlap", "2026-11-22", "2026-11-22", "security"))
q(4003, "contest", "다음 달에 열리는 해커톤 목록 줘", ["gph26gen", "pubaihack26", "palwinter26"],
  ("contests", "overlap", "2026-12-01", "2026-12-31", "hackathon"))
q(4002, "contest", "내년에 열리는 게임잼 있나?", ["jam26w", "padojam27"],
  ("contests", "overlap", "2027-01-01", "2027-12-31", "gamejam"))
q(4001, "contest", "다음 주에 접수 마감하는 공모전 있어?", ["ynsw26"],
  ("contests", "end", "2026-11-30", "2026-12-06", "idea"))
q(4001, "contest", "고등학생도 나갈 수 있는 등대시큐리티 여름 캠프 CTF, 매년 하는 거야?", ["seccamp25", "seccamp26"])

# ---- news questions (29)
q(4003, "news", "지난달 AI 관련 뉴스 뭐 있었어?", ["n72", "n75", "n76", "n77", "n78"],
  ("news_articles", "published", "2026-10-01", "2026-10-31", "ai"))
q(4001, "news", "이번 달 보안 사고 뉴스 모아줘", ["n85", "n89"],
  ("news_articles", "published", "2026-11-01", "2026-11-30", "security"))
q(4002, "news", "작년 12월에 나온 기사 뭐 있었어?", ["n24", "n25", "n26"],
  ("news_articles", "published", "2025-12-01", "2025-12-31", None))
q(4003, "news", "최근 일주일 클라우드 소식 있어?", ["n91"],
  ("news_articles", "published", "2026-11-15", "2026-11-21", "cloud"))
q(4002, "news", "올해 3월 반도체 관련 뉴스 알려줘", ["n36", "n37"],
  ("news_articles", "published", "2026-03-01", "2026-03-31", "chip"))
q(4001, "news", "어제 올라온 뉴스 뭐야?", ["n94", "n95"],
  ("news_articles", "published", "2026-11-21", "2026-11-21", None))
q(4002, "news", "이번 달 게임 업계 뉴스 정리해줘", ["n88", "n89", "n95"],
  ("news_articles", "published", "2026-11-01", "2026-11-30", "game"))
q(4003, "news", "any funding news from last month?", ["n72"],
  ("news_articles", "published", "2026-10-01", "2026-10-31", "funding"))
q(4001, "news", "작년 11월 뉴스 보여줘", ["n22", "n23"],
  ("news_articles", "published", "2025-11-01", "2025-11-30", None))
q(4002, "news", "팔공클라우드 부산 리전 장애 원인이 뭐였어?", ["n84"])
q(4003, "news", "Neunggeum-LM 3 나왔다며? 성능 어때?", ["n83"])
q(4003, "news", "물결뱅크 앱 먹통 됐던 거 왜 그런 거야?", ["n73"])
q(4001, "news", "갈매기페이 결제정보 유출됐다는 얘기 진짜야?", ["n85"])
q(4003, "news", "Galmaegi Pay MySQL to Postgres migration article", ["n54"])
q(4002, "news", "Dalbit 빌드 도구 오픈소스로 풀었다는 기사", ["n79"])
q(4003, "news", "달구벌소프트 상장 관련 뉴스 있어?", ["n41", "n92"])
q(4002, "news", "금정반도체 시리즈 A 투자 받은 거 얼마였지?", ["n25"])
q(4003, "news", "바로답 챗봇 처음 시범 운영한 기사 찾아줘", ["n22"])
q(4001, "news", "{n:n46} 기사 요약해줘", ["n46"])
q(4002, "news", "{n:n63} 이 기사 무슨 내용이야?", ["n63"])
q(4001, "news", "대구 병원들 랜섬웨어 걸린 사건 어떻게 된 거야", ["n74"])
q(4003, "news", "공공 AI 영향평가 법안 어디까지 진행됐어?", ["n77"])
q(4002, "news", "파도게임즈가 서프 엔진 네트워크 부분 오픈소스로 공개했다던데", ["n52"])
q(4003, "news", "Kotlin Multiplatform 도입한 은행 기사 있었는데", ["n50"])
q(4001, "news", "Which Daegu company built its own code-review LLM?", ["n64"])
q(4002, "news", "Haemu NPC에 생성형 AI 넣었다는 뉴스", ["n75"])
q(4002, "news", "news about an in-game payment SDK for indie devs", ["n80"])
q(4001, "news", "Geumjeong GJ-N3 로드맵 나온 거 있어?", ["n90"])

# ---- bookmark questions (10)
q(4001, "bookmark", "내가 북마크한 보안 대회들 보여줘", ["bm:u1-ctf26q", "bm:u1-ctf26f", "bm:u1-wargame3", "bm:u1-yuctf26"])
q(4001, "bookmark", "저장해둔 알고리즘 대회 뭐였더라", ["bm:u1-algo26_10", "bm:u1-advent26"])
q(4001, "bookmark", "팀원 구한다고 메모해둔 거 어디 있지?", ["bm:u1-gph26stu"])
q(4002, "bookmark", "show my bookmarked game jams", ["bm:u2-jam26w", "bm:u2-padojam27"])
q(4002, "bookmark", "북마크한 기사 중에 결제 SDK 얘기 있던 거", ["bm:u2-n80"])
q(4002, "bookmark", "내가 저장한 파도게임즈 관련 기사들", ["bm:u2-n75", "bm:u2-n80", "bm:u2-n52", "bm:u2-n95"])
q(4002, "bookmark", "해커톤 북마크해 둔 거 있어?", ["bm:u2-gph26gen"])
q(4003, "bookmark", "북마크한 공공 AI 정책 기사 다시 보여줘", ["bm:u3-n77", "bm:u3-n94"])
q(4003, "bookmark", "my saved items that close this week", ["bm:u3-pubidea26"],
  ("bookmarks", "end", "2026-11-22", "2026-11-29", None))
q(4003, "bookmark", "물결뱅크 관련해서 저장한 거 뭐 있지", ["bm:u3-mulapi26", "bm:u3-n86", "bm:u3-fraud26"])

# ---- general questions (26)
GENERAL = [
    (4001, "pytest로 async 함수 테스트하려면 뭐 설치해야 돼?"),
    (4003, "what is a vector database and when should I actually use one?"),
    (4001, "해커톤 나가면 취업에 진짜 도움 돼?"),
    (4001, "CTF 처음인데 포너블 공부는 어디서부터 시작해야 돼?"),
    (4002, "쿠버네티스에서 파드가 CrashLoopBackOff 상태면 어떻게 디버깅해?"),
    (4003, "PostgreSQL에서 인덱스 만들었는데 왜 안 타는 거야?"),
    (4003, "How do I fine-tune a small LLM with LoRA on a single GPU?"),
    (4002, "React Server Components랑 클라이언트 컴포넌트 차이 설명해줘"),
    (4001, "Rust 소유권 개념 쉽게 설명해줄래?"),
    (4001, "알고리즘 대회 준비할 때 DP 문제는 어떻게 연습하는 게 좋아?"),
    (4002, "Is Godot a good choice for my first 2D game?"),
    (4002, "게임잼에서 48시간 안에 끝내려면 스코프 어떻게 줄여?"),
    (4003, "핀테크 회사 기술면접에서 자주 나오는 질문이 뭐예요?"),
    (4002, "What's the difference between an NPU and a GPU for inference?"),
    (4003, "공공기관 AI 프로젝트에서 모델 설명가능성은 어떻게 확보해?"),
    (4001, "오픈소스에 첫 PR 보낼 때 주의할 점 알려줘"),
    (4002, "Flutter vs Kotlin Multiplatform, which should a beginner learn first?"),
    (4001, "랜섬웨어 걸리면 개인 PC에서 제일 먼저 뭘 해야 돼?"),
    (4003, "주니어 포트폴리오에 대회 수상 경력은 어떻게 쓰는 게 좋아?"),
    (4002, "Explain BGP in simple terms please"),
    (4001, "코딩테스트에서 파이썬 입력 빠르게 받는 법"),
    (4003, "부산 가면 꼭 먹어야 하는 음식 추천해줘"),
    (4002, "대구 여름 진짜 그렇게 더워? 8월에 여행 가는데 옷 뭐 챙겨?"),
    (4001, "What should I pack for a weekend trip to Busan in December?"),
    (4001, "밤샘 해커톤 끝나고 피로 빨리 푸는 방법 있어?"),
    (4003, "김치찌개 맛있게 끓이는 법 알려줘"),
]
for user, text in GENERAL:
    q(user, "general", text)

# ---- greetings (6)
for user, text in [(4001, "안녕!"), (4002, "hi there"), (4003, "고마워요, 덕분에 찾았어요"),
                   (4002, "안녕하세요~ 처음 써봐요"), (4003, "thanks!"), (4001, "ㅎㅇ 오늘도 잘 부탁해")]:
    q(user, "greeting", text)


def resolve(k):
    if k.startswith("bm:"):
        return {"collection": "bookmarks", "id": B[k[3:]]["id"]}
    if k in C:
        return {"collection": "contests", "id": C[k]["id"]}
    return {"collection": "news_articles", "id": N[k]["id"]}


queries, windows = [], {}
for i, (user, kind, text, exp, window) in enumerate(Q, 1):
    qid = f"pc-{i:03d}"
    text = re.sub(r"\{c:(\w+)\}", lambda m: C[m.group(1)]["id"], text)
    text = re.sub(r"\{n:(\w+)\}", lambda m: N[m.group(1)]["id"], text)
    opts = ({"includeContests": False, "includeNews": False, "includeBookmarks": True} if kind == "bookmark"
            else {"includeContests": True, "includeNews": True, "includeBookmarks": False})
    queries.append({"id": qid, "userId": user, "query": text, "options": opts,
                    "expected": [resolve(k) for k in exp], "kind": kind})
    if window:
        coll, mode, lo, hi, tag = window
        windows[qid] = {"collection": coll, "mode": mode, "from": lo, "to": hi, "tag": tag}


def dump(name, rows):
    with open(os.path.join(ROOT, name), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


dump("contests.jsonl", contests)
dump("news_articles.jsonl", news)
dump("bookmarks.jsonl", bookmarks)
dump("queries.jsonl", queries)
with open(os.path.join(HERE, "time_windows.json"), "w", encoding="utf-8") as f:
    json.dump(windows, f, ensure_ascii=False, indent=1)
print(len(contests), len(news), len(bookmarks), len(queries), len(windows))
