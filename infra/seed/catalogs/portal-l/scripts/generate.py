#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Write contests.jsonl, news_articles.jsonl, bookmarks.jsonl and queries.jsonl for portal-l.

All data lives in the modules next to this script:
  world_contests.py                        contests
  world_news_2025.py, world_news_2026.py,
  world_news_recent.py                     news articles
  world_bookmarks.py                       bookmarks
  queries_contest.py, queries_news.py,
  queries_misc.py                          labelled questions

Ids are derived from each item's internal key with a fixed seed, so they never change when
items are added or reordered.  Standard library only.
"""
import datetime as dt
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import world_contests  # noqa: E402
import world_news_2025  # noqa: E402
import world_news_2026  # noqa: E402
import world_news_recent  # noqa: E402
import world_bookmarks  # noqa: E402
import queries_contest  # noqa: E402
import queries_news  # noqa: E402
import queries_misc  # noqa: E402

SEED = "portal-l-2027"
REF_DAY = dt.date(2027, 2, 10)          # Wednesday, Asia/Seoul
QUERY_PREFIX = "pl"
ORDER_SEED = 20270210


def make_id(prefix, key):
    """<prefix>-<16 lowercase hex>, fixed per key (seeded PRNG, string seeds are hashed with SHA-512)."""
    rng = random.Random(f"{SEED}:{prefix}:{key}")
    return f"{prefix}-{rng.getrandbits(64):016x}"


def iso(local):
    """'YYYY-MM-DD HH:MM' (Asia/Seoul) -> 'YYYY-MM-DDTHH:MM:00+09:00'."""
    d = dt.datetime.strptime(local, "%Y-%m-%d %H:%M")
    return d.strftime("%Y-%m-%dT%H:%M:00+09:00")


def status_of(start, end):
    s = dt.date.fromisoformat(start[:10])
    e = dt.date.fromisoformat(end[:10])
    if e < REF_DAY:
        return "ENDED"
    if s > REF_DAY:
        return "UPCOMING"
    return "ONGOING"


def build():
    contests, news, bookmarks, queries = [], [], [], []
    ref = {}          # "c:KEY" / "n:KEY" / "b:KEY" -> (collection, id, record)

    for c in world_contests.C:
        rec = {
            "id": make_id("c", c["key"]),
            "title": c["title"],
            "description": c["description"],
            "startDate": iso(c["start"]),
            "endDate": iso(c["end"]),
            "status": status_of(c["start"], c["end"]),
            "url": c["url"],
            "sourceName": c["source"],
            "tags": list(c["tags"]),
        }
        contests.append(rec)
        ref["c:" + c["key"]] = ("contests", rec["id"], rec)

    all_news = world_news_2025.N + world_news_2026.N + world_news_recent.N
    all_news.sort(key=lambda x: x["published"])
    for a in all_news:
        rec = {
            "id": make_id("n", a["key"]),
            "title": a["title"],
            "summary": a["summary"],
            "content": "\n\n".join(a["paras"]),
            "publishedAt": iso(a["published"]),
            "url": a["url"],
            "sourceName": a["source"],
            "tags": list(a["tags"]),
        }
        news.append(rec)
        ref["n:" + a["key"]] = ("news_articles", rec["id"], rec)

    for bm in world_bookmarks.B:
        coll, item_id, item = ref[bm["item"]]
        rec = {
            "id": make_id("b", bm["key"]),
            "userId": bm["user"],
            "itemType": "CONTEST" if coll == "contests" else "NEWS_ARTICLE",
            "itemId": item_id,
            "itemTitle": item["title"],
            "itemSummary": bm["summary"],
            "tag": bm["tag"],
            "memo": bm["memo"],
        }
        bookmarks.append(rec)
        ref["b:" + bm["key"]] = ("bookmarks", rec["id"], rec)

    qs = queries_contest.Q + queries_news.Q + queries_misc.Q
    order = list(range(len(qs)))
    random.Random(ORDER_SEED).shuffle(order)
    for n, i in enumerate(order, 1):
        q = qs[i]
        text = re.sub(r"\{([cnb]:[^}]+)\}", lambda m: ref[m.group(1)][1], q["text"])
        if q["kind"] == "bookmark":
            opts = {"includeContests": False, "includeNews": False, "includeBookmarks": True}
        else:
            opts = {"includeContests": True, "includeNews": True, "includeBookmarks": False}
        expected = [{"collection": ref[r][0], "id": ref[r][1]} for r in q["expected"]]
        queries.append({
            "id": f"{QUERY_PREFIX}-{n:03d}",
            "userId": q["user"],
            "query": text,
            "options": opts,
            "expected": expected,
            "kind": q["kind"],
        })
    return contests, news, bookmarks, queries


def write(name, rows):
    path = os.path.join(OUT, name)
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return len(rows)


def main():
    contests, news, bookmarks, queries = build()
    for name, rows in (("contests.jsonl", contests), ("news_articles.jsonl", news),
                       ("bookmarks.jsonl", bookmarks), ("queries.jsonl", queries)):
        print(f"wrote {write(name, rows):3d} rows to {name}")


if __name__ == "__main__":
    main()
