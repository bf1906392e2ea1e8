#!/usr/bin/env python3
"""Validate the portal-m catalog against the brief. Prints OK when every check passes."""
import json
import os
import re
import sys
from collections import Counter
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from data_news import NEWS, PAIRS  # noqa: E402  (for the KR/EN pair list)
from data_user import QUERIES  # noqa: E402      (for the labelling rules of each question)

KST = timezone(timedelta(hours=9))
NOW = datetime(2026, 12, 3, 12, 0, 0, tzinfo=KST)
USERS = {"9501", "9502", "9503"}
QPREFIX = "pm"
HANGUL = re.compile(r"[\uac00-\ud7a3]")
DT_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$")
TAG_RE = re.compile(r"^[a-z]+$")
URL_RE = re.compile(r"^https://[a-z0-9.-]+\.example/\S*$")
SENT_RE = re.compile(r"[.!?](?=\s|$)")
TIME_WORDS = re.compile(
    r"(오늘|이번\s?주|다음\s?주|이번\s?달|다음\s?달|지난\s?달|올해|작년|마감\s?임박|\d+\s?월|"
    r"\btoday\b|this week|next week|this month|next month|last month|this year|last year|closing soon|"
    r"\bin (january|february|march|april|may|june|july|august|september|october|november|december)\b)",
    re.I)

errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                err(f"{name}:{n}: bad JSON {e}")
    return rows


def pdt(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S+09:00").replace(tzinfo=KST)


def day(s, end=False):
    d = datetime.strptime(s, "%Y-%m-%d").replace(tzinfo=KST)
    return d + timedelta(hours=23, minutes=59, seconds=59) if end else d


def sentences(text):
    return len(SENT_RE.findall(text.strip()))


def check_keys(name, row, spec):
    if set(row) != set(spec):
        err(f"{name} {row.get('id')}: keys {sorted(row)} != {sorted(spec)}")
        return False
    for k, t in spec.items():
        if not isinstance(row[k], t):
            err(f"{name} {row.get('id')}: field {k} has type {type(row[k]).__name__}")
            return False
    return True


def main():
    contests = load("contests.jsonl")
    news = load("news_articles.jsonl")
    bookmarks = load("bookmarks.jsonl")
    queries = load("queries.jsonl")

    # ---------- ids ----------
    all_ids = [r.get("id") for r in contests + news + bookmarks + queries]
    for i, c in Counter(all_ids).items():
        if c > 1:
            err(f"duplicate id {i}")

    # ---------- contests ----------
    cspec = {"id": str, "title": str, "description": str, "startDate": str, "endDate": str,
             "status": str, "url": str, "sourceName": str, "tags": list}
    cmap = {}
    for r in contests:
        if not check_keys("contest", r, cspec):
            continue
        cmap[r["id"]] = r
        if not re.fullmatch(r"c-[0-9a-f]{16}", r["id"]):
            err(f"contest id {r['id']}")
        for k in ("startDate", "endDate"):
            if not DT_RE.match(r[k]):
                err(f"contest {r['id']} {k} format {r[k]}")
        s, e = pdt(r["startDate"]), pdt(r["endDate"])
        if s > e:
            err(f"contest {r['id']} start after end")
        want = "UPCOMING" if s > NOW else ("ENDED" if e < NOW else "ONGOING")
        if r["status"] != want:
            err(f"contest {r['id']} status {r['status']} != {want}")
        if not URL_RE.match(r["url"]):
            err(f"contest {r['id']} url {r['url']}")
        if not r["title"].strip() or not r["sourceName"].strip():
            err(f"contest {r['id']} empty title/source")
        if not r["tags"] or not all(isinstance(t, str) and TAG_RE.match(t) for t in r["tags"]):
            err(f"contest {r['id']} tags {r['tags']}")
        n = sentences(r["description"])
        if not 2 <= n <= 4:
            err(f"contest {r['id']} description has {n} sentences")
    if not 75 <= len(contests) <= 80:
        err(f"contest count {len(contests)}")
    st = Counter(r["status"] for r in contests)
    if not 0.4 <= st["ENDED"] / max(1, len(contests)) <= 0.6 or st["ONGOING"] == 0 or st["UPCOMING"] == 0:
        err(f"status mix {dict(st)}")

    # ---------- news ----------
    nspec = {"id": str, "title": str, "summary": str, "content": str, "publishedAt": str,
             "url": str, "sourceName": str, "tags": list}
    nmap = {}
    for r in news:
        if not check_keys("news", r, nspec):
            continue
        nmap[r["id"]] = r
        if not re.fullmatch(r"n-[0-9a-f]{16}", r["id"]):
            err(f"news id {r['id']}")
        if not DT_RE.match(r["publishedAt"]):
            err(f"news {r['id']} publishedAt format")
            continue
        p = pdt(r["publishedAt"])
        if p > NOW:
            err(f"news {r['id']} published after reference date")
        if p < NOW - timedelta(days=731):
            err(f"news {r['id']} older than two years")
        if not URL_RE.match(r["url"]):
            err(f"news {r['id']} url {r['url']}")
        if sentences(r["summary"]) != 1:
            err(f"news {r['id']} summary not one sentence")
        paras = r["content"].split("\n\n")
        if not 2 <= len(paras) <= 4 or any(not x.strip() for x in paras):
            err(f"news {r['id']} content has {len(paras)} paragraphs")
        if not r["tags"] or not all(isinstance(t, str) and TAG_RE.match(t) for t in r["tags"]):
            err(f"news {r['id']} tags {r['tags']}")
    if not 90 <= len(news) <= 95:
        err(f"news count {len(news)}")
    pubs = [pdt(r["publishedAt"]) for r in news]
    last_month = sum(1 for p in pubs if (p.year, p.month) == (2026, 11))
    if last_month < 12:
        err(f"only {last_month} articles in the last calendar month")
    if NOW.day > 10 and sum(1 for p in pubs if (p.year, p.month) == (NOW.year, NOW.month)) < 12:
        err("fewer than 12 articles in the reference month")
    if not any(NOW - timedelta(days=7) <= p <= NOW for p in pubs):
        err("no article in the last 7 days")
    quarters = Counter((p.year, (p.month - 1) // 3) for p in pubs)
    if len(quarters) < 8:
        err(f"news not spread over two years: {sorted(quarters)}")

    # ---------- KR/EN pairs ----------
    import generate  # same id function as the generator
    if len(PAIRS) < 8:
        err("fewer than 8 KR/EN pairs")
    for kk, ek in PAIRS:
        a, b = nmap.get(generate.make_id("n", kk)), nmap.get(generate.make_id("n", ek))
        if not a or not b:
            err(f"pair {kk}/{ek} missing")
            continue
        if not HANGUL.search(a["title"]) or HANGUL.search(b["title"]) or a["sourceName"] == b["sourceName"]:
            err(f"pair {kk}/{ek} is not a Korean/English pair from two outlets")
    if len(NEWS) != len(news):
        err("news data/file mismatch")

    # ---------- bookmarks ----------
    bspec = {"id": str, "userId": str, "itemType": str, "itemId": str, "itemTitle": str,
             "itemSummary": str, "tag": str, "memo": str}
    bmap = {}
    per_user = Counter()
    types = {}
    for r in bookmarks:
        if not check_keys("bookmark", r, bspec):
            continue
        bmap[r["id"]] = r
        if not re.fullmatch(r"b-[0-9a-f]{16}", r["id"]):
            err(f"bookmark id {r['id']}")
        if r["userId"] not in USERS:
            err(f"bookmark {r['id']} user {r['userId']}")
        per_user[r["userId"]] += 1
        types.setdefault(r["userId"], set()).add(r["itemType"])
        src = {"CONTEST": cmap, "NEWS_ARTICLE": nmap}.get(r["itemType"])
        if src is None:
            err(f"bookmark {r['id']} itemType {r['itemType']}")
        elif r["itemId"] not in src:
            err(f"bookmark {r['id']} itemId {r['itemId']} not found as {r['itemType']}")
        elif src[r["itemId"]]["title"] != r["itemTitle"]:
            err(f"bookmark {r['id']} itemTitle mismatch")
        if not TAG_RE.match(r["tag"]):
            err(f"bookmark {r['id']} tag {r['tag']}")
        if sentences(r["itemSummary"]) != 1 or not r["memo"].strip():
            err(f"bookmark {r['id']} summary/memo")
    if len(bookmarks) != 27 or any(per_user[u] != 9 for u in USERS):
        err(f"bookmark counts {dict(per_user)}")
    for u in USERS:
        if types.get(u) != {"CONTEST", "NEWS_ARTICLE"}:
            err(f"user {u} bookmarks are not a mix of contests and articles")

    # ---------- queries ----------
    qspec = {"id": str, "userId": str, "query": str, "options": dict, "expected": list, "kind": str}
    rules = {q[1]: q[5] for q in QUERIES}
    colls = {"contests": cmap, "news_articles": nmap, "bookmarks": bmap}
    optkey = {"contests": "includeContests", "news_articles": "includeNews", "bookmarks": "includeBookmarks"}
    kinds = Counter()
    n_time = 0
    n_hangul = 0
    texts = Counter(q.get("query") for q in queries)
    for t, c in texts.items():
        if c > 1:
            err(f"duplicate query text {t}")
    for i, q in enumerate(queries, 1):
        if not check_keys("query", q, qspec):
            continue
        qid = q["id"]
        if qid != f"{QPREFIX}-{i:03d}":
            err(f"query id {qid} out of sequence")
        if q["userId"] not in USERS:
            err(f"{qid} user {q['userId']}")
        o = q["options"]
        if set(o) != set(optkey.values()) or not all(isinstance(v, bool) for v in o.values()):
            err(f"{qid} options {o}")
            continue
        kind = q["kind"]
        kinds[kind] += 1
        if HANGUL.search(q["query"]):
            n_hangul += 1
        if kind not in ("contest", "news", "bookmark", "general", "greeting"):
            err(f"{qid} kind {kind}")
        if kind in ("general", "greeting"):
            if q["expected"]:
                err(f"{qid} {kind} must have empty expected")
        elif not q["expected"]:
            err(f"{qid} has empty expected")
        if kind == "bookmark" and not o["includeBookmarks"]:
            err(f"{qid} bookmark question without includeBookmarks")
        got = set()
        for e in q["expected"]:
            if not isinstance(e, dict) or set(e) != {"collection", "id"}:
                err(f"{qid} bad expected entry {e}")
                continue
            c = e["collection"]
            if c not in colls or e["id"] not in colls[c]:
                err(f"{qid} expected {e} not found")
                continue
            if not o[optkey[c]]:
                err(f"{qid} expects {c} but {optkey[c]} is false")
            if c == "bookmarks":
                if colls[c][e["id"]]["userId"] != q["userId"]:
                    err(f"{qid} expects another user's bookmark")
                if kind != "bookmark":
                    err(f"{qid} expects bookmarks but is not a bookmark question")
            if (c, e["id"]) in got:
                err(f"{qid} duplicate expected {e}")
            got.add((c, e["id"]))

        # rule-based recomputation
        rule = rules.get(q["query"], "missing")
        if rule == "missing":
            err(f"{qid} not found in data")
            continue
        has_time_word = bool(TIME_WORDS.search(q["query"]))
        is_time_rule = bool(rule) and rule[0] in ("deadline", "overlap", "published")
        if has_time_word != is_time_rule:
            err(f"{qid} time word / time rule mismatch: {q['query']}")
        if not rule:
            continue
        want = set()
        if rule[0] in ("deadline", "overlap"):
            n_time += 1
            lo, hi, tag = day(rule[1]), day(rule[2], end=True), rule[3]
            for r in contests:
                s, e = pdt(r["startDate"]), pdt(r["endDate"])
                hit = lo <= e <= hi if rule[0] == "deadline" else (s <= hi and e >= lo)
                if hit and (tag is None or tag in r["tags"]):
                    want.add(("contests", r["id"]))
        elif rule[0] == "published":
            n_time += 1
            lo, hi, tag = day(rule[1]), min(day(rule[2], end=True), NOW), rule[3]
            for r in news:
                if lo <= pdt(r["publishedAt"]) <= hi and (tag is None or tag in r["tags"]):
                    want.add(("news_articles", r["id"]))
        elif rule[0] == "topic":
            coll, words = rule[1], [w.lower() for w in rule[2]]
            for r in (contests if coll == "contests" else news):
                blob = " ".join([r["title"], r.get("description", ""), r.get("summary", ""),
                                 r.get("content", ""), " ".join(r["tags"])]).lower()
                if any(w in blob for w in words):
                    want.add((coll, r["id"]))
        elif rule[0] == "bm":
            tag, itype = rule[1], rule[2]
            for r in bookmarks:
                if r["userId"] == q["userId"] and (tag is None or r["tag"] == tag) \
                        and (itype is None or r["itemType"] == itype):
                    want.add(("bookmarks", r["id"]))
        else:
            err(f"{qid} unknown rule {rule}")
        if rule[0] in ("deadline", "overlap", "published") and not 1 <= len(want) <= 5:
            err(f"{qid} time window selects {len(want)} items (must be 1-5)")
        if want != got:
            err(f"{qid} expected differs from rule {rule}: missing {want - got}, extra {got - want}")

    if not 100 <= len(queries) <= 105:
        err(f"query count {len(queries)}")
    bounds = {"contest": (30, 38), "news": (24, 32), "bookmark": (9, 11), "general": (22, 26), "greeting": (5, 6)}
    for k, (lo, hi) in bounds.items():
        if not lo <= kinds[k] <= hi:
            err(f"{k} questions: {kinds[k]} not in {lo}-{hi}")
    if n_time > 8:
        err(f"{n_time} time-word questions (max 8)")
    share = n_hangul / max(1, len(queries))
    if not 0.4 <= share <= 0.6:
        err(f"Korean share of questions {share:.2f}")

    if errors:
        for e in errors:
            print("ERROR:", e)
        print(f"{len(errors)} error(s)")
        sys.exit(1)
    print(f"contests={len(contests)} {dict(st)} news={len(news)} (Nov 2026: {last_month}) "
          f"bookmarks={len(bookmarks)} queries={len(queries)} {dict(kinds)} time-questions={n_time} "
          f"korean={n_hangul}")
    print("OK")


if __name__ == "__main__":
    main()
