"""Validate the portal-f catalog. Run: python3 scripts/validate.py (from the portal-f folder or anywhere)."""
import json, os, re, sys
from collections import Counter
from datetime import date

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from windows import match

REF = date(2026, 11, 22)
errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            try:
                rows.append(json.loads(line))
            except Exception as e:
                err(f"{name}:{i} bad JSON {e}")
    return rows


contests, news = load("contests.jsonl"), load("news_articles.jsonl")
bookmarks, queries = load("bookmarks.jsonl"), load("queries.jsonl")
KEYS = {
    "contests.jsonl": ["id", "title", "description", "startDate", "endDate", "status", "url", "sourceName", "tags"],
    "news_articles.jsonl": ["id", "title", "summary", "content", "publishedAt", "url", "sourceName", "tags"],
    "bookmarks.jsonl": ["id", "userId", "itemType", "itemId", "itemTitle", "itemSummary", "tag", "memo"],
    "queries.jsonl": ["id", "userId", "query", "options", "expected", "kind"],
}
for name, rows in (("contests.jsonl", contests), ("news_articles.jsonl", news), ("bookmarks.jsonl", bookmarks), ("queries.jsonl", queries)):
    for r in rows:
        if list(r.keys()) != KEYS[name]:
            err(f"{name} {r.get('id')}: keys {list(r.keys())}")

ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$")
allids = Counter(r["id"] for r in contests + news + bookmarks)
for i, k in allids.items():
    if k > 1:
        err(f"duplicate id {i}")
for r in contests:
    if not re.fullmatch(r"c-[0-9a-f]{16}", r["id"]): err(f"bad contest id {r['id']}")
    for f in ("startDate", "endDate"):
        if not ISO.match(r[f]): err(f"{r['id']} bad {f}")
    s, e = date.fromisoformat(r["startDate"][:10]), date.fromisoformat(r["endDate"][:10])
    if e < s: err(f"{r['id']} ends before start")
    if REF in (s, e): err(f"{r['id']} starts/ends on the reference date")
    st = "ENDED" if e < REF else "UPCOMING" if s > REF else "ONGOING"
    if r["status"] != st: err(f"{r['id']} status {r['status']} != {st}")
    if not re.match(r"^https://[a-z0-9.-]+\.example/", r["url"]): err(f"{r['id']} url")
    if not r["tags"]: err(f"{r['id']} no tags")
for r in news:
    if not re.fullmatch(r"n-[0-9a-f]{16}", r["id"]): err(f"bad news id {r['id']}")
    if not ISO.match(r["publishedAt"]): err(f"{r['id']} bad publishedAt")
    d = date.fromisoformat(r["publishedAt"][:10])
    if not (date(2025, 1, 1) <= d <= date(2026, 11, 21)): err(f"{r['id']} publishedAt out of range")
    paras = r["content"].split("\n\n")
    if not 3 <= len(paras) <= 6: err(f"{r['id']} has {len(paras)} paragraphs")
    if not re.match(r"^https://[a-z0-9.-]+\.example/", r["url"]): err(f"{r['id']} url")
months = Counter(r["publishedAt"][:7] for r in news)
for m in ("2026-10", "2026-11"):
    if months[m] < 10: err(f"only {months[m]} news in {m}")

CBY = {r["id"]: r for r in contests}
NBY = {r["id"]: r for r in news}
BBY = {r["id"]: r for r in bookmarks}
USERS = {"7001", "7002", "7003"}
seen_items = Counter()
for b in bookmarks:
    if not re.fullmatch(r"b-[0-9a-f]{16}", b["id"]): err(f"bad bookmark id {b['id']}")
    if b["userId"] not in USERS: err(f"{b['id']} bad user")
    src = CBY if b["itemType"] == "CONTEST" else NBY if b["itemType"] == "NEWS_ARTICLE" else None
    if src is None or b["itemId"] not in src:
        err(f"{b['id']} dangling item {b['itemId']}")
        continue
    if src[b["itemId"]]["title"] != b["itemTitle"]: err(f"{b['id']} title mismatch")
    seen_items[b["itemId"]] += 1
per_user = Counter(b["userId"] for b in bookmarks)
if any(v != 9 for v in per_user.values()) or set(per_user) != USERS: err(f"bookmarks per user {per_user}")
if not any(v >= 2 for v in seen_items.values()): err("no item bookmarked by two users")
for u in USERS:
    ids = [b["itemId"] for b in bookmarks if b["userId"] == u]
    if len(ids) != len(set(ids)): err(f"user {u} duplicate bookmark")

windows = json.load(open(os.path.join(HERE, "time_windows.json"), encoding="utf-8"))
CN = {"includeContests": True, "includeNews": True, "includeBookmarks": False}
BM = {"includeContests": False, "includeNews": False, "includeBookmarks": True}
qids = Counter(q["id"] for q in queries)
for q in queries:
    if qids[q["id"]] > 1: err(f"dup query id {q['id']}")
    if not re.fullmatch(r"pf-\d{3}", q["id"]): err(f"bad query id {q['id']}")
    if q["userId"] not in USERS: err(f"{q['id']} bad user")
    k = q["kind"]
    if k not in ("contest", "news", "bookmark", "general", "greeting"): err(f"{q['id']} kind {k}")
    if q["options"] != (BM if k == "bookmark" else CN): err(f"{q['id']} options")
    exp = q["expected"]
    if k in ("general", "greeting"):
        if exp: err(f"{q['id']} general/greeting with expected")
        continue
    if not 1 <= len(exp) <= 5: err(f"{q['id']} has {len(exp)} expected")
    if len({e['id'] for e in exp}) != len(exp): err(f"{q['id']} duplicate expected")
    for e in exp:
        coll, i = e["collection"], e["id"]
        if k == "bookmark":
            if coll != "bookmarks" or i not in BBY: err(f"{q['id']} bad bookmark ref {i}")
            elif BBY[i]["userId"] != q["userId"]: err(f"{q['id']} references another user's bookmark")
        else:
            if coll == "contests" and i not in CBY: err(f"{q['id']} dangling contest {i}")
            elif coll == "news_articles" and i not in NBY: err(f"{q['id']} dangling news {i}")
            elif coll not in ("contests", "news_articles"): err(f"{q['id']} bad collection {coll}")
    for m in re.findall(r"\b[cn]-[0-9a-f]{16}\b", q["query"]):
        if m not in {e["id"] for e in exp}: err(f"{q['id']} mentions {m} but does not expect it")
    if q["id"] in windows:
        spec = windows[q["id"]]
        if spec["query"] != q["query"]: err(f"{q['id']} window spec text mismatch")
        items = contests if spec["coll"] == "contests" else news
        coll = "contests" if spec["coll"] == "contests" else "news_articles"
        want = {(coll, it["id"]) for it in items if match(spec, it)}
        got = {(e["collection"], e["id"]) for e in exp}
        if want != got: err(f"{q['id']} window expected mismatch: want {sorted(want)} got {sorted(got)}")

kinds = Counter(q["kind"] for q in queries)
print("contests", len(contests), Counter(c["status"] for c in contests))
print("news", len(news), "Oct-2026", months["2026-10"], "Nov-2026", months["2026-11"])
print("bookmarks", len(bookmarks), dict(per_user))
print("queries", len(queries), dict(kinds), "time-window questions", len(windows))
hang = lambda s: bool(re.search("[가-힣]", s))
lat = lambda s: bool(re.search("[A-Za-z]", s))
ko = sum(hang(c["title"]) and not lat(c["title"]) for c in contests)
en = sum(lat(c["title"]) and not hang(c["title"]) for c in contests)
print(f"contest titles ko/en/mixed = {ko}/{en}/{len(contests)-ko-en}; news ko/en = "
      f"{sum(hang(n['title']) for n in news)}/{sum(not hang(n['title']) for n in news)}")
if len(contests) < 70 or len(news) < 90 or len(queries) < 100: err("too few rows")
if errors:
    print("FAILED")
    for e in errors: print(" -", e)
    sys.exit(1)
print("OK")
