#!/usr/bin/env python3
"""Validate the portal-j catalog (stdlib only). Prints OK or a list of problems."""
import json
import os
import re
import sys
from collections import Counter
from datetime import date

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = date(2026, 11, 27)
errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                err("%s:%d empty line" % (name, i))
                continue
            rows.append(json.loads(line))
    return rows


contests = load("contests.jsonl")
news = load("news_articles.jsonl")
bookmarks = load("bookmarks.jsonl")
queries = load("queries.jsonl")

DT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$")


def day(s):
    return date.fromisoformat(s[:10])


def check_keys(name, rows, keys):
    for r in rows:
        if set(r) != set(keys):
            err("%s %s: keys %s" % (name, r.get("id"), sorted(r)))


check_keys("contest", contests, ["id", "title", "description", "startDate", "endDate", "status", "url", "sourceName", "tags"])
check_keys("news", news, ["id", "title", "summary", "content", "publishedAt", "url", "sourceName", "tags"])
check_keys("bookmark", bookmarks, ["id", "userId", "itemType", "itemId", "itemTitle", "itemSummary", "tag", "memo"])
check_keys("query", queries, ["id", "userId", "query", "options", "expected", "kind"])

# ---- ids
for name, rows, pat in [("contest", contests, r"^c-[0-9a-f]{16}$"), ("news", news, r"^n-[0-9a-f]{16}$"),
                        ("bookmark", bookmarks, r"^b-[0-9a-f]{16}$"), ("query", queries, r"^pj-\d{3}$")]:
    ids = [r["id"] for r in rows]
    for k, v in Counter(ids).items():
        if v > 1:
            err("duplicate %s id %s" % (name, k))
    for i in ids:
        if not re.match(pat, i):
            err("bad %s id %s" % (name, i))

CID = {c["id"]: c for c in contests}
NID = {n["id"]: n for n in news}
BID = {b["id"]: b for b in bookmarks}


def tags_ok(r):
    t = r["tags"]
    return isinstance(t, list) and t and all(isinstance(x, str) and x == x.lower() and x.strip() for x in t)


# ---- contests
for c in contests:
    for k in ("startDate", "endDate"):
        if not DT.match(c[k]):
            err("contest %s bad %s" % (c["id"], k))
    s, e = day(c["startDate"]), day(c["endDate"])
    if e < s:
        err("contest %s ends before it starts" % c["id"])
    want = "ENDED" if e < REF else ("UPCOMING" if s > REF else "ONGOING")
    if c["status"] != want:
        err("contest %s status %s, rule says %s" % (c["id"], c["status"], want))
    if not re.match(r"^https://[a-z0-9.-]+\.example(/|$)", c["url"]):
        err("contest %s url %s" % (c["id"], c["url"]))
    if not tags_ok(c):
        err("contest %s tags" % c["id"])
    n_sent = len(re.findall(r"[.!?](\s|$)", c["description"]))
    if not 2 <= n_sent <= 4:
        err("contest %s description has %d sentences" % (c["id"], n_sent))
    t = c["title"].lower()
    if ("해커톤" in t or "hackathon" in t or "hack week" in t) and "hackathon" not in c["tags"]:
        err("contest %s looks like a hackathon but lacks the tag" % c["id"])
    if "ctf" in t and "ctf" not in c["tags"]:
        err("contest %s looks like a CTF but lacks the tag" % c["id"])

# ---- news
for n in news:
    if not DT.match(n["publishedAt"]):
        err("news %s bad publishedAt" % n["id"])
    d = day(n["publishedAt"])
    if not (date(2025, 1, 1) <= d <= date(2026, 11, 26)):
        err("news %s date %s out of range" % (n["id"], d))
    paras = n["content"].split("\n\n")
    if not 3 <= len(paras) <= 4 or any(not p.strip() for p in paras):
        err("news %s has %d paragraphs" % (n["id"], len(paras)))
    if not re.match(r"^https://[a-z0-9.-]+\.example/", n["url"]):
        err("news %s url" % n["id"])
    if not tags_ok(n):
        err("news %s tags" % n["id"])
if len({n["url"] for n in news}) != len(news):
    err("duplicate news urls")

# ---- bookmarks
per_user = Counter(b["userId"] for b in bookmarks)
if per_user != Counter({"9201": 9, "9202": 9, "9203": 9}):
    err("bookmarks per user: %s" % dict(per_user))
for b in bookmarks:
    if b["itemType"] == "CONTEST":
        item = CID.get(b["itemId"])
    elif b["itemType"] == "NEWS_ARTICLE":
        item = NID.get(b["itemId"])
    else:
        err("bookmark %s itemType %s" % (b["id"], b["itemType"]))
        continue
    if item is None:
        err("bookmark %s points to missing %s" % (b["id"], b["itemId"]))
        continue
    if b["itemTitle"] != item["title"]:
        err("bookmark %s title mismatch" % b["id"])
    if not isinstance(b["userId"], str):
        err("bookmark %s userId not a string" % b["id"])
    for k in ("itemSummary", "tag", "memo"):
        if not isinstance(b[k], str) or not b[k].strip():
            err("bookmark %s empty %s" % (b["id"], k))
pairs = Counter((b["userId"], b["itemId"]) for b in bookmarks)
if any(v > 1 for v in pairs.values()):
    err("a user bookmarked the same item twice")
shared = [i for i, v in Counter(b["itemId"] for b in bookmarks).items() if v > 1]
if len(shared) < 1:
    err("no item is bookmarked by two users")
for i in shared:
    memos = [b["memo"] for b in bookmarks if b["itemId"] == i]
    if len(set(memos)) != len(memos):
        err("shared bookmark %s has identical memos" % i)

# ---- queries
COLL = {"contests": CID, "news_articles": NID, "bookmarks": BID}
KINDS = {"contest", "news", "bookmark", "general", "greeting"}
for q in queries:
    if q["kind"] not in KINDS:
        err("%s kind %s" % (q["id"], q["kind"]))
    if q["userId"] not in ("9201", "9202", "9203"):
        err("%s userId %r" % (q["id"], q["userId"]))
    o = q["options"]
    want = ({"includeContests": False, "includeNews": False, "includeBookmarks": True} if q["kind"] == "bookmark"
            else {"includeContests": True, "includeNews": True, "includeBookmarks": False})
    if o != want:
        err("%s options %s" % (q["id"], o))
    seen = set()
    for e in q["expected"]:
        if set(e) != {"collection", "id"} or e["collection"] not in COLL:
            err("%s bad expected entry %s" % (q["id"], e))
            continue
        if e["id"] not in COLL[e["collection"]]:
            err("%s expects missing %s/%s" % (q["id"], e["collection"], e["id"]))
        if e["id"] in seen:
            err("%s expects %s twice" % (q["id"], e["id"]))
        seen.add(e["id"])
        if q["kind"] == "bookmark":
            if e["collection"] != "bookmarks":
                err("%s bookmark question expects a non-bookmark" % q["id"])
            elif BID[e["id"]]["userId"] != q["userId"]:
                err("%s expects another user's bookmark %s" % (q["id"], e["id"]))
        elif e["collection"] == "bookmarks":
            err("%s non-bookmark question expects a bookmark" % q["id"])
        if q["kind"] == "news" and e["collection"] != "news_articles":
            err("%s news question expects %s" % (q["id"], e["collection"]))
    if q["kind"] in ("general", "greeting") and q["expected"]:
        err("%s %s question must expect []" % (q["id"], q["kind"]))
    if q["kind"] == "contest" and not any(e["collection"] == "contests" for e in q["expected"]):
        err("%s contest question without a contest" % q["id"])
    for m in re.findall(r"\b([cn]-[0-9a-f]{16})\b", q["query"]):
        if m not in CID and m not in NID:
            err("%s mentions unknown id %s" % (q["id"], m))
        if m not in seen:
            err("%s mentions id %s but does not expect it" % (q["id"], m))

# ---- time-word questions: recompute the expected set from the window rule
# mode: overlap = contest period overlaps window; end = endDate day in window; start = startDate day in window;
#       ongoing = status ONGOING on 2026-11-27; published = news publishedAt day in window;
#       bm-overlap = the asking user's CONTEST bookmarks whose contest period overlaps the window.
WINDOWS = {
    # qid:    (mode,         from,         to,           tag)           # time word
    "pj-023": ("ongoing",    "2026-11-27", "2026-11-27", "hackathon"),  # 지금 진행 중인 해커톤
    "pj-024": ("end",        "2026-11-27", "2026-12-03", None),         # 곧 마감
    "pj-025": ("end",        "2026-11-23", "2026-11-29", None),         # 이번 주에 끝나는
    "pj-026": ("start",      "2026-12-01", "2026-12-31", "hackathon"),  # 다음 달에 시작하는 해커톤
    "pj-027": ("overlap",    "2026-12-01", "2026-12-31", "ai"),         # AI ... in December
    "pj-028": ("overlap",    "2026-11-30", "2026-12-06", "ctf"),        # CTF next week
    "pj-029": ("start",      "2027-01-01", "2027-01-31", None),         # 내년 1월에 시작하는
    "pj-030": ("end",        "2026-10-01", "2026-10-31", "ai"),         # 지난달에 끝난 AI 대회
    "pj-031": ("ongoing",    "2026-11-27", "2026-11-27", "security"),   # ongoing security
    "pj-032": ("overlap",    "2026-01-01", "2026-12-31", "database"),   # 올해 ... 데이터베이스 대회
    "pj-033": ("end",        "2026-11-27", "2026-11-27", None),         # 오늘 마감하는
    "pj-054": ("published",  "2026-10-01", "2026-10-31", "security"),   # 지난달 보안 뉴스
    "pj-055": ("published",  "2026-11-01", "2026-11-30", "mobility"),   # 이번 달 모빌리티 기사
    "pj-056": ("published",  "2026-11-23", "2026-11-29", None),         # this week
    "pj-057": ("published",  "2025-01-01", "2025-12-31", "database"),   # 작년 데이터베이스 뉴스
    "pj-058": ("published",  "2026-10-01", "2026-10-31", "ai"),         # AI news last month
    "pj-059": ("published",  "2026-11-01", "2026-11-30", "maritime"),   # 이번 달 조선 해양 뉴스
    "pj-060": ("published",  "2026-11-01", "2026-11-30", "retail"),     # november retail news
    "pj-061": ("published",  "2026-11-27", "2026-11-27", None),         # 오늘 나온 뉴스
    "pj-063": ("bm-overlap", "2026-12-01", "2026-12-31", None),         # 북마크한 대회 중 12월
}
QID = {q["id"]: q for q in queries}
for qid, (mode, a, b, tag) in WINDOWS.items():
    q = QID.get(qid)
    if q is None:
        err("window table refers to missing %s" % qid)
        continue
    d1, d2 = date.fromisoformat(a), date.fromisoformat(b)
    want = set()
    if mode == "published":
        for n in news:
            if (tag is None or tag in n["tags"]) and d1 <= day(n["publishedAt"]) <= d2:
                want.add(("news_articles", n["id"]))
    elif mode == "bm-overlap":
        for bm in bookmarks:
            if bm["userId"] == q["userId"] and bm["itemType"] == "CONTEST":
                c = CID[bm["itemId"]]
                if day(c["startDate"]) <= d2 and day(c["endDate"]) >= d1:
                    want.add(("bookmarks", bm["id"]))
    else:
        for c in contests:
            if tag is not None and tag not in c["tags"]:
                continue
            s, e = day(c["startDate"]), day(c["endDate"])
            hit = {"overlap": s <= d2 and e >= d1, "end": d1 <= e <= d2, "start": d1 <= s <= d2,
                   "ongoing": s <= REF <= e}[mode]
            if hit:
                want.add(("contests", c["id"]))
    got = {(e["collection"], e["id"]) for e in q["expected"]}
    if got != want:
        err("%s expected set differs from window rule: missing %s extra %s" % (qid, sorted(want - got), sorted(got - want)))

# ---- summary
if errors:
    for e in errors:
        print("ERROR:", e)
    print("%d problem(s)" % len(errors))
    sys.exit(1)


def script(t):
    h = bool(re.search("[가-힣]", t))
    if not h:
        return "en"
    return "mixed" if any(re.search("[a-z]", w) for w in re.findall(r"[A-Za-z][A-Za-z0-9@]*", t)) else "ko"


print("contests=%d %s titles=%s" % (len(contests), dict(Counter(c["status"] for c in contests)),
                                    dict(Counter(script(c["title"]) for c in contests))))
print("news=%d titles=%s oct2026=%d nov2026=%d" % (
    len(news), dict(Counter(script(n["title"]) for n in news)),
    sum(n["publishedAt"].startswith("2026-10") for n in news), sum(n["publishedAt"].startswith("2026-11") for n in news)))
print("bookmarks=%d %s" % (len(bookmarks), dict(Counter(b["itemType"] for b in bookmarks))))
print("queries=%d %s time-window=%d" % (len(queries), dict(Counter(q["kind"] for q in queries)), len(WINDOWS)))
print("OK")
