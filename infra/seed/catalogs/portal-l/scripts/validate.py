#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Validate the portal-l catalog (standard library only).

Checks schema, id formats and uniqueness, that every expected id and every bookmarked item
exists, that statuses are true on the reference date (2027-02-10, Asia/Seoul), the counts and
mixes asked for in the brief, and recomputes the expected set of every time-word question from
the data (rules are kept with the questions in queries_*.py).  Prints OK or the list of problems.
"""
import calendar
import collections
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import world_contests  # noqa: E402
import world_news_2025  # noqa: E402
import world_news_2026  # noqa: E402
import world_news_recent  # noqa: E402
import world_bookmarks  # noqa: E402
import queries_contest  # noqa: E402
import queries_news  # noqa: E402
import queries_misc  # noqa: E402
from generate import make_id  # noqa: E402

REF = dt.date(2027, 2, 10)
USERS = ("9401", "9402", "9403")
PREFIX = "pl"
ERRORS = []


def err(msg):
    ERRORS.append(msg)


def load(name):
    rows = []
    path = os.path.join(ROOT, name)
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                err(f"{name}:{n}: empty line")
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                err(f"{name}:{n}: bad JSON ({e})")
                continue
            if not isinstance(obj, dict):
                err(f"{name}:{n}: not an object")
                continue
            rows.append(obj)
    return rows


def check_keys(name, row, keys):
    if set(row) != set(keys):
        err(f"{name} {row.get('id')}: keys {sorted(row)} != {sorted(keys)}")
        return False
    return True


def day(iso):
    return dt.date.fromisoformat(iso[:10])


ISO_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$")
URL_RE = re.compile(r"^https://[a-z0-9-]+(\.[a-z0-9-]+)*\.example/\S*$")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
LATIN = re.compile(r"[A-Za-z]")


def sentences(text):
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


def script(title):
    h, l = bool(HANGUL.search(title)), bool(LATIN.search(title))
    return "mixed" if h and l else ("ko" if h else "en")


def parse_iso(s, where):
    if not isinstance(s, str) or not ISO_RE.match(s):
        err(f"{where}: bad datetime {s!r}")
        return None
    try:
        return dt.datetime.fromisoformat(s)
    except ValueError:
        err(f"{where}: bad datetime {s!r}")
        return None


def status_of(start, end):
    if day(end) < REF:
        return "ENDED"
    if day(start) > REF:
        return "UPCOMING"
    return "ONGOING"


# ---------------------------------------------------------------------------- time windows
def month_window(y, m):
    return dt.date(y, m, 1), dt.date(y, m, calendar.monthrange(y, m)[1])


def add_months(y, m, k):
    idx = y * 12 + (m - 1) + k
    return idx // 12, idx % 12 + 1


def window(name):
    monday = REF - dt.timedelta(days=REF.weekday())
    if name == "today":
        return REF, REF
    if name == "this_week":
        return monday, monday + dt.timedelta(days=6)
    if name == "next_week":
        return monday + dt.timedelta(days=7), monday + dt.timedelta(days=13)
    if name == "last_week":
        return monday - dt.timedelta(days=7), monday - dt.timedelta(days=1)
    if name == "this_month":
        return month_window(REF.year, REF.month)
    if name == "next_month":
        return month_window(*add_months(REF.year, REF.month, 1))
    if name == "last_month":
        return month_window(*add_months(REF.year, REF.month, -1))
    if name == "this_year":
        return dt.date(REF.year, 1, 1), dt.date(REF.year, 12, 31)
    if name == "last_year":
        return dt.date(REF.year - 1, 1, 1), dt.date(REF.year - 1, 12, 31)
    if name == "next_year":
        return dt.date(REF.year + 1, 1, 1), dt.date(REF.year + 1, 12, 31)
    if name == "closing_soon":
        return REF, REF + dt.timedelta(days=7)
    m = re.match(r"^month:(\d{4})-(\d{2})$", name)
    if m:
        return month_window(int(m.group(1)), int(m.group(2)))
    raise ValueError(name)


TIME_WORD = re.compile(
    r"오늘|이번\s?주|다음\s?주|지난\s?주|이번\s?달|다음\s?달|지난\s?달|올해|작년|내년|\d{1,2}월|연말|마감\s?임박"
    r"|(?<![A-Za-z])(today|(this|next|last)\s(week|month|year)|closing soon"
    r"|in\s(january|february|march|april|may|june|july|august|september|october|november|december))(?![A-Za-z])",
    re.I)  # ASCII-only word edges: "next month에" still counts

WORDING = {
    "today": r"오늘|today",
    "this_week": r"이번\s?주|this week",
    "next_week": r"다음\s?주|next week",
    "last_week": r"지난\s?주|last week",
    "this_month": r"이번\s?달|this month",
    "next_month": r"다음\s?달|next month",
    "last_month": r"지난\s?달|last month",
    "this_year": r"올해|this year",
    "last_year": r"작년|last year",
    "next_year": r"내년|next year",
    "closing_soon": r"마감\s?임박|closing soon",
}
EN_MONTHS = [calendar.month_name[i].lower() for i in range(13)]


def wording_ok(name, text):
    """The rule's window must be what the question's own time words say (see README table)."""
    if name in WORDING:
        return re.search(WORDING[name], text, re.I) is not None
    y, m = map(int, name.split(":")[1].split("-"))
    month_said = (re.search(rf"(?<!\d){m}월", text) or re.search(rf"(?<![A-Za-z])in {EN_MONTHS[m]}(?![A-Za-z])", text, re.I)
                  or (m == 12 and "연말" in text))
    if not month_said:
        return False
    if y == REF.year:
        return not re.search(r"작년|내년|last year|next year|\d{4}년", text, re.I)
    if y == REF.year - 1:
        return bool(re.search(rf"작년|last year|{y}", text, re.I))
    if y == REF.year + 1:
        return bool(re.search(rf"내년|next year|{y}", text, re.I))
    return str(y) in text


def in_window(item_start, item_end, field, win):
    lo, hi = win
    if field == "start":
        return lo <= item_start <= hi
    if field in ("end", "published"):
        return lo <= item_end <= hi
    if field == "overlap":
        return item_start <= hi and item_end >= lo
    raise ValueError(field)


def matches(item, rule):
    tags_any = rule.get("tags_any")
    if tags_any and not set(tags_any) & set(item.get("tags", [])):
        return False
    for rx in rule.get("title_all", []):
        if not re.search(rx, item["title"], re.I):
            return False
    return True


# ---------------------------------------------------------------------------- main checks
def main():
    contests = load("contests.jsonl")
    news = load("news_articles.jsonl")
    bookmarks = load("bookmarks.jsonl")
    queries = load("queries.jsonl")

    all_ids = collections.Counter()
    by_coll = {"contests": {}, "news_articles": {}, "bookmarks": {}}

    # ---------------- contests
    C_KEYS = ("id", "title", "description", "startDate", "endDate", "status", "url", "sourceName", "tags")
    if not 75 <= len(contests) <= 80:
        err(f"contests: {len(contests)} rows, want 75-80")
    for c in contests:
        if not check_keys("contests", c, C_KEYS):
            continue
        w = f"contest {c['id']}"
        if not re.match(r"^c-[0-9a-f]{16}$", c["id"]):
            err(f"{w}: bad id")
        all_ids[c["id"]] += 1
        by_coll["contests"][c["id"]] = c
        s, e = parse_iso(c["startDate"], w), parse_iso(c["endDate"], w)
        if s and e:
            if s > e:
                err(f"{w}: start after end")
            want = status_of(c["startDate"], c["endDate"])
            if c["status"] != want:
                err(f"{w}: status {c['status']} but {want} on {REF}")
        if c["status"] not in ("ONGOING", "UPCOMING", "ENDED"):
            err(f"{w}: bad status")
        if not URL_RE.match(c["url"]):
            err(f"{w}: url not on .example: {c['url']}")
        n = len(sentences(c["description"]))
        if not 2 <= n <= 4:
            err(f"{w}: description has {n} sentences")
        if not c["tags"] or not all(isinstance(t, str) and t == t.lower() and t for t in c["tags"]):
            err(f"{w}: bad tags")
        for k in ("title", "sourceName"):
            if not isinstance(c[k], str) or not c[k].strip():
                err(f"{w}: empty {k}")
    st = collections.Counter(c.get("status") for c in contests)
    if contests and not 0.4 <= st["ENDED"] / len(contests) <= 0.6:
        err(f"contests: ENDED share {st['ENDED']}/{len(contests)} is not about half")
    if st["ONGOING"] < 5 or st["UPCOMING"] < 5:
        err(f"contests: too few ONGOING/UPCOMING: {dict(st)}")
    closing = [c for c in contests if c.get("status") == "ONGOING"
               and REF <= day(c["endDate"]) <= REF + dt.timedelta(days=7)]
    if len(closing) < 3:
        err(f"contests: only {len(closing)} ending within a week")
    nm = window("next_month")
    starting = [c for c in contests if nm[0] <= day(c["startDate"]) <= nm[1]]
    if len(starting) < 3:
        err(f"contests: only {len(starting)} starting next month")

    # series: editions in 2025, 2026, 2027 and divisions
    series = collections.defaultdict(set)
    divisions = collections.defaultdict(set)
    for c in world_contests.C:
        if c["series"]:
            series[c["series"]].add(c["year"])
            if c["division"]:
                divisions[c["series"]].add(c["division"])
    full = [s for s, ys in series.items() if {2025, 2026, 2027} <= ys]
    if len(full) < 3:
        err(f"fewer than 3 series with 2025/2026/2027 editions: {full}")
    if not any(d >= {"예선", "본선"} for d in divisions.values()) or \
            not any(d >= {"학생", "일반"} for d in divisions.values()):
        err("series divisions 예선/본선 and 학생/일반 are not both present")

    # ---------------- news
    N_KEYS = ("id", "title", "summary", "content", "publishedAt", "url", "sourceName", "tags")
    if not 90 <= len(news) <= 95:
        err(f"news_articles: {len(news)} rows, want 90-95")
    lo_pub = dt.date(REF.year - 2, REF.month, REF.day)
    months = collections.Counter()
    for a in news:
        if not check_keys("news_articles", a, N_KEYS):
            continue
        w = f"article {a['id']}"
        if not re.match(r"^n-[0-9a-f]{16}$", a["id"]):
            err(f"{w}: bad id")
        all_ids[a["id"]] += 1
        by_coll["news_articles"][a["id"]] = a
        p = parse_iso(a["publishedAt"], w)
        if p:
            if not lo_pub <= p.date() <= REF:
                err(f"{w}: published {p.date()} outside the two years before {REF}")
            months[p.strftime("%Y-%m")] += 1
        if not URL_RE.match(a["url"]):
            err(f"{w}: url not on .example: {a['url']}")
        if len(sentences(a["summary"])) != 1:
            err(f"{w}: summary is not one sentence")
        paras = [x for x in a["content"].split("\n\n") if x.strip()]
        if len(paras) != 3:
            err(f"{w}: content has {len(paras)} paragraphs")
        if not a["tags"] or not all(isinstance(t, str) and t == t.lower() and t for t in a["tags"]):
            err(f"{w}: bad tags")
    last2 = [add_months(REF.year, REF.month, -2), add_months(REF.year, REF.month, -1)]
    for y, m in last2:
        k = f"{y}-{m:02d}"
        if not 12 <= months[k] <= 18:
            err(f"news: {months[k]} articles in {k}, want about 15")
    older = sum(v for k, v in months.items() if k < f"{last2[0][0]}-{last2[0][1]:02d}")
    if older < 40:
        err(f"news: only {older} articles before the last two months")

    # title script mix over contests + news
    mix = collections.Counter(script(x["title"]) for x in contests + news if "title" in x)
    tot = sum(mix.values()) or 1
    if not (0.33 <= mix["ko"] / tot <= 0.47 and 0.28 <= mix["en"] / tot <= 0.42
            and 0.18 <= mix["mixed"] / tot <= 0.32):
        err(f"title scripts off target (40/35/25%): {dict(mix)}")

    # ---------------- bookmarks
    B_KEYS = ("id", "userId", "itemType", "itemId", "itemTitle", "itemSummary", "tag", "memo")
    if len(bookmarks) != 27:
        err(f"bookmarks: {len(bookmarks)} rows, want 27")
    per_user = collections.Counter()
    for bm in bookmarks:
        if not check_keys("bookmarks", bm, B_KEYS):
            continue
        w = f"bookmark {bm['id']}"
        if not re.match(r"^b-[0-9a-f]{16}$", bm["id"]):
            err(f"{w}: bad id")
        all_ids[bm["id"]] += 1
        by_coll["bookmarks"][bm["id"]] = bm
        per_user[bm["userId"]] += 1
        if bm["userId"] not in USERS:
            err(f"{w}: unknown user {bm['userId']}")
        coll = {"CONTEST": "contests", "NEWS_ARTICLE": "news_articles"}.get(bm["itemType"])
        if coll is None:
            err(f"{w}: bad itemType {bm['itemType']}")
            continue
        item = by_coll[coll].get(bm["itemId"])
        if item is None:
            err(f"{w}: item {bm['itemId']} not found in {coll}")
        elif item["title"] != bm["itemTitle"]:
            err(f"{w}: itemTitle differs from the item's title")
        if not re.match(r"^\S+$", bm["tag"]):
            err(f"{w}: tag is not one word")
        if len(sentences(bm["itemSummary"])) != 1:
            err(f"{w}: itemSummary is not one sentence")
        if not bm["memo"].strip():
            err(f"{w}: empty memo")
    for u in USERS:
        if per_user[u] != 9:
            err(f"bookmarks: user {u} has {per_user[u]}, want 9")

    for i, k in all_ids.items():
        if k > 1:
            err(f"duplicate id {i}")

    # ---------------- queries
    Q_KEYS = ("id", "userId", "query", "options", "expected", "kind")
    if not 100 <= len(queries) <= 104:
        err(f"queries: {len(queries)} rows, want 100-104")
    kinds = collections.Counter(q.get("kind") for q in queries)
    want = {"contest": (30, 36), "news": (25, 31), "bookmark": (9, 11), "general": (23, 29), "greeting": (5, 7)}
    for k, (a, b) in want.items():
        if not a <= kinds[k] <= b:
            err(f"queries: {kinds[k]} of kind {k}, want {a}-{b}")
    if set(kinds) - set(want):
        err(f"queries: unknown kinds {set(kinds) - set(want)}")
    hangul = sum(1 for q in queries if HANGUL.search(q.get("query", "")))
    if queries and not 0.65 <= hangul / len(queries) <= 0.75:
        err(f"queries: {hangul}/{len(queries)} contain Hangul, want about 70%")
    voices = collections.Counter(q.get("userId") for q in queries)
    if set(voices) != set(USERS):
        err(f"queries: users {dict(voices)}")

    rules = {}
    for mod in (queries_contest, queries_news, queries_misc):
        for q in mod.Q:
            if q["text"] in rules:
                err(f"duplicate question text {q['text']!r}")
            rules[q["text"]] = q.get("rule")

    seen_q, texts = set(), set()
    for n, q in enumerate(queries, 1):
        if not check_keys("queries", q, Q_KEYS):
            continue
        w = f"query {q['id']}"
        if q["id"] != f"{PREFIX}-{n:03d}":
            err(f"{w}: ids must run {PREFIX}-001.. in order")
        if q["id"] in seen_q:
            err(f"{w}: duplicate id")
        seen_q.add(q["id"])
        if q["userId"] not in USERS:
            err(f"{w}: unknown user")
        if q["query"] in texts:
            err(f"{w}: duplicate question")
        texts.add(q["query"])
        if "{" in q["query"]:
            err(f"{w}: unresolved placeholder")
        o = q["options"]
        if set(o) != {"includeContests", "includeNews", "includeBookmarks"} or \
                not all(isinstance(v, bool) for v in o.values()):
            err(f"{w}: bad options")
            continue
        if q["kind"] == "bookmark":
            if (o["includeContests"], o["includeNews"], o["includeBookmarks"]) != (False, False, True):
                err(f"{w}: bookmark question options")
        elif q["kind"] in ("contest", "news"):
            if (o["includeContests"], o["includeNews"], o["includeBookmarks"]) != (True, True, False):
                err(f"{w}: contest/news question options")
        exp = q["expected"]
        pairs = set()
        for e in exp:
            if set(e) != {"collection", "id"} or e["collection"] not in by_coll:
                err(f"{w}: bad expected entry {e}")
                continue
            if e["id"] not in by_coll[e["collection"]]:
                err(f"{w}: expected id {e['id']} not in {e['collection']}")
            if (e["collection"], e["id"]) in pairs:
                err(f"{w}: expected lists {e['id']} twice")
            pairs.add((e["collection"], e["id"]))
        colls = {c for c, _ in pairs}
        if q["kind"] in ("general", "greeting") and exp:
            err(f"{w}: {q['kind']} question must expect nothing")
        if q["kind"] in ("contest", "news"):
            if not exp:
                err(f"{w}: expects nothing")
            if colls - {"contests", "news_articles"}:
                err(f"{w}: contest/news question expects bookmarks")
            if q["kind"] == "contest" and "contests" not in colls:
                err(f"{w}: contest question without a contest")
        if q["kind"] == "bookmark":
            if not exp or colls != {"bookmarks"}:
                err(f"{w}: bookmark question must expect bookmarks only")
            for c, i in pairs:
                bm = by_coll["bookmarks"].get(i)
                if bm and bm["userId"] != q["userId"]:
                    err(f"{w}: expects another user's bookmark {i}")

        # ---- time words: a rule must exist, agree with the wording, and reproduce `expected`
        if q["kind"] not in ("contest", "news", "bookmark"):
            continue
        rule = rules.get(q["query"])
        has_word = bool(TIME_WORD.search(q["query"]))
        if has_word and not rule:
            err(f"{w}: time-word question without a rule: {q['query']!r}")
        if not rule:
            continue
        if not wording_ok(rule["win"], q["query"]):
            err(f"{w}: window {rule['win']} does not match the wording {q['query']!r}")
        win = window(rule["win"])
        got = set()
        if rule["coll"] == "contests":
            for c in contests:
                if rule["win"] == "closing_soon" and c["status"] != "ONGOING":
                    continue
                if in_window(day(c["startDate"]), day(c["endDate"]), rule["field"], win) and matches(c, rule):
                    got.add(("contests", c["id"]))
        elif rule["coll"] == "news_articles":
            for a in news:
                d = day(a["publishedAt"])
                if in_window(d, d, "published", win) and matches(a, rule):
                    got.add(("news_articles", a["id"]))
        elif rule["coll"] == "bookmarks":
            for bm in bookmarks:
                if bm["userId"] != q["userId"]:
                    continue
                if bm["itemType"] == "CONTEST" and rule["field"] != "published":
                    it = by_coll["contests"].get(bm["itemId"])
                    ok = it and in_window(day(it["startDate"]), day(it["endDate"]), rule["field"], win)
                elif bm["itemType"] == "NEWS_ARTICLE" and rule["field"] == "published":
                    it = by_coll["news_articles"].get(bm["itemId"])
                    ok = it and in_window(day(it["publishedAt"]), day(it["publishedAt"]), "published", win)
                else:
                    ok = False
                if ok and matches(it, rule):
                    got.add(("bookmarks", bm["id"]))
        else:
            err(f"{w}: bad rule collection")
        for r in rule.get("plus", []):
            pre, key = r.split(":", 1)
            coll = {"c": "contests", "n": "news_articles", "b": "bookmarks"}[pre]
            got.add((coll, make_id(pre, key)))
        if got != pairs:
            err(f"{w}: recomputed {sorted(i for _, i in got)} != expected {sorted(i for _, i in pairs)}")

    if ERRORS:
        for e in ERRORS:
            print("ERROR:", e)
        print(f"FAILED ({len(ERRORS)} problems)")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
