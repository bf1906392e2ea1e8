# -*- coding: utf-8 -*-
"""Validate the portal-h catalog (stdlib only). Prints OK or a list of errors.

Usage: python3 scripts/validate.py
"""
import json
import os
import re
import sys
from collections import Counter
from datetime import date, datetime, timedelta, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KST = timezone(timedelta(hours=9))
REF = date(2026, 12, 16)  # Wednesday

# Time-word questions: qid -> (collection, mode, from, to, tags(any-of) or None, org or None, time word)
# mode: overlap (period overlaps window), start (startDate day in window), end (endDate day in window),
#       ongoing (status ONGOING on REF), published (news publishedAt day in window).
# For collection "bookmarks": the asking user's CONTEST bookmarks whose contest matches.
WINDOWS = {
    "ph-022": ("contests", "ongoing", None, None, ["hackathon"], None, "지금 진행 중 + 해커톤"),
    "ph-023": ("contests", "end", "2026-12-16", "2026-12-22", None, None, "곧 마감"),
    "ph-024": ("contests", "start", "2027-01-01", "2027-01-31", None, None, "다음 달 시작"),
    "ph-025": ("contests", "overlap", "2027-01-01", "2027-01-31", ["hackathon"], None, "in January + hackathon"),
    "ph-026": ("contests", "end", "2026-12-16", "2026-12-16", None, None, "closing today (오늘 마감)"),
    "ph-027": ("contests", "overlap", "2027-02-01", "2027-02-28", ["ctf"], None, "in February + CTF"),
    "ph-028": ("contests", "overlap", "2026-01-01", "2026-12-31", ["compiler"], None, "올해 + 컴파일러"),
    "ph-029": ("contests", "start", "2026-12-14", "2026-12-20", None, None, "starting this week (이번 주)"),
    "ph-030": ("contests", "overlap", "2026-12-21", "2026-12-27", ["meetup"], None, "다음 주 + 밋업"),
    "ph-031": ("contests", "start", "2027-02-01", "2027-02-28", None, None, "starting in February"),
    "ph-032": ("contests", "end", "2026-12-16", "2026-12-22", ["ai"], None, "closing soon + AI"),
    "ph-033": ("contests", "overlap", "2026-01-01", "2026-12-31", None, "이음체인", "this year + Ieum Chain"),
    "ph-054": ("news", "published", "2026-11-01", "2026-11-30", ["mobility"], None, "지난달 + 모빌리티"),
    "ph-055": ("news", "published", "2026-12-01", "2026-12-31", ["hackathon"], None, "이번 달 + 해커톤"),
    "ph-056": ("news", "published", "2025-01-01", "2025-12-31", ["edtech"], None, "last year (작년) + edtech"),
    "ph-057": ("news", "published", "2026-11-01", "2026-11-30", ["semiconductor", "compiler"], None, "last month + chips/compilers"),
    "ph-058": ("news", "published", "2026-12-14", "2026-12-20", ["hackathon"], None, "이번 주 + 해커톤"),
    "ph-059": ("news", "published", "2026-11-01", "2026-11-30", ["blockchain"], None, "last month + web3"),
    "ph-065": ("bookmarks", "overlap", "2027-01-01", "2027-12-31", None, None, "내년 (bookmarked contests)"),
    "ph-069": ("bookmarks", "overlap", "2027-02-01", "2027-02-28", None, None, "2월 (bookmarked contests)"),
}

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
            try:
                rows.append(json.loads(line))
            except ValueError as e:
                err("%s:%d bad JSON: %s" % (name, i, e))
    return rows


TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$")


def day(ts):
    if not isinstance(ts, str) or not TS_RE.match(ts):
        err("bad timestamp %r" % (ts,))
        return date(1900, 1, 1)
    return datetime.fromisoformat(ts).astimezone(KST).date()


def check_keys(name, row, keys):
    if set(row) != set(keys):
        err("%s %s: keys %s != %s" % (name, row.get("id"), sorted(row), sorted(keys)))


def check_ids(name, rows, pattern):
    ids = [r.get("id") for r in rows]
    for k, n in Counter(ids).items():
        if n > 1:
            err("%s: duplicate id %s" % (name, k))
    for i in ids:
        if not isinstance(i, str) or not re.fullmatch(pattern, i):
            err("%s: bad id %r" % (name, i))


contests = load("contests.jsonl")
news = load("news_articles.jsonl")
bookmarks = load("bookmarks.jsonl")
queries = load("queries.jsonl")
for q in queries:  # the file says "news_articles" (the engine's name); this script says "news"
    for e in q["expected"]:
        if e["collection"] == "news_articles":
            e["collection"] = "news"

check_ids("contests", contests, r"c-[0-9a-f]{16}")
check_ids("news", news, r"n-[0-9a-f]{16}")
check_ids("bookmarks", bookmarks, r"b-[0-9a-f]{16}")
check_ids("queries", queries, r"ph-\d{3}")

C = {c["id"]: c for c in contests}
N = {n["id"]: n for n in news}
B = {b["id"]: b for b in bookmarks}
BY_COLL = {"contests": C, "news": N, "bookmarks": B}

TAG_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")

# ------------------------------------------------------------ contests
def status_of(c):
    s, e = day(c["startDate"]), day(c["endDate"])
    if e < REF:
        return "ENDED"
    if s > REF:
        return "UPCOMING"
    return "ONGOING"


for c in contests:
    check_keys("contest", c, ["id", "title", "description", "startDate", "endDate", "status",
                              "url", "sourceName", "tags"])
    if day(c["startDate"]) > day(c["endDate"]):
        err("contest %s starts after it ends" % c["id"])
    if c["status"] != status_of(c):
        err("contest %s status %s, rule says %s" % (c["id"], c["status"], status_of(c)))
    if not re.match(r"^https://[a-z0-9.-]+\.example/", c["url"]):
        err("contest %s url %s" % (c["id"], c["url"]))
    if not c["tags"] or not all(isinstance(t, str) and TAG_RE.match(t) for t in c["tags"]):
        err("contest %s tags %r" % (c["id"], c["tags"]))
    nsent = len(re.findall(r"(다\.|\.)(\s|$)", c["description"]))
    if not 2 <= nsent <= 4:
        err("contest %s description has %d sentences" % (c["id"], nsent))

# ------------------------------------------------------------ news
for n in news:
    check_keys("news", n, ["id", "title", "summary", "content", "publishedAt", "url",
                           "sourceName", "tags"])
    d = day(n["publishedAt"])
    if not (date(2025, 1, 1) <= d <= date(2026, 12, 15)):
        err("news %s published %s outside 2025-01-01..2026-12-15" % (n["id"], d))
    paras = n["content"].split("\n\n")
    if not 3 <= len(paras) <= 4 or any(not p.strip() for p in paras):
        err("news %s has %d paragraphs" % (n["id"], len(paras)))
    if not re.match(r"^https://[a-z0-9.-]+\.example/", n["url"]):
        err("news %s url %s" % (n["id"], n["url"]))
    if not n["tags"] or not all(isinstance(t, str) and TAG_RE.match(t) for t in n["tags"]):
        err("news %s tags %r" % (n["id"], n["tags"]))
for coll, rows in (("contest", contests), ("news", news)):
    for k, v in Counter(r["url"] for r in rows).items():
        if v > 1:
            err("%s duplicate url %s" % (coll, k))

# ------------------------------------------------------------ bookmarks
for b in bookmarks:
    check_keys("bookmark", b, ["id", "userId", "itemType", "itemId", "itemTitle", "itemSummary",
                               "tag", "memo"])
    if b["userId"] not in ("9001", "9002", "9003"):
        err("bookmark %s userId %r" % (b["id"], b["userId"]))
    src = C if b["itemType"] == "CONTEST" else N if b["itemType"] == "NEWS_ARTICLE" else None
    if src is None:
        err("bookmark %s itemType %r" % (b["id"], b["itemType"]))
        continue
    if b["itemId"] not in src:
        err("bookmark %s itemId %s not in %s" % (b["id"], b["itemId"], b["itemType"]))
    elif src[b["itemId"]]["title"] != b["itemTitle"]:
        err("bookmark %s itemTitle mismatch" % b["id"])
    if not TAG_RE.match(b["tag"]):
        err("bookmark %s tag %r" % (b["id"], b["tag"]))
per_user = Counter(b["userId"] for b in bookmarks)
if len(bookmarks) != 27 or any(per_user[u] != 9 for u in ("9001", "9002", "9003")):
    err("bookmark counts %s (want 9 each, 27 total)" % dict(per_user))
item_users = {}
for b in bookmarks:
    item_users.setdefault(b["itemId"], []).append(b)
shared = [v for v in item_users.values() if len({x["userId"] for x in v}) >= 2]
if len(shared) != 1 or len({x["memo"] for x in shared[0]}) < 2:
    err("want exactly one item bookmarked by two users with different memos (found %d)" % len(shared))
for v in item_users.values():
    users = [x["userId"] for x in v]
    if len(users) != len(set(users)):
        err("user bookmarked the same item twice: %s" % v[0]["itemId"])

# ------------------------------------------------------------ queries
KINDS = {"contest", "news", "bookmark", "general", "greeting"}
WEB = {"includeContests": True, "includeNews": True, "includeBookmarks": False}
BMK = {"includeContests": False, "includeNews": False, "includeBookmarks": True}
for q in queries:
    check_keys("query", q, ["id", "userId", "query", "options", "expected", "kind"])
    if q["kind"] not in KINDS:
        err("query %s kind %r" % (q["id"], q["kind"]))
    if q["userId"] not in ("9001", "9002", "9003"):
        err("query %s userId %r" % (q["id"], q["userId"]))
    want_opts = BMK if q["kind"] == "bookmark" else WEB
    if q["options"] != want_opts:
        err("query %s options %r" % (q["id"], q["options"]))
    seen = set()
    for e in q["expected"]:
        if set(e) != {"collection", "id"} or e["collection"] not in BY_COLL:
            err("query %s bad expected entry %r" % (q["id"], e))
            continue
        if (e["collection"], e["id"]) in seen:
            err("query %s duplicate expected %s" % (q["id"], e["id"]))
        seen.add((e["collection"], e["id"]))
        if e["id"] not in BY_COLL[e["collection"]]:
            err("query %s expected %s not found in %s" % (q["id"], e["id"], e["collection"]))
            continue
        if q["kind"] == "bookmark":
            if e["collection"] != "bookmarks":
                err("query %s (bookmark) expects a non-bookmark %s" % (q["id"], e["id"]))
            elif B[e["id"]]["userId"] != q["userId"]:
                err("query %s expects bookmark %s of another user" % (q["id"], e["id"]))
        elif e["collection"] == "bookmarks":
            err("query %s (%s) expects a bookmark" % (q["id"], q["kind"]))
    if q["kind"] in ("general", "greeting") and q["expected"]:
        err("query %s (%s) must expect []" % (q["id"], q["kind"]))
    if q["kind"] in ("contest", "news", "bookmark") and not q["expected"]:
        err("query %s (%s) expects nothing" % (q["id"], q["kind"]))
    # id mentioned in the question text must be expected
    for m in re.findall(r"\b([cnb]-[0-9a-f]{16})\b", q["query"]):
        if m not in {e["id"] for e in q["expected"]}:
            err("query %s mentions %s but does not expect it" % (q["id"], m))

# ------------------------------------------------------------ time windows
def in_window(c_or_n, coll, mode, lo, hi, tags, org):
    if coll == "news":
        ok = lo <= day(c_or_n["publishedAt"]) <= hi
    else:
        s, e = day(c_or_n["startDate"]), day(c_or_n["endDate"])
        ok = {"ongoing": lambda: status_of(c_or_n) == "ONGOING",
              "overlap": lambda: s <= hi and e >= lo,
              "start": lambda: lo <= s <= hi,
              "end": lambda: lo <= e <= hi}[mode]()
    if ok and tags:
        ok = any(t in c_or_n["tags"] for t in tags)
    if ok and org:
        ok = c_or_n["sourceName"] == org
    return ok


Q = {q["id"]: q for q in queries}
for qid, (coll, mode, frm, to, tags, org, word) in WINDOWS.items():
    if qid not in Q:
        err("window question %s missing" % qid)
        continue
    q = Q[qid]
    lo = date.fromisoformat(frm) if frm else None
    hi = date.fromisoformat(to) if to else None
    if coll == "contests":
        want = {c["id"] for c in contests if in_window(c, coll, mode, lo, hi, tags, org)}
    elif coll == "news":
        want = {n["id"] for n in news if in_window(n, coll, mode, lo, hi, tags, org)}
    else:
        want = {b["id"] for b in bookmarks
                if b["userId"] == q["userId"] and b["itemType"] == "CONTEST"
                and in_window(C[b["itemId"]], "contests", mode, lo, hi, tags, org)}
    got = {e["id"] for e in q["expected"] if e["collection"] == coll}
    other = [e for e in q["expected"] if e["collection"] != coll]
    if got != want or other:
        err("window %s (%s): expected %d, recomputed %d; missing %s extra %s"
            % (qid, word, len(got), len(want), sorted(want - got), sorted(got - want) + other))
    if not want:
        err("window %s (%s) has an empty answer" % (qid, word))

# every question that uses a time word must be in WINDOWS, except item-specific
# questions where the word names a field of one item, and general questions.
TIME_WORD = re.compile(r"오늘|이번 ?주|다음 ?주|이번 ?달|다음 ?달|지난 ?달|연말|올해|작년|내년|마감|진행 ?중|[12]월|"
                       r"today|this week|next week|this year|last year|last month|next month|january|"
                       r"february|closing|deadline|ongoing|starting", re.I)
TIME_EXEMPT = {"ph-004": "deadline of one named contest", "ph-011": "마감일 of one named contest"}
for q in queries:
    if TIME_WORD.search(q["query"]) and q["kind"] not in ("general", "greeting") \
            and q["id"] not in WINDOWS and q["id"] not in TIME_EXEMPT:
        err("query %s uses a time word but has no window entry: %s" % (q["id"], q["query"]))

# ------------------------------------------------------------ coverage facts from the brief
st = Counter(c["status"] for c in contests)
nxt7 = [c for c in contests if REF <= day(c["endDate"]) <= REF + timedelta(days=6)]
jan = [c for c in contests if day(c["startDate"]).strftime("%Y-%m") == "2027-01"]
feb = [c for c in contests if day(c["startDate"]).strftime("%Y-%m") == "2027-02"]
nov = [c for c in contests if day(c["endDate"]).strftime("%Y-%m") == "2026-11"]
for label, lst in (("end in next 7 days", nxt7), ("start Jan 2027", jan),
                   ("start Feb 2027", feb), ("ended Nov 2026", nov)):
    if not lst:
        err("no contest that %s" % label)
if not 70 <= len(contests) <= 80:
    err("contest count %d" % len(contests))
if not 90 <= len(news) <= 100:
    err("news count %d" % len(news))

if errors:
    for e in errors:
        print("ERROR:", e)
    print("%d error(s)" % len(errors))
    sys.exit(1)

print("contests: %d %s | end<=7d %d, start Jan %d, start Feb %d, ended Nov %d"
      % (len(contests), dict(st), len(nxt7), len(jan), len(feb), len(nov)))
nm = Counter(day(n["publishedAt"]).strftime("%Y-%m") for n in news)
print("news: %d | 2026-11 %d, 2026-12 %d, 2025-12 %d"
      % (len(news), nm["2026-11"], nm["2026-12"], nm["2025-12"]))
print("bookmarks: %d %s" % (len(bookmarks), dict(sorted(per_user.items()))))
print("queries: %d %s | window questions checked: %d"
      % (len(queries), dict(Counter(q["kind"] for q in queries)), len(WINDOWS)))
print("OK")
