#!/usr/bin/env python3
"""Validate the portal-i catalog. Stdlib only. Prints OK when every check passes.

Usage: python3 scripts/validate.py
"""
import json
import os
import re
import sys
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = "2027-01-13"  # Wednesday, Asia/Seoul

errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                err(f"{name}:{i}: blank line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                err(f"{name}:{i}: bad JSON: {e}")
    return rows


contests = load("contests.jsonl")
news = load("news_articles.jsonl")
bookmarks = load("bookmarks.jsonl")
queries = load("queries.jsonl")

TS = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$")
KEYS = {
    "contests.jsonl": ["id", "title", "description", "startDate", "endDate", "status", "url", "sourceName", "tags"],
    "news_articles.jsonl": ["id", "title", "summary", "content", "publishedAt", "url", "sourceName", "tags"],
    "bookmarks.jsonl": ["id", "userId", "itemType", "itemId", "itemTitle", "itemSummary", "tag", "memo"],
    "queries.jsonl": ["id", "userId", "query", "options", "expected", "kind"],
}
IDRE = {
    "contests.jsonl": re.compile(r"^c-[0-9a-f]{16}$"),
    "news_articles.jsonl": re.compile(r"^n-[0-9a-f]{16}$"),
    "bookmarks.jsonl": re.compile(r"^b-[0-9a-f]{16}$"),
    "queries.jsonl": re.compile(r"^pi-\d{3}$"),
}
USERS = {"9101", "9102", "9103"}

all_ids = Counter()
for name, rows in (("contests.jsonl", contests), ("news_articles.jsonl", news),
                   ("bookmarks.jsonl", bookmarks), ("queries.jsonl", queries)):
    for r in rows:
        if list(r.keys()) != KEYS[name]:
            err(f"{name} {r.get('id')}: keys {list(r.keys())} != {KEYS[name]}")
        if not IDRE[name].match(str(r.get("id", ""))):
            err(f"{name}: bad id {r.get('id')!r}")
        all_ids[r.get("id")] += 1
for i, n in all_ids.items():
    if n > 1:
        err(f"duplicate id {i}")

C = {c["id"]: c for c in contests}
NW = {n["id"]: n for n in news}
BM = {b["id"]: b for b in bookmarks}


def status_of(c):
    sd, ed = c["startDate"][:10], c["endDate"][:10]
    if ed < REF:
        return "ENDED"
    if sd > REF:
        return "UPCOMING"
    return "ONGOING"


# ---- contests ----
for c in contests:
    for f in ("startDate", "endDate"):
        if not TS.match(c[f]):
            err(f"contest {c['id']}: bad {f} {c[f]}")
    if c["startDate"] > c["endDate"]:
        err(f"contest {c['id']}: start after end")
    if c["status"] != status_of(c):
        err(f"contest {c['id']}: status {c['status']} != rule {status_of(c)}")
    if not re.match(r"^https://[a-z0-9.-]+\.example/", c["url"]):
        err(f"contest {c['id']}: url not on .example: {c['url']}")
    if not c["tags"] or any(t != t.lower() for t in c["tags"]):
        err(f"contest {c['id']}: tags must be non-empty lowercase")
    nsent = len(re.findall(r"[.!?](\s|$)", c["description"]))
    if not 2 <= nsent <= 4:
        err(f"contest {c['id']}: description has {nsent} sentences")
if not 70 <= len(contests) <= 80:
    err(f"contest count {len(contests)}")

# ---- news ----
for n in news:
    if not TS.match(n["publishedAt"]):
        err(f"news {n['id']}: bad publishedAt")
    d = n["publishedAt"][:10]
    if not ("2025-01-01" <= d <= "2027-01-12"):
        err(f"news {n['id']}: publishedAt {d} out of range")
    paras = n["content"].split("\n\n")
    if not 3 <= len(paras) <= 4:
        err(f"news {n['id']}: {len(paras)} paragraphs")
    if not re.match(r"^https://[a-z0-9.-]+\.example/", n["url"]):
        err(f"news {n['id']}: url not on .example")
    if any(t != t.lower() for t in n["tags"]):
        err(f"news {n['id']}: tags must be lowercase")
if not 90 <= len(news) <= 100:
    err(f"news count {len(news)}")

# ---- bookmarks ----
per_user = Counter()
item_users = defaultdict(set)
for b in bookmarks:
    per_user[b["userId"]] += 1
    if b["userId"] not in USERS:
        err(f"bookmark {b['id']}: unknown user {b['userId']}")
    if b["itemType"] == "CONTEST":
        item = C.get(b["itemId"])
    elif b["itemType"] == "NEWS_ARTICLE":
        item = NW.get(b["itemId"])
    else:
        err(f"bookmark {b['id']}: bad itemType {b['itemType']}")
        continue
    if item is None:
        err(f"bookmark {b['id']}: itemId {b['itemId']} not found for {b['itemType']}")
        continue
    if b["itemTitle"] != item["title"]:
        err(f"bookmark {b['id']}: itemTitle differs from item title")
    item_users[b["itemId"]].add(b["userId"])
if len(bookmarks) != 27 or any(per_user[u] != 9 for u in USERS):
    err(f"bookmark counts {len(bookmarks)} {dict(per_user)}")
if not any(len(u) >= 2 for u in item_users.values()):
    err("no item is bookmarked by two users")

# ---- queries ----
KINDS = {"contest", "news", "bookmark", "general", "greeting"}
COLL = {"contests": C, "news_articles": NW, "bookmarks": BM}  # the engine's collection names
for q in queries:
    if q["userId"] not in USERS:
        err(f"{q['id']}: bad user")
    if q["kind"] not in KINDS:
        err(f"{q['id']}: bad kind")
    want = ({"includeContests": False, "includeNews": False, "includeBookmarks": True}
            if q["kind"] == "bookmark" else
            {"includeContests": True, "includeNews": True, "includeBookmarks": False})
    if q["options"] != want:
        err(f"{q['id']}: options {q['options']} != {want}")
    if q["kind"] in ("general", "greeting") and q["expected"]:
        err(f"{q['id']}: {q['kind']} must expect []")
    if q["kind"] in ("contest", "news", "bookmark") and not q["expected"]:
        err(f"{q['id']}: empty expected for {q['kind']}")
    seen = set()
    for e in q["expected"]:
        if list(e.keys()) != ["collection", "id"]:
            err(f"{q['id']}: expected entry keys {list(e.keys())}")
        coll = COLL.get(e["collection"])
        if coll is None or e["id"] not in coll:
            err(f"{q['id']}: expected {e} not found")
            continue
        if e["id"] in seen:
            err(f"{q['id']}: duplicate expected {e['id']}")
        seen.add(e["id"])
        if q["kind"] == "bookmark":
            if e["collection"] != "bookmarks" or BM[e["id"]]["userId"] != q["userId"]:
                err(f"{q['id']}: bookmark question expects {e} not owned by {q['userId']}")
        elif e["collection"] == "bookmarks":
            err(f"{q['id']}: non-bookmark question expects a bookmark")
    # id questions: an id mentioned in the text must be expected
    for m in re.findall(r"\b[cn]-[0-9a-f]{16}\b", q["query"]):
        if m not in seen:
            err(f"{q['id']}: mentions {m} but does not expect it")
qk = Counter(q["kind"] for q in queries)
if len(queries) < 95 or len(queries) > 105:
    err(f"query count {len(queries)}")

# ---- time-word questions: recompute expected from the window rules ----
# (qid, text fragment, collection, mode, (first day, last day) or status, tags that must all be present, title regex)
#   mode: overlap | start | end (contest dates) | status | published (news day) ;
#   for collection "bookmarks" the mode applies to the bookmarked contest, restricted to the asking user.
W_THIS_WEEK = ("2027-01-11", "2027-01-17")
W_NEXT_WEEK = ("2027-01-18", "2027-01-24")
W_CLOSING = ("2027-01-13", "2027-01-19")
W_FEB = ("2027-02-01", "2027-02-28")
W_MAR = ("2027-03-01", "2027-03-31")
W_JAN = ("2027-01-01", "2027-01-31")
W_LAST_MONTH = ("2026-12-01", "2026-12-31")
Y2027 = ("2027-01-01", "2027-12-31")
Y2026 = ("2026-01-01", "2026-12-31")
TIME_QUESTIONS = [
    ("pi-003", "올해 오픈소스", "news", "published", Y2027, [], r"가람.*예산"),
    ("pi-019", "next week", "contests", "start", W_NEXT_WEEK, [], None),
    ("pi-028", "February", "contests", "overlap", W_FEB, ["hackathon"], None),
    ("pi-029", "작년 올림피아드", "news", "published", Y2026, ["olympiad"], None),
    ("pi-030", "곧 마감", "contests", "end", W_CLOSING, [], None),
    ("pi-033", "진행 중인 AI", "contests", "status", "ONGOING", ["ai"], None),
    ("pi-039", "last year", "contests", "overlap", Y2026, ["olympiad"], None),
    ("pi-040", "지난달에 끝난", "contests", "end", W_LAST_MONTH, [], None),
    ("pi-052", "곧 마감", "bookmarks", "end", W_CLOSING, [], None),
    ("pi-053", "올해 예선", "contests", "overlap", Y2027, [], r"정보올림피아드.*예선"),
    ("pi-056", "end of last year", "news", "published", W_LAST_MONTH, ["security"], None),
    ("pi-057", "이번 달 기후", "news", "published", W_JAN, ["climate"], None),
    ("pi-059", "last month", "news", "published", W_LAST_MONTH, ["quantum"], None),
    ("pi-064", "starting in March", "contests", "start", W_MAR, [], None),
    ("pi-066", "다음 달에 시작", "contests", "start", W_FEB, [], None),
    ("pi-069", "작년 말글소리", "contests", "overlap", Y2026, [], r"말글소리 음성인식 챌린지.*2차"),
    ("pi-076", "upcomming climate hackathons", "contests", "status", "UPCOMING", ["climate", "hackathon"], None),
    ("pi-081", "올해 열리는 양자", "contests", "overlap", Y2027, ["quantum"], None),
    ("pi-082", "이번 주에 마감", "contests", "end", W_THIS_WEEK, [], None),
    ("pi-085", "지난달 AI", "news", "published", W_LAST_MONTH, ["ai"], None),
    ("pi-086", "이번 주에 나온 뉴스", "news", "published", W_THIS_WEEK, [], None),
    ("pi-092", "this year", "news", "published", Y2027, ["llm"], None),
]


def contest_match(c, mode, win):
    sd, ed = c["startDate"][:10], c["endDate"][:10]
    if mode == "overlap":
        return sd <= win[1] and ed >= win[0]
    if mode == "start":
        return win[0] <= sd <= win[1]
    if mode == "end":
        return win[0] <= ed <= win[1]
    if mode == "status":
        return c["status"] == win
    raise ValueError(mode)


Q = {q["id"]: q for q in queries}
for qid, frag, coll, mode, win, tags, title_re in TIME_QUESTIONS:
    q = Q.get(qid)
    if q is None:
        err(f"time table: {qid} missing")
        continue
    if frag not in q["query"]:
        err(f"time table: {qid} text {q['query']!r} lacks {frag!r}")
    got = {e["id"] for e in q["expected"]}
    want = set()
    if coll == "contests":
        for c in contests:
            if contest_match(c, mode, win) and all(t in c["tags"] for t in tags) \
                    and (title_re is None or re.search(title_re, c["title"])):
                want.add(c["id"])
    elif coll == "news":
        for n in news:
            d = n["publishedAt"][:10]
            if win[0] <= d <= win[1] and all(t in n["tags"] for t in tags) \
                    and (title_re is None or re.search(title_re, n["title"])):
                want.add(n["id"])
    elif coll == "bookmarks":
        for b in bookmarks:
            if b["userId"] == q["userId"] and b["itemType"] == "CONTEST" \
                    and contest_match(C[b["itemId"]], mode, win):
                want.add(b["id"])
    # only compare the part of expected that lives in the recomputed collection
    coll_ids = {"contests": C, "news": NW, "bookmarks": BM}[coll]
    got_coll = {i for i in got if i in coll_ids}
    if got_coll != want:
        err(f"time table: {qid} expected {sorted(got_coll)} but rule gives {sorted(want)}")
    if not want:
        err(f"time table: {qid} window matches nothing")

# ---- distribution report ----
st = Counter(c["status"] for c in contests)
print(f"contests={len(contests)} {dict(st)} news={len(news)} bookmarks={len(bookmarks)} "
      f"queries={len(queries)} {dict(qk)} time-questions={len(TIME_QUESTIONS)}")
if errors:
    for e in errors:
        print("ERROR", e)
    print(f"{len(errors)} error(s)")
    sys.exit(1)
print("OK")
