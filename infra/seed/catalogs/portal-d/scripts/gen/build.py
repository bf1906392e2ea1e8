import json, os, sys, datetime as dt
from common import *
from queries_data import Q
OUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
used = set()
def slugurl(u): return u
contests, cid = [], {}
for key, title, desc, s, e, src, url, tags in C:
    i = newid("c-", used); cid[key] = i
    contests.append(dict(id=i, title=title, description=desc, startDate=iso(s), endDate=iso(e),
                         status=status(s, e), url=url, sourceName=src, tags=tags))
NSRC = {"테크누리": "https://technuri.example/news/", "칩인사이드": "https://chipinside.example/article/",
        "옵스저널": "https://opsjournal.example/posts/", "DevWire Daily": "https://devwire.example/",
        "Silicon Harbor Review": "https://siliconharbor.example/stories/", "CloudOps Weekly": "https://cloudopsweekly.example/issue/"}
news, nid = [], {}
for key, d, src, title, summ, paras, tags in sorted(NEWS, key=lambda n: n[1]):
    i = newid("n-", used); nid[key] = i
    assert 3 <= len(paras) <= 6
    news.append(dict(id=i, title=title, summary=summ, content="\n\n".join(paras), publishedAt=iso(d),
                     url=NSRC[src] + d[:10].replace("-", "/") + "/" + key.lower(), sourceName=src, tags=tags))
cby = {c["id"]: c for c in contests}; nby = {n["id"]: n for n in news}
B = {
5001: [("bp26f", "ctf", "본선 진출!! 28일 토요일 아침 10시까지 한솔대 공학관. 노트북 충전기 챙기기"),
       ("bpjr26", "ctf", "동생한테 보내줄 것. 고등학생 개인전이라 딱임"),
       ("sfwctf", "ctf", "펌웨어 문제 약하니까 이거 전에 부트로더 분석 연습하자"),
       ("opk8s", "ctf", "쿠버 CTF 23일 저녁 마감. 남은 문제 admission controller 쪽"),
       ("dh26s", "hackathon", "방패 애들이랑 팀 짜서 나가볼까? 보안 기능 들어간 서비스로"),
       ("bitsalrce", "security", "우리 동아리 선배가 제보한 취약점 ㄷㄷ 나중에 writeup 읽어보기"),
       ("solbitbreach", "security", "SSH 키 유출 → 빌드 서버. 공급망 공격 스터디 자료로 쓰기"),
       ("sbomrule", "regulation", "SBOM 의무화... 졸업 프로젝트 보고서에 인용할 것"),
       ("bp26qnews", "ctf", "우리 대회 기사 났다 ㅋㅋ 고등학생팀 진짜 잘하더라")],
5002: [("nec26s", "embedded", "11/26 18시 제출 마감!! 영상 편집 아직 못 함"),
       ("hnpu26", "ai", "온유2 원격 보드 신청해둠. 음성인식 모델로 도전"),
       ("edgeai", "embedded", "1월 말까지라 기말 끝나고 천천히 해도 됨. 진동 데이터 받아두기"),
       ("kskps", "opensource", "드라이버 패치 하나라도 머지되면 포폴에 쓸 수 있음. 24일까지"),
       ("dh26s", "hackathon", "학생 부문 12월 5일. 팀원 한 명 더 구해야 함"),
       ("chiptalent", "career", "임베디드 초봉 오름 → 지원할 회사 리스트 업데이트"),
       ("onyu2sample", "semiconductor", "온유2 45TOPS, 7B 모델 온디바이스. 면접 때 얘기 나올 듯"),
       ("nr32a7", "embedded", "NR32-A7에 온유 코어 들어감. 임베디드 컵 보드가 이거"),
       ("nuriboard", "embedded", "동아리 단위로 보드 신청 가능! 회장한테 말하기")],
5003: [("pdc26", "devops", "우리 모노레포랑 구조 비슷함. 캐시 전략 실험해보고 12/4 전에 제출"),
       ("opirc", "devops", "팀 온콜 교육용으로 좋을 듯. 25일 시작"),
       ("dh26g", "hackathon", "Cost-saving AI agent theme. Ask Minji if she wants to team up"),
       ("wvrag", "ai", "사내 검색 개선 아이디어 테스트해볼 기회. 리랭커 비교"),
       ("darimnet26", "cloud", "우리 서비스도 40분 영향받음. 포스트모템 나오면 정리해서 공유"),
       ("padoguard", "devops", "SBOM 자동 생성 — 내년 공공 프로젝트 대비해서 PoC"),
       ("bitsalmkt", "devops", "마켓플레이스로 결제 통합되면 구매 절차 간단해짐"),
       ("wavevec3", "database", "멀티테넌시 드디어. 우리 SaaS 구조에 맞는지 검토"),
       ("sbomrule", "regulation", "2027년 7월부터 적용. 영업팀에도 공유할 것")],
}
bookmarks, bkid = [], {}
for uid, items in B.items():
    for key, tag, memo in items:
        i = newid("b-", used); bkid[f"bk:{uid}:{key}"] = i
        if key in cid:
            it = cby[cid[key]]; typ = "CONTEST"; summ = it["description"].split(". ")[0].rstrip(".") + "."
        else:
            it = nby[nid[key]]; typ = "NEWS_ARTICLE"; summ = it["summary"]
        bookmarks.append(dict(id=i, userId=uid, itemType=typ, itemId=it["id"], itemTitle=it["title"],
                              itemSummary=summ, tag=tag, memo=memo))
def d(s): return dt.date.fromisoformat(s[:10])
def window(spec):
    rows = contests if spec["col"] == "contests" else news
    lo, hi = d(spec["frm"]), d(spec["to"]); out = []
    for r in rows:
        if spec.get("tags") and not set(spec["tags"]) & set(r["tags"]): continue
        if spec.get("status") and r["status"] not in spec["status"]: continue
        m = spec["mode"]
        if m == "overlap": ok = d(r["startDate"]) <= hi and d(r["endDate"]) >= lo
        elif m == "end": ok = lo <= d(r["endDate"]) <= hi
        elif m == "start": ok = lo <= d(r["startDate"]) <= hi
        else: ok = lo <= d(r["publishedAt"]) <= hi
        if ok: out.append(r["id"])
    return out
queries, windows = [], {}
for n, (uid, kind, text, exp) in enumerate(Q, 1):
    qid = "pd-%03d" % n
    import re
    text = re.sub(r"\{id:(\w+)\}", lambda m: cid.get(m.group(1)) or nid[m.group(1)], text)
    if isinstance(exp, dict):
        ids = window(exp); windows[qid] = exp
        col = exp["col"]; expected = [{"collection": col, "id": i} for i in ids]
    else:
        expected = []
        for k in exp:
            if k.startswith("bk:"): expected.append({"collection": "bookmarks", "id": bkid[k]})
            elif k in cid: expected.append({"collection": "contests", "id": cid[k]})
            else: expected.append({"collection": "news_articles", "id": nid[k]})
    opts = ({"includeContests": False, "includeNews": False, "includeBookmarks": True} if kind == "bookmark"
            else {"includeContests": True, "includeNews": True, "includeBookmarks": False})
    queries.append(dict(id=qid, userId=uid, query=text, options=opts, expected=expected, kind=kind))
def dump(name, rows):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        for r in rows: f.write(json.dumps(r, ensure_ascii=False) + "\n")
dump("contests.jsonl", contests); dump("news_articles.jsonl", news)
dump("bookmarks.jsonl", bookmarks); dump("queries.jsonl", queries)
json.dump(windows, open(os.path.join(OUT, "scripts", "time_windows.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=1)
# report
for q in queries:
    if q["id"] in windows:
        names = [(cby.get(e["id"]) or nby.get(e["id"]))["title"] for e in q["expected"]]
        print(q["id"], q["query"], len(names), names)
