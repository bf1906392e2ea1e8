#!/usr/bin/env python3
"""Validate the portal-c catalog. Exit code 1 on any error."""
import json
import os
import re
import sys
from collections import Counter
from datetime import date, datetime

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REF = date(2026, 11, 22)
USERS = {"4001", "4002", "4003"}  # strings, as in the sample's schema
errors, notes = [], []


def err(msg):
    errors.append(msg)


def load(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


contests = load("contests.jsonl")
news = load("news_articles.jsonl")
bookmarks = load("bookmarks.jsonl")
queries = load("queries.jsonl")
windows = json.load(open(os.path.join(HERE, "time_windows.json"), encoding="utf-8"))

KEYS = {
    "contests": ["id", "title", "description", "startDate", "endDate", "status", "url", "sourceName", "tags"],
    "news": ["id", "title", "summary", "content", "publishedAt", "url", "sourceName", "tags"],
    "bookmarks": ["id", "userId", "itemType", "itemId", "itemTitle", "itemSummary", "tag", "memo"],
    "queries": ["id", "userId", "query", "options", "expected", "kind"],
}
for name, rows in [("contests", contests), ("news", news), ("bookmarks", bookmarks), ("queries", queries)]:
    for r in rows:
        if list(r.keys()) != KEYS[name]:
            err(f"{name} {r.get('id')}: keys {list(r.keys())}")

ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$")


def pdate(s):
    if not ISO.match(s):
        err(f"bad datetime {s}")
    return datetime.fromisoformat(s)


def idcheck(rows, prefix):
    ids = [r["id"] for r in rows]
    for i in ids:
        if not re.fullmatch(prefix + r"[0-9a-f]{16}", i):
            err(f"bad id {i}")
    for i, n in Counter(ids).items():
        if n > 1:
            err(f"duplicate id {i}")


idcheck(contests, "c-")
idcheck(news, "n-")
idcheck(bookmarks, "b-")

HANGUL = re.compile(r"[\uac00-\ud7a3]")
LATIN = re.compile(r"[A-Za-z]")


def script(t):
    h, l = bool(HANGUL.search(t)), bool(LATIN.search(t))
    return "mixed" if h and l else ("ko" if h else "en")


# ---------------- contests
CT = {}
status_count = Counter()
for c in contests:
    CT[c["id"]] = c
    s, e = pdate(c["startDate"]), pdate(c["endDate"])
    if s > e:
        err(f"{c['id']} start after end")
    if s.date() == REF or e.date() == REF:
        err(f"{c['id']} starts/ends on reference date")
    want = "ENDED" if e.date() < REF else ("UPCOMING" if s.date() > REF else "ONGOING")
    if c["status"] != want:
        err(f"{c['id']} status {c['status']} != {want}")
    status_count[c["status"]] += 1
    if not re.match(r"^https://[a-z0-9.-]+\.example/", c["url"]):
        err(f"{c['id']} url {c['url']}")
    if not c["tags"] or not all(isinstance(t, str) for t in c["tags"]):
        err(f"{c['id']} tags")
    nsent = len(re.findall(r"[.!?](\s|$)", c["description"]))
    if not 2 <= nsent <= 5:
        err(f"{c['id']} description has {nsent} sentences")
if len(contests) < 70:
    err(f"only {len(contests)} contests")
mix = Counter(script(c["title"]) for c in contests)
notes.append(f"contest title scripts: {dict(mix)} of {len(contests)}")
ends_week = [c for c in contests if "2026-11-23" <= c["endDate"][:10] <= "2026-11-29"]
if not ends_week:
    err("no contest ends in 2026-11-23..29")

# ---------------- news
NW = {}
month = Counter()
for n in news:
    NW[n["id"]] = n
    p = pdate(n["publishedAt"])
    if not (date(2025, 1, 1) <= p.date() <= date(2026, 11, 21)):
        err(f"{n['id']} publishedAt out of range")
    month[n["publishedAt"][:7]] += 1
    paras = n["content"].split("\n\n")
    if not 3 <= len(paras) <= 6 or any(not x.strip() for x in paras):
        err(f"{n['id']} has {len(paras)} paragraphs")
    if not re.match(r"^https://[a-z0-9.-]+\.example/", n["url"]):
        err(f"{n['id']} url")
if len(news) < 90:
    err(f"only {len(news)} news")
for m in ("2026-10", "2026-11"):
    if month[m] < 10:
        err(f"only {month[m]} news in {m}")
if month["2025-11"] + month["2025-12"] < 2:
    err("too few Nov-Dec 2025 news")
nmix = Counter("ko" if HANGUL.search(n["title"]) else "en" for n in news)
notes.append(f"news languages: {dict(nmix)}; Oct26={month['2026-10']} Nov26={month['2026-11']} "
             f"Nov25={month['2025-11']} Dec25={month['2025-12']}")

# ---------------- bookmarks
BM = {}
per_user = Counter()
item_users = {}
for b in bookmarks:
    BM[b["id"]] = b
    per_user[b["userId"]] += 1
    if b["userId"] not in USERS:
        err(f"{b['id']} user {b['userId']}")
    src = CT if b["itemType"] == "CONTEST" else NW if b["itemType"] == "NEWS_ARTICLE" else None
    if src is None or b["itemId"] not in src:
        err(f"{b['id']} bad item reference")
        continue
    if src[b["itemId"]]["title"] != b["itemTitle"]:
        err(f"{b['id']} itemTitle mismatch")
    if not b["memo"].strip() or not b["tag"].strip() or not b["itemSummary"].strip():
        err(f"{b['id']} empty field")
    item_users.setdefault(b["itemId"], []).append(b["userId"])
for (u, item), n in Counter((b["userId"], b["itemId"]) for b in bookmarks).items():
    if n > 1:
        err(f"user {u} bookmarks {item} twice")
if sorted(per_user.values()) != [9, 9, 9]:
    err(f"bookmarks per user {dict(per_user)}")
shared = [i for i, us in item_users.items() if len(set(us)) > 1]
if not shared:
    err("no item bookmarked by two users")
notes.append(f"shared bookmark items: {shared}")

# ---------------- queries
kinds = Counter()
ALL = {"contests": CT, "news_articles": NW, "bookmarks": BM}
for i, qr in enumerate(queries, 1):
    qid, kind = qr["id"], qr["kind"]
    kinds[kind] += 1
    if qid != f"pc-{i:03d}":
        err(f"query id {qid} out of sequence")
    if qr["userId"] not in USERS:
        err(f"{qid} user")
    o = qr["options"]
    if list(o.keys()) != ["includeContests", "includeNews", "includeBookmarks"]:
        err(f"{qid} option keys")
    want = (False, False, True) if kind == "bookmark" else (True, True, False)
    if (o["includeContests"], o["includeNews"], o["includeBookmarks"]) != want:
        err(f"{qid} options {o}")
    exp = qr["expected"]
    if kind in ("general", "greeting"):
        if exp:
            err(f"{qid} {kind} must have empty expected")
    elif not 1 <= len(exp) <= 5:
        err(f"{qid} expected size {len(exp)}")
    allowed = {"contest": {"contests"}, "news": {"news_articles"}, "bookmark": {"bookmarks"}}.get(kind, set())
    seen = set()
    for e in exp:
        if list(e.keys()) != ["collection", "id"]:
            err(f"{qid} expected keys")
        if e["collection"] not in allowed:
            err(f"{qid} collection {e['collection']} not allowed for {kind}")
        if e["id"] not in ALL.get(e["collection"], {}):
            err(f"{qid} unknown {e['collection']} id {e['id']}")
        elif kind == "bookmark" and BM[e["id"]]["userId"] != qr["userId"]:
            err(f"{qid} expects another user's bookmark")
        if e["id"] in seen:
            err(f"{qid} duplicate expected")
        seen.add(e["id"])
    for m in re.findall(r"\b([cn]-[0-9a-f]{16})\b", qr["query"]):
        if m not in seen:
            err(f"{qid} mentions {m} but does not expect it")

target = {"contest": 30, "news": 28, "bookmark": 10, "general": 26, "greeting": 6}
for k, t in target.items():
    if abs(kinds[k] - t) > 3:
        err(f"kind {k}: {kinds[k]} (target ~{t})")
if len(queries) < 100:
    err(f"only {len(queries)} queries")

# ---------------- time windows: recompute expected sets
Q = {qr["id"]: qr for qr in queries}
for qid, w in windows.items():
    qr = Q[qid]
    lo, hi, tag, mode = w["from"], w["to"], w["tag"], w["mode"]
    got = set()
    if w["collection"] == "contests":
        for c in contests:
            if tag and tag not in c["tags"]:
                continue
            s, e = c["startDate"][:10], c["endDate"][:10]
            if (mode == "overlap" and s <= hi and e >= lo) or (mode == "end" and lo <= e <= hi):
                got.add(c["id"])
    elif w["collection"] == "news_articles":
        for n in news:
            if (not tag or tag in n["tags"]) and lo <= n["publishedAt"][:10] <= hi:
                got.add(n["id"])
    elif w["collection"] == "bookmarks":
        for b in bookmarks:
            if b["userId"] != qr["userId"] or b["itemType"] != "CONTEST":
                continue
            c = CT[b["itemId"]]
            if (not tag or tag in c["tags"]) and lo <= c["endDate"][:10] <= hi:
                got.add(b["id"])
    have = {e["id"] for e in qr["expected"]}
    if got != have:
        err(f"{qid} window {w}: expected {sorted(have)} but data gives {sorted(got)}")

# organiser question: every contest naming Neunggeum AI
for qr in queries:
    if qr["query"].startswith("능금AI가 주최하는"):
        got = {c["id"] for c in contests if "능금" in c["title"] + c["description"] or "Neunggeum" in c["title"] + c["description"]}
        if got != {e["id"] for e in qr["expected"]}:
            err(f"{qr['id']} organiser set mismatch {sorted(got)}")

notes.append(f"status: {dict(status_count)}; kinds: {dict(kinds)}; windows checked: {len(windows)}")
for n in notes:
    print("note:", n)
for e in errors:
    print("ERROR:", e)
print("OK" if not errors else f"{len(errors)} errors")
sys.exit(1 if errors else 0)
