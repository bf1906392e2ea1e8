#!/usr/bin/env python3
"""Validate portal-e catalog files. Exit code 1 on any error."""
import json, os, re, sys
from collections import Counter
from datetime import date, datetime
from urllib.parse import urlparse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REF = date(2026, 11, 22)
USERS = {"6001", "6002", "6003"}
errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                rows.append(json.loads(line))
            except Exception as e:
                err(f"{name}:{n} bad JSON: {e}")
    return rows


def kst_date(s, where):
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00", s or ""):
        err(f"{where}: bad datetime {s!r}")
        return None
    return datetime.fromisoformat(s).date()


def check_keys(name, rows, keys):
    for r in rows:
        if list(r.keys()) != keys:
            err(f"{name} {r.get('id')}: keys {list(r.keys())} != {keys}")


def check_url(where, u):
    host = urlparse(u).hostname or ""
    if not host.endswith(".example"):
        err(f"{where}: url not .example: {u}")


contests = load("contests.jsonl")
news = load("news_articles.jsonl")
bookmarks = load("bookmarks.jsonl")
queries = load("queries.jsonl")

check_keys("contests", contests, ["id", "title", "description", "startDate", "endDate", "status", "url", "sourceName", "tags"])
check_keys("news", news, ["id", "title", "summary", "content", "publishedAt", "url", "sourceName", "tags"])
check_keys("bookmarks", bookmarks, ["id", "userId", "itemType", "itemId", "itemTitle", "itemSummary", "tag", "memo"])
check_keys("queries", queries, ["id", "userId", "query", "options", "expected", "kind"])

all_ids = Counter(r["id"] for r in contests + news + bookmarks)
for i, c in all_ids.items():
    if c > 1:
        err(f"duplicate id {i}")

# ---- contests ----
if len(contests) < 70:
    err(f"only {len(contests)} contests")
C = {}
for c in contests:
    C[c["id"]] = c
    if not re.fullmatch(r"c-[0-9a-f]{16}", c["id"]):
        err(f"bad contest id {c['id']}")
    sd, ed = kst_date(c["startDate"], c["id"]), kst_date(c["endDate"], c["id"])
    if not sd or not ed:
        continue
    if sd > ed:
        err(f"{c['id']}: start after end")
    if sd == REF or ed == REF:
        err(f"{c['id']}: starts/ends on reference date")
    exp = "ENDED" if ed < REF else "UPCOMING" if sd > REF else "ONGOING"
    if c["status"] != exp:
        err(f"{c['id']}: status {c['status']} expected {exp}")
    check_url(c["id"], c["url"])
    if not isinstance(c["tags"], list) or not c["tags"]:
        err(f"{c['id']}: tags")
    nsent = len(re.findall(r"[.!?](\s|$)", c["description"]))
    if not 2 <= nsent <= 5:
        err(f"{c['id']}: description has {nsent} sentences")

# ---- news ----
if len(news) < 90:
    err(f"only {len(news)} news")
N = {}
months = Counter()
for n in news:
    N[n["id"]] = n
    if not re.fullmatch(r"n-[0-9a-f]{16}", n["id"]):
        err(f"bad news id {n['id']}")
    d = kst_date(n["publishedAt"], n["id"])
    if d and not (date(2025, 1, 1) <= d <= date(2026, 11, 21)):
        err(f"{n['id']}: publishedAt out of range")
    if d:
        months[d.strftime("%Y-%m")] += 1
    paras = n["content"].split("\n\n")
    if not 3 <= len(paras) <= 6:
        err(f"{n['id']}: {len(paras)} paragraphs")
    check_url(n["id"], n["url"])
for m in ("2026-10", "2026-11"):
    if months[m] < 10:
        err(f"only {months[m]} news in {m}")

# ---- bookmarks ----
B = {}
per_user = Counter()
item_users = {}
for b in bookmarks:
    B[b["id"]] = b
    if not re.fullmatch(r"b-[0-9a-f]{16}", b["id"]):
        err(f"bad bookmark id {b['id']}")
    if b["userId"] not in USERS:
        err(f"{b['id']}: userId {b['userId']!r}")
    per_user[b["userId"]] += 1
    src = C if b["itemType"] == "CONTEST" else N if b["itemType"] == "NEWS_ARTICLE" else None
    if src is None:
        err(f"{b['id']}: itemType {b['itemType']}")
        continue
    item = src.get(b["itemId"])
    if not item:
        err(f"{b['id']}: itemId {b['itemId']} not found in {b['itemType']}")
        continue
    if item["title"] != b["itemTitle"]:
        err(f"{b['id']}: itemTitle mismatch")
    item_users.setdefault(b["itemId"], set()).add(b["userId"])
if any(per_user[u] != 9 for u in USERS):
    err(f"bookmarks per user {dict(per_user)}")
shared = [i for i, us in item_users.items() if len(us) >= 2]
if not shared:
    err("no item bookmarked by two users")

# ---- queries ----
kinds = Counter(q["kind"] for q in queries)
windows = json.load(open(os.path.join(HERE, "time_windows.json"), encoding="utf-8"))
COLL = {"contests": C, "news_articles": N, "bookmarks": B}
for k, q in enumerate(queries, 1):
    qid = q["id"]
    if qid != f"pe-{k:03d}":
        err(f"query id {qid} out of sequence")
    if q["userId"] not in USERS:
        err(f"{qid}: userId")
    o = q["options"]
    if list(o.keys()) != ["includeContests", "includeNews", "includeBookmarks"]:
        err(f"{qid}: option keys")
    if q["kind"] == "bookmark":
        if o != {"includeContests": False, "includeNews": False, "includeBookmarks": True}:
            err(f"{qid}: bookmark options")
    elif q["kind"] in ("contest", "news", "general", "greeting"):
        if o != {"includeContests": True, "includeNews": True, "includeBookmarks": False}:
            err(f"{qid}: options")
    else:
        err(f"{qid}: kind {q['kind']}")
    exp = q["expected"]
    if q["kind"] in ("general", "greeting"):
        if exp:
            err(f"{qid}: general/greeting must have empty expected")
    elif not 1 <= len(exp) <= 5:
        err(f"{qid}: {len(exp)} expected items")
    seen = set()
    for e in exp:
        if list(e.keys()) != ["collection", "id"] or e["collection"] not in COLL:
            err(f"{qid}: bad expected entry {e}")
            continue
        if e["id"] in seen:
            err(f"{qid}: duplicate expected {e['id']}")
        seen.add(e["id"])
        if e["id"] not in COLL[e["collection"]]:
            err(f"{qid}: expected {e} not found")
            continue
        if q["kind"] == "bookmark":
            if e["collection"] != "bookmarks" or B[e["id"]]["userId"] != q["userId"]:
                err(f"{qid}: bookmark expected must be the user's own bookmark")
        elif e["collection"] == "bookmarks":
            err(f"{qid}: non-bookmark query expects a bookmark")
    for m in re.findall(r"c-[0-9a-f]{16}", q["query"]):
        if m not in C:
            err(f"{qid}: query mentions unknown id {m}")
        elif {"collection": "contests", "id": m} not in exp:
            err(f"{qid}: id question does not expect {m}")

# ---- recompute time windows ----
def recompute(spec):
    lo, hi = date.fromisoformat(spec["from"]), date.fromisoformat(spec["to"])
    out = set()
    if spec["collection"] == "contests":
        for c in contests:
            if spec["tag"] and spec["tag"] not in c["tags"]:
                continue
            sd, ed = date.fromisoformat(c["startDate"][:10]), date.fromisoformat(c["endDate"][:10])
            m = spec["mode"]
            if (m == "overlap" and sd <= hi and ed >= lo) or (m == "end" and lo <= ed <= hi) or \
               (m == "start" and lo <= sd <= hi):
                out.add(("contests", c["id"]))
    else:
        for n in news:
            if spec["tag"] and spec["tag"] not in n["tags"]:
                continue
            if lo <= date.fromisoformat(n["publishedAt"][:10]) <= hi:
                out.add(("news_articles", n["id"]))
    return out

QMAP = {q["id"]: q for q in queries}
for qid, spec in windows.items():
    q = QMAP.get(qid)
    if not q:
        err(f"time window for unknown query {qid}")
        continue
    got = {(e["collection"], e["id"]) for e in q["expected"]}
    want = recompute(spec)
    if got != want:
        err(f"{qid}: expected {sorted(got)} but window gives {sorted(want)}")

# ---- report ----
def lang(s):
    h, l = bool(re.search("[가-힣]", s)), bool(re.search("[A-Za-z]", s))
    return "mixed" if h and l else "ko" if h else "en"

print("contests", len(contests), dict(Counter(c["status"] for c in contests)),
      "title langs", dict(Counter(lang(c["title"]) for c in contests)))
print("news", len(news), "title langs", dict(Counter("ko" if re.search("[가-힣]", n["title"]) else "en" for n in news)),
      "2026-10:", months["2026-10"], "2026-11:", months["2026-11"])
print("bookmarks", len(bookmarks), dict(per_user), "shared items:", len(shared))
print("queries", len(queries), dict(kinds), "time-window questions:", len(windows))
if errors:
    print(f"\n{len(errors)} ERROR(S):")
    for e in errors:
        print(" -", e)
    sys.exit(1)
print("OK: all checks passed")
