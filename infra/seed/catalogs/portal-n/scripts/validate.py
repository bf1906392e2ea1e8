#!/usr/bin/env python3
"""Validate the portal-n catalog against BRIEF.md; prints OK or the list of errors."""
import json
import os
import random
import re
import sys
from collections import Counter
from datetime import date, datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from data_bq import TIME_RULES, WINDOWS, USERS  # noqa: E402
from data_contests import CONTESTS  # noqa: E402
from data_news import NEWS  # noqa: E402
from data_bq import BOOKMARKS  # noqa: E402

CATALOG, QPREFIX = "portal-n", "pn"
KST = timezone(timedelta(hours=9))
NOW = datetime(2027, 4, 21, 12, 0, 0, tzinfo=KST)
REF = NOW.date()
errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    with open(os.path.join(OUT, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                err(f"{name}:{i}: empty line")
                continue
            rows.append(json.loads(line))
    return rows


def make_id(prefix, key):
    return f"{prefix}-{random.Random(f'{CATALOG}:{prefix}:{key}').getrandbits(64):016x}"


DT_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$")
TAG_RE = re.compile(r"^[a-z0-9]+$")
ID_RE = {p: re.compile(rf"^{p}-[0-9a-f]{{16}}$") for p in "cnb"}


def check_keys(name, rec, keys):
    if list(rec.keys()) != keys:
        err(f"{name} {rec.get('id')}: keys {list(rec.keys())} != {keys}")


def parse_dt(name, rid, s):
    if not isinstance(s, str) or not DT_RE.match(s):
        err(f"{name} {rid}: bad datetime {s!r}")
        return None
    return datetime.fromisoformat(s)


def sentences(text):
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9'\"(\uac00-\ud7a3])", text.strip()) if s]


contests = load("contests.jsonl")
news = load("news_articles.jsonl")
bookmarks = load("bookmarks.jsonl")
queries = load("queries.jsonl")

# ---------------------------------------------------------------- contests
C_KEYS = ["id", "title", "description", "startDate", "endDate", "status", "url", "sourceName", "tags"]
cby = {}
for c in contests:
    check_keys("contest", c, C_KEYS)
    cid = c.get("id", "")
    if not ID_RE["c"].match(cid):
        err(f"contest bad id {cid}")
    for f in ("title", "description", "sourceName", "url"):
        if not isinstance(c.get(f), str) or not c[f].strip():
            err(f"contest {cid}: empty {f}")
    n_sent = len(sentences(c["description"]))
    if not 2 <= n_sent <= 4:
        err(f"contest {cid}: description has {n_sent} sentences")
    if not re.match(r"^https://[a-z0-9-]+\.example/\S+$", c["url"]):
        err(f"contest {cid}: bad url {c['url']}")
    if not c["tags"] or not all(isinstance(t, str) and TAG_RE.match(t) for t in c["tags"]):
        err(f"contest {cid}: bad tags {c['tags']}")
    s = parse_dt("contest", cid, c["startDate"])
    e = parse_dt("contest", cid, c["endDate"])
    if s and e:
        if s > e:
            err(f"contest {cid}: start after end")
        if s.date() == REF or e.date() == REF:
            err(f"contest {cid}: starts/ends on the reference date (ambiguous)")
        want = "UPCOMING" if s > NOW else ("ENDED" if e < NOW else "ONGOING")
        if c["status"] != want:
            err(f"contest {cid}: status {c['status']} != {want}")
    cby[cid] = c
if len(cby) != len(contests):
    err("duplicate contest ids")
if set(cby) != {make_id("c", k[0]) for k in CONTESTS}:
    err("contest ids are not the stable ids derived from the data keys")

# ---------------------------------------------------------------- news
N_KEYS = ["id", "title", "summary", "content", "publishedAt", "url", "sourceName", "tags"]
nby = {}
for n in news:
    check_keys("news", n, N_KEYS)
    nid = n.get("id", "")
    if not ID_RE["n"].match(nid):
        err(f"news bad id {nid}")
    for f in ("title", "summary", "content", "sourceName", "url"):
        if not isinstance(n.get(f), str) or not n[f].strip():
            err(f"news {nid}: empty {f}")
    if len(sentences(n["summary"])) != 1:
        err(f"news {nid}: summary is not one sentence")
    paras = n["content"].split("\n\n")
    if not 2 <= len(paras) <= 4 or any(not p.strip() or "\n" in p for p in paras):
        err(f"news {nid}: content must be 2-4 paragraphs")
    if not re.match(r"^https://[a-z0-9-]+\.example/\S+$", n["url"]):
        err(f"news {nid}: bad url")
    if not n["tags"] or not all(isinstance(t, str) and TAG_RE.match(t) for t in n["tags"]):
        err(f"news {nid}: bad tags")
    p = parse_dt("news", nid, n["publishedAt"])
    if p and p > NOW:
        err(f"news {nid}: published after the reference date")
    if p and p.date() < REF.replace(year=REF.year - 2):
        err(f"news {nid}: older than two years")
    nby[nid] = n
if len(nby) != len(news):
    err("duplicate news ids")
if set(nby) != {make_id("n", k[0]) for k in NEWS}:
    err("news ids are not the stable ids derived from the data keys")
months = Counter(n["publishedAt"][:7] for n in news)
if months["2027-03"] < 12:
    err(f"only {months['2027-03']} articles in the last calendar month")
if months["2027-04"] < 12:
    err(f"only {months['2027-04']} articles in the reference month")
last7 = [n for n in news if REF - timedelta(days=6) <= date.fromisoformat(n["publishedAt"][:10]) <= REF]
if not last7:
    err("no articles in the last 7 days")
years_q = Counter((n["publishedAt"][:4], (int(n["publishedAt"][5:7]) - 1) // 3) for n in news)
if len(years_q) < 7:
    err("news not spread over two years")

# ---------------------------------------------------------------- bookmarks
B_KEYS = ["id", "userId", "itemType", "itemId", "itemTitle", "itemSummary", "tag", "memo"]
bby = {}
for b in bookmarks:
    check_keys("bookmark", b, B_KEYS)
    bid = b.get("id", "")
    if not ID_RE["b"].match(bid):
        err(f"bookmark bad id {bid}")
    if b["userId"] not in USERS:
        err(f"bookmark {bid}: unknown user {b['userId']}")
    if b["itemType"] == "CONTEST":
        item = cby.get(b["itemId"])
    elif b["itemType"] == "NEWS_ARTICLE":
        item = nby.get(b["itemId"])
    else:
        item = None
        err(f"bookmark {bid}: bad itemType")
    if item is None:
        err(f"bookmark {bid}: item {b['itemId']} not found for {b['itemType']}")
    elif item["title"] != b["itemTitle"]:
        err(f"bookmark {bid}: itemTitle mismatch")
    if not TAG_RE.match(b["tag"]):
        err(f"bookmark {bid}: bad tag")
    if len(sentences(b["itemSummary"])) != 1:
        err(f"bookmark {bid}: itemSummary not one sentence")
    if not b["memo"].strip():
        err(f"bookmark {bid}: empty memo")
    bby[bid] = b
if len(bby) != len(bookmarks):
    err("duplicate bookmark ids")
if set(bby) != {make_id("b", k[0]) for k in BOOKMARKS}:
    err("bookmark ids are not the stable ids derived from the data keys")
per_user = Counter(b["userId"] for b in bookmarks)
for u in USERS:
    if per_user[u] != 9:
        err(f"user {u} has {per_user[u]} bookmarks")
    types = {b["itemType"] for b in bookmarks if b["userId"] == u}
    if types != {"CONTEST", "NEWS_ARTICLE"}:
        err(f"user {u}: bookmarks are not a mix of contests and articles")
if len(set(cby) & set(nby) & set(bby)):
    err("id collision across collections")

# ---------------------------------------------------------------- queries
Q_KEYS = ["id", "userId", "query", "options", "expected", "kind"]
COLL = {"contests": cby, "news_articles": nby, "bookmarks": bby}
OPT = {"contests": "includeContests", "news_articles": "includeNews", "bookmarks": "includeBookmarks"}
TIME_WORDS = ["오늘", "이번 주", "이번주", "다음 주", "다음주", "이번 달", "이번달", "다음 달", "다음달",
              "지난달", "지난 달", "올해", "작년", "마감 임박", "최근", "today", "this week", "next week",
              "this month", "next month", "last month", "this year", "last year", "closing soon",
              "lately", "recent", "january", "february", "march", "april", "may ", "june", "july",
              "august", "september", "october", "november", "december"]
qids = set()
kinds = Counter()
for q in queries:
    check_keys("query", q, Q_KEYS)
    qid = q["id"]
    m = re.match(rf"^{QPREFIX}-(\d{{3}})$", qid)
    if not m:
        err(f"query bad id {qid}")
        continue
    if qid in qids:
        err(f"duplicate query id {qid}")
    qids.add(qid)
    num = int(m.group(1))
    if q["userId"] not in USERS:
        err(f"{qid}: unknown user")
    if not isinstance(q["query"], str) or not q["query"].strip():
        err(f"{qid}: empty query")
    o = q["options"]
    if list(o.keys()) != ["includeContests", "includeNews", "includeBookmarks"] or \
            not all(isinstance(v, bool) for v in o.values()):
        err(f"{qid}: bad options {o}")
    kind = q["kind"]
    kinds[kind] += 1
    if kind not in ("contest", "news", "bookmark", "general", "greeting"):
        err(f"{qid}: bad kind")
    exp = q["expected"]
    if kind in ("general", "greeting"):
        if exp != []:
            err(f"{qid}: {kind} must have empty expected")
    elif not exp:
        err(f"{qid}: empty expected for {kind}")
    if kind == "bookmark" and not o["includeBookmarks"]:
        err(f"{qid}: bookmark question without includeBookmarks")
    seen = set()
    for e in exp:
        if list(e.keys()) != ["collection", "id"] or e["collection"] not in COLL:
            err(f"{qid}: bad expected entry {e}")
            continue
        if e["id"] in seen:
            err(f"{qid}: duplicate expected {e['id']}")
        seen.add(e["id"])
        if e["id"] not in COLL[e["collection"]]:
            err(f"{qid}: expected {e['id']} not in {e['collection']}")
            continue
        if not o[OPT[e["collection"]]]:
            err(f"{qid}: expects {e['collection']} but option is off")
        if e["collection"] == "bookmarks":
            if kind != "bookmark":
                err(f"{qid}: bookmark expected in non-bookmark question")
            if bby[e["id"]]["userId"] != q["userId"]:
                err(f"{qid}: expects another user's bookmark")
    if kind == "bookmark" and any(e["collection"] != "bookmarks" for e in exp):
        err(f"{qid}: bookmark question expects non-bookmark items")
    if kind == "contest" and not any(e["collection"] == "contests" for e in exp):
        err(f"{qid}: contest question without a contest")
    if kind == "news" and any(e["collection"] != "news_articles" for e in exp):
        err(f"{qid}: news question expects non-news items")

    # time-word questions: recompute the expected set from the data
    low = q["query"].lower()
    has_tw = any(w in low for w in TIME_WORDS) or re.search(r"\d+월", q["query"])
    if num in TIME_RULES:
        rule = TIME_RULES[num]
        ws, we = (date.fromisoformat(x) for x in WINDOWS[rule["window"]])
        want = set()
        for item in (contests if rule["collection"] == "contests" else news):
            if rule["tag"] and rule["tag"] not in item["tags"]:
                continue
            if rule["collection"] == "contests":
                sd, ed = date.fromisoformat(item["startDate"][:10]), date.fromisoformat(item["endDate"][:10])
                ok = ws <= ed <= we if rule["mode"] == "deadline" else (sd <= we and ed >= ws)
            else:
                ok = ws <= date.fromisoformat(item["publishedAt"][:10]) <= we
            if ok:
                want.add((rule["collection"], item["id"]))
        got = {(e["collection"], e["id"]) for e in exp}
        if got != want:
            err(f"{qid}: time-word expected {len(got)} != recomputed {len(want)}")
        if not 1 <= len(want) <= 5:
            err(f"{qid}: time window selects {len(want)} items (must be 1-5)")
        if not has_tw:
            err(f"{qid}: time rule but no time word in query")
    elif has_tw:
        err(f"{qid}: time word in query without a time rule: {q['query']}")
if len(TIME_RULES) > 8:
    err("more than 8 time-word questions")

# ---------------------------------------------------------------- counts
def rng(name, n, lo, hi):
    if not lo <= n <= hi:
        err(f"{name} count {n} not in {lo}-{hi}")


rng("contests", len(contests), 75, 80)
rng("news", len(news), 90, 95)
rng("bookmarks", len(bookmarks), 27, 27)
rng("questions", len(queries), 100, 105)
rng("contest questions", kinds["contest"], 31, 37)
rng("news questions", kinds["news"], 25, 31)
rng("bookmark questions", kinds["bookmark"], 9, 11)
rng("general questions", kinds["general"], 22, 26)
rng("greeting questions", kinds["greeting"], 5, 6)
st = Counter(c["status"] for c in contests)
if not 0.4 <= st["ENDED"] / len(contests) <= 0.6 or not st["ONGOING"] or not st["UPCOMING"]:
    err(f"status mix off: {dict(st)}")
hangul = sum(1 for q in queries if re.search("[\uac00-\ud7a3]", q["query"]))
if not 0.35 <= hangul / len(queries) <= 0.65:
    err(f"language mix off: {hangul} Korean of {len(queries)}")

if errors:
    for e in errors:
        print("ERROR:", e)
    sys.exit(1)
print(f"contests={len(contests)} {dict(st)} news={len(news)} bookmarks={len(bookmarks)} "
      f"questions={len(queries)} {dict(kinds)}")
print("OK")
