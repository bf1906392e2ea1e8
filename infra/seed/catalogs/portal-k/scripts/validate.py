#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Validate the four portal-k JSONL files (stdlib only). Prints OK on success.

Checks: schema and types, id formats and uniqueness, counts and mixes, status
as of the reference date, bookmark items, expected ids, options per kind, and
recomputes the expected set of every time-word question from the generated data
using the date windows documented in README.md.

Run from the portal-k folder:  python3 scripts/validate.py
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

REF = dt.date(2026, 11, 22)          # Sunday, Asia/Seoul
USERS = ("9301", "9302", "9303")
PREFIX = "pk"
ERRORS = []


def err(msg):
    ERRORS.append(msg)


def load(name):
    rows = []
    path = os.path.join(ROOT, name)
    with open(path, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                err("%s:%d empty line" % (name, ln))
                continue
            try:
                obj = json.loads(line)
            except ValueError as e:
                err("%s:%d bad json: %s" % (name, ln, e))
                continue
            if not isinstance(obj, dict):
                err("%s:%d not an object" % (name, ln))
                continue
            rows.append(obj)
    return rows


ISO_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$")
URL_RE = re.compile(r"^https://[a-z0-9-]+(\.[a-z0-9-]+)*\.example/\S*$")
HANGUL_RE = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")
LATIN_RE = re.compile(r"[A-Za-z]")


def day(s):
    return dt.datetime.strptime(s[:10], "%Y-%m-%d").date()


def check_keys(name, row, keys):
    if set(row) != set(keys):
        err("%s %s: keys %s != %s" % (name, row.get("id"), sorted(row), sorted(keys)))
        return False
    return True


def nonempty_str(name, row, *fields):
    for f in fields:
        if not isinstance(row.get(f), str) or not row.get(f).strip():
            err("%s %s: field %s must be a non-empty string" % (name, row.get("id"), f))


def sentences(text):
    # sentence ends: . ! ? followed by whitespace or end (not decimals like 0.5)
    return len(re.findall(r"[.!?](?=\s|$)", text.strip()))


def script_of(text):
    h, l = bool(HANGUL_RE.search(text)), bool(LATIN_RE.search(text))
    return "mixed" if h and l else ("ko" if h else "en")


# ----------------------------------------------------------------- windows
def month_window(y, m):
    start = dt.date(y, m, 1)
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return start, nxt - dt.timedelta(days=1)


def window(name):
    monday = REF - dt.timedelta(days=REF.weekday())
    if name == "today":
        return REF, REF
    if name == "this_week":
        return monday, monday + dt.timedelta(days=6)
    if name == "next_week":
        return monday + dt.timedelta(days=7), monday + dt.timedelta(days=13)
    if name == "this_month":
        return month_window(REF.year, REF.month)
    if name == "next_month":
        y, m = (REF.year + 1, 1) if REF.month == 12 else (REF.year, REF.month + 1)
        return month_window(y, m)
    if name == "last_month":
        y, m = (REF.year - 1, 12) if REF.month == 1 else (REF.year, REF.month - 1)
        return month_window(y, m)
    if name == "this_year":
        return dt.date(REF.year, 1, 1), dt.date(REF.year, 12, 31)
    if name == "last_year":
        return dt.date(REF.year - 1, 1, 1), dt.date(REF.year - 1, 12, 31)
    if name == "next_year":
        return dt.date(REF.year + 1, 1, 1), dt.date(REF.year + 1, 12, 31)
    m = re.match(r"^month:(\d{4})-(\d{2})$", name)
    if m:
        return month_window(int(m.group(1)), int(m.group(2)))
    raise ValueError("unknown window %r" % name)


TIME_WORDS = [
    "오늘", "이번 주", "이번주", "다음 주", "다음주", "이번 달", "이번달", "다음 달", "다음달",
    "지난달", "지난 달", "올해", "작년", "내년", "연말", "마감 임박", "마감임박",
    "today", "this week", "next week", "this month", "next month", "last month",
    "this year", "last year", "next year", "in december", "closing soon",
]
MONTH_RE = re.compile(r"\d{1,2}\s*월")


def has_time_word(text):
    t = text.lower()
    return any(w in t for w in TIME_WORDS) or bool(MONTH_RE.search(text))


def recompute(spec, contests, news):
    tags = set(spec.get("tags", []))
    out = set()
    if spec["coll"] == "contests":
        for c in contests:
            if not tags <= set(c["tags"]):
                continue
            s, e = day(c["startDate"]), day(c["endDate"])
            mode = spec["mode"]
            if mode == "closing":
                ok = c["status"] == "ONGOING" and REF <= e <= REF + dt.timedelta(days=7)
            else:
                w0, w1 = window(spec["window"])
                if mode == "start":
                    ok = w0 <= s <= w1
                elif mode == "end":
                    ok = w0 <= e <= w1
                elif mode == "active":
                    ok = s <= w1 and e >= w0
                else:
                    raise ValueError(mode)
            if ok:
                out.add(("contests", c["id"]))
    elif spec["coll"] == "news_articles":
        w0, w1 = window(spec["window"])
        for n in news:
            if tags <= set(n["tags"]) and w0 <= day(n["publishedAt"]) <= w1:
                out.add(("news_articles", n["id"]))
    else:
        raise ValueError(spec["coll"])
    return out


# ----------------------------------------------------------------- main
def main():
    contests = load("contests.jsonl")
    news = load("news_articles.jsonl")
    bookmarks = load("bookmarks.jsonl")
    queries = load("queries.jsonl")

    all_ids = Counter()

    # ---------------- contests
    ckeys = ["id", "title", "description", "startDate", "endDate", "status", "url", "sourceName", "tags"]
    if not 75 <= len(contests) <= 80:
        err("contests: %d rows, want 75-80" % len(contests))
    st = Counter()
    closing, next_month_start = 0, 0
    nm0, nm1 = window("next_month")
    for c in contests:
        if not check_keys("contest", c, ckeys):
            continue
        all_ids[c["id"]] += 1
        if not re.match(r"^c-[0-9a-f]{16}$", c["id"]):
            err("contest id format %s" % c["id"])
        nonempty_str("contest", c, "title", "description", "sourceName")
        for f in ("startDate", "endDate"):
            if not ISO_RE.match(c[f]):
                err("contest %s bad %s %s" % (c["id"], f, c[f]))
        s, e = day(c["startDate"]), day(c["endDate"])
        if c["startDate"] > c["endDate"]:
            err("contest %s starts after it ends" % c["id"])
        want = "ENDED" if e < REF else ("UPCOMING" if s > REF else "ONGOING")
        if c["status"] != want:
            err("contest %s status %s, want %s" % (c["id"], c["status"], want))
        st[c["status"]] += 1
        if c["status"] == "ONGOING" and e <= REF + dt.timedelta(days=7):
            closing += 1
        if nm0 <= s <= nm1:
            next_month_start += 1
        if not URL_RE.match(c["url"]):
            err("contest %s bad url %s" % (c["id"], c["url"]))
        if not (isinstance(c["tags"], list) and c["tags"] and
                all(isinstance(t, str) and t == t.lower() and t.strip() for t in c["tags"])):
            err("contest %s bad tags" % c["id"])
        n_sent = sentences(c["description"])
        if not 2 <= n_sent <= 4:
            err("contest %s description has %d sentences" % (c["id"], n_sent))
    if len(contests):
        if not 0.40 <= st["ENDED"] / len(contests) <= 0.60:
            err("contests: ENDED share %d/%d not about half" % (st["ENDED"], len(contests)))
        if st["ONGOING"] < 10 or st["UPCOMING"] < 10:
            err("contests: need both ONGOING and UPCOMING (%s)" % dict(st))
    if closing < 4:
        err("contests: only %d ongoing contests end within a week" % closing)
    if next_month_start < 4:
        err("contests: only %d contests start next month" % next_month_start)

    # ---------------- news
    nkeys = ["id", "title", "summary", "content", "publishedAt", "url", "sourceName", "tags"]
    if not 90 <= len(news) <= 95:
        err("news: %d rows, want 90-95" % len(news))
    oldest = dt.date(REF.year - 2, REF.month, REF.day)
    per_month = Counter()
    for n in news:
        if not check_keys("news", n, nkeys):
            continue
        all_ids[n["id"]] += 1
        if not re.match(r"^n-[0-9a-f]{16}$", n["id"]):
            err("news id format %s" % n["id"])
        nonempty_str("news", n, "title", "summary", "content", "sourceName")
        if not ISO_RE.match(n["publishedAt"]):
            err("news %s bad publishedAt" % n["id"])
            continue
        d = day(n["publishedAt"])
        if not oldest <= d <= REF:
            err("news %s published %s outside the two years before the reference date" % (n["id"], d))
        per_month[d.strftime("%Y-%m")] += 1
        if not URL_RE.match(n["url"]):
            err("news %s bad url" % n["id"])
        paras = n["content"].split("\n\n")
        if len(paras) != 3 or not all(p.strip() for p in paras):
            err("news %s content must have 3 paragraphs" % n["id"])
        if sentences(n["summary"]) != 1:
            err("news %s summary must be one sentence" % n["id"])
        if not (isinstance(n["tags"], list) and n["tags"] and
                all(isinstance(t, str) and t == t.lower() for t in n["tags"])):
            err("news %s bad tags" % n["id"])
    for mth in ("2026-10", "2026-11"):
        if not 12 <= per_month[mth] <= 18:
            err("news: %d articles in %s, want about 15" % (per_month[mth], mth))
    if len([m for m in per_month if m < "2026-10"]) < 18:
        err("news: older articles are not spread over the two years")

    # ---------------- bookmarks
    bkeys = ["id", "userId", "itemType", "itemId", "itemTitle", "itemSummary", "tag", "memo"]
    cmap = {c["id"]: c for c in contests}
    nmap = {n["id"]: n for n in news}
    bmap = {}
    if len(bookmarks) != 27:
        err("bookmarks: %d rows, want 27" % len(bookmarks))
    per_user = Counter()
    for b in bookmarks:
        if not check_keys("bookmark", b, bkeys):
            continue
        all_ids[b["id"]] += 1
        bmap[b["id"]] = b
        if not re.match(r"^b-[0-9a-f]{16}$", b["id"]):
            err("bookmark id format %s" % b["id"])
        nonempty_str("bookmark", b, "itemTitle", "itemSummary", "tag", "memo")
        per_user[b["userId"]] += 1
        if b["userId"] not in USERS:
            err("bookmark %s unknown user %s" % (b["id"], b["userId"]))
        if b["itemType"] == "CONTEST":
            item = cmap.get(b["itemId"])
        elif b["itemType"] == "NEWS_ARTICLE":
            item = nmap.get(b["itemId"])
        else:
            err("bookmark %s bad itemType %s" % (b["id"], b["itemType"]))
            continue
        if item is None:
            err("bookmark %s item %s does not exist as %s" % (b["id"], b["itemId"], b["itemType"]))
        elif item["title"] != b["itemTitle"]:
            err("bookmark %s itemTitle differs from the item's title" % b["id"])
        if re.search(r"\s", b["tag"]):
            err("bookmark %s tag must be one word" % b["id"])
        if sentences(b["itemSummary"]) != 1:
            err("bookmark %s itemSummary must be one sentence" % b["id"])
    for u in USERS:
        if per_user[u] != 9:
            err("bookmarks: user %s has %d, want 9" % (u, per_user[u]))
    seen_items = Counter((b["userId"], b["itemId"]) for b in bookmarks)
    for k, v in seen_items.items():
        if v > 1:
            err("bookmarks: user %s bookmarked %s twice" % k)

    # ---------------- queries
    qkeys = ["id", "userId", "query", "options", "expected", "kind"]
    if not 100 <= len(queries) <= 104:
        err("queries: %d rows, want 100-104" % len(queries))
    from queries_data import Q  # source specs, same order as queries.jsonl
    if len(Q) != len(queries):
        err("queries: source has %d entries, file has %d" % (len(Q), len(queries)))
    kinds = Counter()
    hangul = 0
    time_checked = 0
    colls = {"contests": cmap, "news_articles": nmap, "bookmarks": bmap}
    for i, x in enumerate(queries):
        if not check_keys("query", x, qkeys):
            continue
        qid = x["id"]
        all_ids[qid] += 1
        if qid != "%s-%03d" % (PREFIX, i + 1):
            err("query id %s out of sequence" % qid)
        if x["userId"] not in USERS:
            err("query %s unknown user" % qid)
        if "{id:" in x["query"] or not x["query"].strip():
            err("query %s has unresolved text" % qid)
        kind = x["kind"]
        kinds[kind] += 1
        if HANGUL_RE.search(x["query"]):
            hangul += 1
        o = x["options"]
        if set(o) != {"includeContests", "includeNews", "includeBookmarks"} or \
                not all(isinstance(v, bool) for v in o.values()):
            err("query %s bad options" % qid)
            continue
        if kind in ("contest", "news"):
            if (o["includeContests"], o["includeNews"], o["includeBookmarks"]) != (True, True, False):
                err("query %s: contest/news options must be true/true/false" % qid)
        elif kind == "bookmark":
            if (o["includeContests"], o["includeNews"], o["includeBookmarks"]) != (False, False, True):
                err("query %s: bookmark options must be false/false/true" % qid)
        elif kind not in ("general", "greeting"):
            err("query %s bad kind %s" % (qid, kind))
        exp = x["expected"]
        if not isinstance(exp, list):
            err("query %s expected must be a list" % qid)
            continue
        pairs = set()
        for e in exp:
            if set(e) != {"collection", "id"} or e["collection"] not in colls:
                err("query %s bad expected entry %s" % (qid, e))
                continue
            if e["id"] not in colls[e["collection"]]:
                err("query %s expected id %s not in %s" % (qid, e["id"], e["collection"]))
            pairs.add((e["collection"], e["id"]))
        if len(pairs) != len(exp):
            err("query %s has duplicate expected entries" % qid)
        if kind in ("general", "greeting") and exp:
            err("query %s: %s questions expect []" % (qid, kind))
        if kind in ("contest", "news"):
            if not exp:
                err("query %s: no expected items" % qid)
            if any(c == "bookmarks" for c, _ in pairs):
                err("query %s: contest/news question expects a bookmark" % qid)
            if kind == "contest" and not any(c == "contests" for c, _ in pairs):
                err("query %s: contest question without a contest" % qid)
            if kind == "news" and not any(c == "news_articles" for c, _ in pairs):
                err("query %s: news question without an article" % qid)
        if kind == "bookmark":
            if not exp:
                err("query %s: no expected bookmarks" % qid)
            for c, bid_ in pairs:
                if c != "bookmarks":
                    err("query %s: bookmark question expects %s" % (qid, c))
                elif bid_ in bmap and bmap[bid_]["userId"] != x["userId"]:
                    err("query %s: expects another user's bookmark %s" % (qid, bid_))
        # time words
        spec = Q[i]["time"] if i < len(Q) else None
        if kind in ("contest", "news") and has_time_word(x["query"]) and spec is None:
            err("query %s has a time word but no time spec" % qid)
        if spec is not None:
            got = recompute(spec, contests, news)
            if got != pairs:
                missing = sorted(got - pairs)
                extra = sorted(pairs - got)
                err("query %s time-word set mismatch: missing %s extra %s" % (qid, missing, extra))
            time_checked += 1

    want = {"contest": (30, 36), "news": (25, 31), "bookmark": (10, 10),
            "general": (23, 29), "greeting": (5, 7)}
    for k, (lo, hi) in want.items():
        if not lo <= kinds[k] <= hi:
            err("queries: %d %s questions, want %d-%d" % (kinds[k], k, lo, hi))
    share = hangul / max(1, len(queries))
    if not 0.64 <= share <= 0.76:
        err("queries: Hangul share %.2f, want about 0.70" % share)
    per_user_q = Counter(x["userId"] for x in queries)
    for u in USERS:
        if per_user_q[u] < 25:
            err("queries: user %s has only %d questions" % (u, per_user_q[u]))

    # ---------------- titles' scripts
    scripts = Counter(script_of(r["title"]) for r in contests + news)
    total = sum(scripts.values())
    if total:
        ko, en, mx = scripts["ko"] / total, scripts["en"] / total, scripts["mixed"] / total
        if not (0.30 <= ko <= 0.50 and 0.25 <= en <= 0.45 and 0.15 <= mx <= 0.35):
            err("titles: script mix ko %.2f en %.2f mixed %.2f, want about 40/35/25" % (ko, en, mx))

    # ---------------- global ids
    for k, v in all_ids.items():
        if v > 1:
            err("duplicate id %s" % k)

    # ---------------- report
    print("contests: %d (%s), ending within a week: %d, starting next month: %d"
          % (len(contests), ", ".join("%s %d" % kv for kv in sorted(st.items())), closing, next_month_start))
    print("news_articles: %d (2026-10: %d, 2026-11: %d)" % (len(news), per_month["2026-10"], per_month["2026-11"]))
    print("bookmarks: %d (%s)" % (len(bookmarks), ", ".join("%s %d" % (u, per_user[u]) for u in USERS)))
    print("queries: %d (%s), Hangul %.0f%%, time-word sets recomputed: %d"
          % (len(queries), ", ".join("%s %d" % (k, kinds[k]) for k in want), 100 * share, time_checked))
    if total:
        print("titles: ko %.0f%%, en %.0f%%, mixed %.0f%%" % (100 * ko, 100 * en, 100 * mx))
    if ERRORS:
        for e in ERRORS:
            print("ERROR:", e)
        print("FAILED (%d errors)" % len(ERRORS))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
