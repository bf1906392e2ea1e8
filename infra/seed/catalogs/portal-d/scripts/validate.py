#!/usr/bin/env python3
"""Validate the portal-d catalog. Usage: python3 scripts/validate.py  (from anywhere)"""
import json, os, re, sys, collections, datetime as dt
from urllib.parse import urlparse
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = dt.date(2026, 11, 22)
errs = []
def err(m): errs.append(m)
def load(n): return [json.loads(l) for l in open(os.path.join(ROOT, n), encoding="utf-8") if l.strip()]
C, N, B, Q = load("contests.jsonl"), load("news_articles.jsonl"), load("bookmarks.jsonl"), load("queries.jsonl")
W = json.load(open(os.path.join(ROOT, "scripts", "time_windows.json"), encoding="utf-8"))
KEYS = {"contests": ["id", "title", "description", "startDate", "endDate", "status", "url", "sourceName", "tags"],
        "news": ["id", "title", "summary", "content", "publishedAt", "url", "sourceName", "tags"],
        "bookmarks": ["id", "userId", "itemType", "itemId", "itemTitle", "itemSummary", "tag", "memo"],
        "queries": ["id", "userId", "query", "options", "expected", "kind"]}
for name, rows in (("contests", C), ("news", N), ("bookmarks", B), ("queries", Q)):
    for r in rows:
        if list(r.keys()) != KEYS[name]: err(f"{name} {r.get('id')}: keys {list(r.keys())}")
allids = [r["id"] for r in C + N + B + Q]
for k, v in collections.Counter(allids).items():
    if v > 1: err(f"duplicate id {k}")
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$")
def day(s): return dt.datetime.fromisoformat(s).date()
def url_ok(u): return urlparse(u).scheme == "https" and urlparse(u).hostname.endswith(".example")
for c in C:
    if not re.fullmatch(r"c-[0-9a-f]{16}", c["id"]): err(f"bad contest id {c['id']}")
    for f in ("startDate", "endDate"):
        if not ISO.match(c[f]): err(f"{c['id']} {f} format")
    s, e = day(c["startDate"]), day(c["endDate"])
    if s > e: err(f"{c['id']} start after end")
    if REF in (s, e): err(f"{c['id']} starts/ends on reference day")
    st = "ENDED" if e < REF else "UPCOMING" if s > REF else "ONGOING"
    if c["status"] != st: err(f"{c['id']} status {c['status']} != {st}")
    if not url_ok(c["url"]): err(f"{c['id']} url")
    if not c["tags"] or not isinstance(c["tags"], list): err(f"{c['id']} tags")
    if not (2 <= len(re.findall(r"[.!?다](?:\s|$)", c["description"])) <= 6): err(f"{c['id']} description sentence count")
for n in N:
    if not re.fullmatch(r"n-[0-9a-f]{16}", n["id"]): err(f"bad news id {n['id']}")
    if not ISO.match(n["publishedAt"]): err(f"{n['id']} publishedAt format")
    p = day(n["publishedAt"])
    if not (dt.date(2025, 1, 1) <= p <= dt.date(2026, 11, 21)): err(f"{n['id']} publishedAt out of range")
    if not (3 <= len(n["content"].split("\n\n")) <= 6): err(f"{n['id']} paragraphs")
    if not url_ok(n["url"]): err(f"{n['id']} url")
months = collections.Counter(n["publishedAt"][:7] for n in N)
if months["2026-10"] < 10 or months["2026-11"] < 10: err("need >=10 news in Oct and Nov 2026")
if months["2025-11"] + months["2025-12"] < 3: err("need a few news in Nov-Dec 2025")
if len(C) < 70: err("contests < 70")
if len(N) < 90: err("news < 90")
byid = {r["id"]: r for r in C + N}
users = collections.Counter(b["userId"] for b in B)
if dict(users) != {"5001": 9, "5002": 9, "5003": 9}: err(f"bookmarks per user {dict(users)}")
for b in B:
    if not re.fullmatch(r"b-[0-9a-f]{16}", b["id"]): err(f"bad bookmark id {b['id']}")
    it = byid.get(b["itemId"])
    if not it: err(f"{b['id']} dangling itemId"); continue
    want = "CONTEST" if b["itemId"].startswith("c-") else "NEWS_ARTICLE"
    if b["itemType"] != want: err(f"{b['id']} itemType")
    if b["itemTitle"] != it["title"]: err(f"{b['id']} itemTitle mismatch")
shared = [k for k, v in collections.Counter(b["itemId"] for b in B).items() if v > 1]
if not shared: err("no item bookmarked by two users")
for k, v in collections.Counter((b["userId"], b["itemId"]) for b in B).items():
    if v > 1: err(f"user bookmarks same item twice {k}")
bmap = {b["id"]: b for b in B}
coll = {"contests": {c["id"] for c in C}, "news_articles": {n["id"] for n in N}, "bookmarks": set(bmap)}
kinds = collections.Counter(q["kind"] for q in Q)
for q in Q:
    if not re.fullmatch(r"pd-\d{3}", q["id"]): err(f"bad query id {q['id']}")
    if q["userId"] not in ("5001", "5002", "5003"): err(f"{q['id']} userId")
    o = q["options"]; ex = q["expected"]
    if q["kind"] == "bookmark":
        if o != {"includeContests": False, "includeNews": False, "includeBookmarks": True}: err(f"{q['id']} options")
        for e in ex:
            if e["collection"] != "bookmarks" or bmap.get(e["id"], {}).get("userId") != q["userId"]:
                err(f"{q['id']} expects foreign/non-bookmark {e}")
    else:
        if o != {"includeContests": True, "includeNews": True, "includeBookmarks": False}: err(f"{q['id']} options")
    if q["kind"] in ("general", "greeting"):
        if ex: err(f"{q['id']} general/greeting must expect []")
    elif not (1 <= len(ex) <= 5): err(f"{q['id']} expected size {len(ex)}")
    for e in ex:
        if e["id"] not in coll.get(e["collection"], ()): err(f"{q['id']} dangling {e}")
    if len({e["id"] for e in ex}) != len(ex): err(f"{q['id']} duplicate expected")
    if q["kind"] == "contest" and any(e["collection"] != "contests" for e in ex): err(f"{q['id']} contest q expects non-contest")
    if q["kind"] == "news" and any(e["collection"] != "news_articles" for e in ex): err(f"{q['id']} news q expects non-news")
    for m in re.findall(r"\b[cn]-[0-9a-f]{16}\b", q["query"]):
        if m not in {e["id"] for e in ex}: err(f"{q['id']} mentions id {m} not expected")
# recompute every time-window question
def window(spec):
    rows = C if spec["col"] == "contests" else N
    lo, hi = dt.date.fromisoformat(spec["frm"]), dt.date.fromisoformat(spec["to"])
    out = set()
    for r in rows:
        if spec.get("tags") and not set(spec["tags"]) & set(r["tags"]): continue
        if spec.get("status") and r["status"] not in spec["status"]: continue
        if spec["mode"] == "published": ok = lo <= day(r["publishedAt"]) <= hi
        else:
            s, e = day(r["startDate"]), day(r["endDate"])
            ok = {"overlap": s <= hi and e >= lo, "end": lo <= e <= hi, "start": lo <= s <= hi}[spec["mode"]]
        if ok: out.add(r["id"])
    return out
qmap = {q["id"]: q for q in Q}
for qid, spec in W.items():
    got = {e["id"] for e in qmap[qid]["expected"]}
    want = window(spec)
    if got != want: err(f"{qid} time window mismatch: expected {sorted(got)} recomputed {sorted(want)}")
def lang(t):
    t2 = re.sub(r"Div\.\d|#\d+|CTF|NPU|AI|LLM|RAG|IT|RISC-V|EDA", "", t)
    ko, en = bool(re.search("[가-힣]", t)), bool(re.search("[A-Za-z]{2,}", t2))
    return "mixed" if ko and en else "ko" if ko else "en"
print("contests", len(C), dict(collections.Counter(c["status"] for c in C)), "title langs", dict(collections.Counter(lang(c["title"]) for c in C)))
print("news", len(N), "langs", dict(collections.Counter("ko" if re.search("[가-힣]", n["title"]) else "en" for n in N)))
print("bookmarks", len(B), "shared items", len(shared))
print("queries", len(Q), dict(kinds), "time-window queries", len(W))
if errs:
    print("\n".join("ERROR " + e for e in errs)); sys.exit(1)
print("OK")
