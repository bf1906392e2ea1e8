#!/usr/bin/env python3
"""Validate catalog portal-g (stdlib only).

Checks: ids unique and well-formed; required keys; status rule (KST calendar
days vs 2026-11-25); bookmarks point at existing items with matching titles;
query ids/options/kinds; expected ids exist in the named collection; bookmark
questions expect only the asking user's bookmarks; and every time-word query's
expected set equals the set recomputed from the data with the window rules in
TIME_QUERIES below.

Run:  python3 scripts/validate.py   (prints OK on success)
"""
import json
import os
import re
import sys
from datetime import date, datetime, timedelta, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KST = timezone(timedelta(hours=9))
REF = date(2026, 11, 25)

# Window definitions (inclusive calendar days, KST), all as of Wed 2026-11-25.
W = {
    "today":       (date(2026, 11, 25), date(2026, 11, 25)),   # 오늘
    "this_week":   (date(2026, 11, 23), date(2026, 11, 29)),   # 이번 주 (Mon..Sun)
    "next_week":   (date(2026, 11, 30), date(2026, 12, 6)),    # 다음 주
    "this_month":  (date(2026, 11, 1), date(2026, 11, 30)),    # 이번 달
    "next_month":  (date(2026, 12, 1), date(2026, 12, 31)),    # 다음 달 / 12월 / December / 연말
    "last_month":  (date(2026, 10, 1), date(2026, 10, 31)),    # 지난달 / last month
    "this_year":   (date(2026, 1, 1), date(2026, 12, 31)),     # 올해
    "last_year":   (date(2025, 1, 1), date(2025, 12, 31)),     # 작년
    "next_year":   (date(2027, 1, 1), date(2027, 12, 31)),     # 내년
    "jan_2027":    (date(2027, 1, 1), date(2027, 1, 31)),      # 내년 1월 / January 2027
    "closing_soon": (date(2026, 11, 25), date(2026, 12, 1)),   # 마감 임박 / 곧 마감 / closing soon
}

# Time-word questions: id -> (collection, mode, window-or-None, required tag or None)
#   mode "overlap": contest period overlaps window
#   mode "end":     contest endDate day in window      (마감 / closing / deadline)
#   mode "start":   contest startDate day in window    (시작하는 / starting)
#   mode "ongoing": contest status == ONGOING          (진행 중 / ongoing)
#   mode "pub":     news publishedAt day in window
TIME_QUERIES = {
    "pg-019": ("contests", "ongoing", None, "hackathon"),       # 지금 진행 중인 해커톤
    "pg-020": ("contests", "end", "closing_soon", None),         # 곧 마감하는 대회
    "pg-021": ("contests", "overlap", "next_month", "hackathon"),  # hackathons in December
    "pg-022": ("contests", "overlap", "next_month", "gamejam"),  # 다음 달 게임잼
    "pg-023": ("contests", "end", "this_week", "ai"),            # 이번 주 마감 AI 대회
    "pg-024": ("contests", "start", "jan_2027", None),           # starting in January 2027
    "pg-025": ("contests", "end", "last_month", None),           # 지난달에 끝난 대회
    "pg-026": ("contests", "ongoing", None, "fintech"),          # ongoing fintech competitions
    "pg-027": ("contests", "start", "next_week", None),          # 다음 주에 시작하는 대회
    "pg-028": ("contests", "end", "today", None),                # 오늘 마감하는 대회
    "pg-029": ("contests", "start", "next_month", "ctf"),        # CTF starting next month
    "pg-030": ("contests", "overlap", "last_year", "drone"),     # 작년에 열린 드론 대회
    "pg-053": ("news", "pub", "last_month", "fintech"),          # 지난달 핀테크 뉴스
    "pg-054": ("news", "pub", "this_week", None),                # 이번 주 뉴스
    "pg-055": ("news", "pub", "last_month", "security"),         # security news last month
    "pg-056": ("news", "pub", "this_month", "game"),             # 이번 달 게임 업계 소식
    "pg-057": ("news", "pub", "last_year", "ctf"),               # 작년 CTF 기사
    "pg-058": ("news", "pub", "this_month", "robotics"),         # November robotics news
}

ID_RE = {
    "contests": re.compile(r"^c-[0-9a-f]{16}$"),
    "news": re.compile(r"^n-[0-9a-f]{16}$"),
    "bookmarks": re.compile(r"^b-[0-9a-f]{16}$"),
}
DT_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+09:00$")
TAG_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def load(name):
    rows = []
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                raise SystemExit(f"{name}:{i}: blank line")
            rows.append(json.loads(line))
    return rows


def day(s):
    return datetime.fromisoformat(s).astimezone(KST).date()


def status_of(c):
    s, e = day(c["startDate"]), day(c["endDate"])
    if e < REF:
        return "ENDED"
    if s > REF:
        return "UPCOMING"
    return "ONGOING"


def recompute(spec, contests, news):
    coll, mode, win, tag = spec
    out = set()
    if coll == "contests":
        for c in contests:
            if tag and tag not in c["tags"]:
                continue
            s, e = day(c["startDate"]), day(c["endDate"])
            if mode == "ongoing":
                ok = c["status"] == "ONGOING"
            else:
                lo, hi = W[win]
                if mode == "overlap":
                    ok = s <= hi and e >= lo
                elif mode == "end":
                    ok = lo <= e <= hi
                elif mode == "start":
                    ok = lo <= s <= hi
                else:
                    raise ValueError(mode)
            if ok:
                out.add(("contests", c["id"]))
    else:
        lo, hi = W[win]
        for n in news:
            if tag and tag not in n["tags"]:
                continue
            if lo <= day(n["publishedAt"]) <= hi:
                out.add(("news", n["id"]))
    return out


def main():
    errs = []
    E = errs.append
    contests = load("contests.jsonl")
    news = load("news_articles.jsonl")
    bms = load("bookmarks.jsonl")
    qs = load("queries.jsonl")
    for q in qs:  # the file says "news_articles" (the engine's name); this script says "news"
        for e in q["expected"]:
            if e["collection"] == "news_articles":
                e["collection"] = "news"

    ckeys = ["id", "title", "description", "startDate", "endDate", "status", "url", "sourceName", "tags"]
    nkeys = ["id", "title", "summary", "content", "publishedAt", "url", "sourceName", "tags"]
    bkeys = ["id", "userId", "itemType", "itemId", "itemTitle", "itemSummary", "tag", "memo"]
    qkeys = ["id", "userId", "query", "options", "expected", "kind"]

    seen = set()
    for coll, rows, keys in (("contests", contests, ckeys), ("news", news, nkeys), ("bookmarks", bms, bkeys)):
        for r in rows:
            if list(r.keys()) != keys:
                E(f"{coll} {r.get('id')}: keys {list(r.keys())}")
            if not ID_RE[coll].match(r["id"]):
                E(f"{coll}: bad id {r['id']}")
            if r["id"] in seen:
                E(f"duplicate id {r['id']}")
            seen.add(r["id"])

    cmap = {c["id"]: c for c in contests}
    nmap = {n["id"]: n for n in news}
    bmap = {b["id"]: b for b in bms}
    ids = {"contests": cmap, "news": nmap, "bookmarks": bmap}

    for c in contests:
        for k in ("startDate", "endDate"):
            if not DT_RE.match(c[k]):
                E(f"{c['id']}: bad {k} {c[k]}")
        if day(c["startDate"]) > day(c["endDate"]):
            E(f"{c['id']}: start after end")
        if c["status"] != status_of(c):
            E(f"{c['id']}: status {c['status']} != {status_of(c)}")
        if not c["url"].split("/")[2].endswith(".example"):
            E(f"{c['id']}: url {c['url']}")
        if not c["tags"] or any(not TAG_RE.match(t) for t in c["tags"]):
            E(f"{c['id']}: tags {c['tags']}")
    for n in news:
        if not DT_RE.match(n["publishedAt"]):
            E(f"{n['id']}: bad publishedAt")
        d = day(n["publishedAt"])
        if not (date(2025, 1, 1) <= d <= date(2026, 11, 24)):
            E(f"{n['id']}: publishedAt out of range {d}")
        if not n["url"].split("/")[2].endswith(".example"):
            E(f"{n['id']}: url {n['url']}")
        paras = n["content"].split("\n\n")
        if not 3 <= len(paras) <= 4:
            E(f"{n['id']}: {len(paras)} paragraphs")
        if not n["tags"] or any(not TAG_RE.match(t) for t in n["tags"]):
            E(f"{n['id']}: tags {n['tags']}")

    per_user = {}
    item_users = {}
    for b in bms:
        per_user[b["userId"]] = per_user.get(b["userId"], 0) + 1
        tgt = cmap if b["itemType"] == "CONTEST" else nmap if b["itemType"] == "NEWS_ARTICLE" else None
        if tgt is None or b["itemId"] not in tgt:
            E(f"{b['id']}: bad item {b['itemType']} {b['itemId']}")
            continue
        if tgt[b["itemId"]]["title"] != b["itemTitle"]:
            E(f"{b['id']}: itemTitle mismatch")
        if b["tag"] not in tgt[b["itemId"]]["tags"]:
            E(f"{b['id']}: tag {b['tag']} not among item tags")
        item_users.setdefault(b["itemId"], set()).add(b["userId"])
    if per_user != {"8001": 9, "8002": 9, "8003": 9}:
        E(f"bookmarks per user {per_user}")
    if not any(len(u) >= 2 for u in item_users.values()):
        E("no item bookmarked by two users")

    qseen = set()
    kinds = {}
    for i, q in enumerate(qs, 1):
        if list(q.keys()) != qkeys:
            E(f"{q.get('id')}: keys {list(q.keys())}")
        if q["id"] != f"pg-{i:03d}":
            E(f"query #{i} has id {q['id']}")
        if q["id"] in qseen:
            E(f"duplicate query id {q['id']}")
        qseen.add(q["id"])
        kinds[q["kind"]] = kinds.get(q["kind"], 0) + 1
        if q["userId"] not in ("8001", "8002", "8003"):
            E(f"{q['id']}: userId {q['userId']}")
        o = q["options"]
        want = {"includeContests": False, "includeNews": False, "includeBookmarks": True} if q["kind"] == "bookmark" \
            else {"includeContests": True, "includeNews": True, "includeBookmarks": False}
        if o != want:
            E(f"{q['id']}: options {o}")
        if q["kind"] not in ("contest", "news", "bookmark", "general", "greeting"):
            E(f"{q['id']}: kind {q['kind']}")
        if q["kind"] in ("general", "greeting") and q["expected"]:
            E(f"{q['id']}: general/greeting must expect []")
        if q["kind"] in ("contest", "news", "bookmark") and not q["expected"]:
            E(f"{q['id']}: empty expected")
        pairs = set()
        for x in q["expected"]:
            if list(x.keys()) != ["collection", "id"] or x["id"] not in ids.get(x["collection"], {}):
                E(f"{q['id']}: bad expected {x}")
                continue
            pairs.add((x["collection"], x["id"]))
            if q["kind"] == "bookmark":
                if x["collection"] != "bookmarks" or bmap[x["id"]]["userId"] != q["userId"]:
                    E(f"{q['id']}: bookmark question expects foreign item {x}")
            elif x["collection"] == "bookmarks":
                E(f"{q['id']}: non-bookmark question expects a bookmark")
        if len(pairs) != len(q["expected"]):
            E(f"{q['id']}: duplicate expected entries")
        if q["id"] in TIME_QUERIES:
            got = recompute(TIME_QUERIES[q["id"]], contests, news)
            if got != pairs:
                E(f"{q['id']}: expected {sorted(pairs)} but window rule gives {sorted(got)}")
            if not got:
                E(f"{q['id']}: window rule gives an empty set")
    for qid in TIME_QUERIES:
        if qid not in qseen:
            E(f"TIME_QUERIES names missing query {qid}")

    st = {}
    for c in contests:
        st[c["status"]] = st.get(c["status"], 0) + 1
    print(f"contests={len(contests)} {st} news={len(news)} bookmarks={len(bms)} queries={len(qs)} {kinds}")
    print(f"time-word queries checked: {len(TIME_QUERIES)}")
    if errs:
        for e in errs:
            print("ERROR:", e)
        print(f"FAILED ({len(errs)} errors)")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
