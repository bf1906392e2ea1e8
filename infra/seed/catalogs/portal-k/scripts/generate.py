#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Write contests.jsonl, news_articles.jsonl, bookmarks.jsonl and queries.jsonl
from the data modules in scripts/. Ids are derived from a fixed seed and the
item's key, so they are stable across runs and independent of list order.

Run from the portal-k folder:  python3 scripts/generate.py
"""
import datetime as dt
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from contests_data import CONTESTS  # noqa: E402
from news_data import NEWS, OUTLETS  # noqa: E402
from bookmarks_data import BOOKMARKS  # noqa: E402
from queries_data import Q  # noqa: E402

SEED = 20261122
REF_DAY = dt.date(2026, 11, 22)  # Sunday, Asia/Seoul
QUERY_PREFIX = "pk"


def make_id(prefix, key):
    rng = random.Random("%d:%s:%s" % (SEED, prefix, key))
    return "%s-%016x" % (prefix, rng.getrandbits(64))


def iso(stamp):
    """'YYYY-MM-DD HH:MM' (Asia/Seoul) -> 'YYYY-MM-DDTHH:MM:00+09:00'."""
    d = dt.datetime.strptime(stamp, "%Y-%m-%d %H:%M")
    return d.strftime("%Y-%m-%dT%H:%M:%S") + "+09:00"


def status(start, end):
    s = dt.datetime.strptime(start, "%Y-%m-%d %H:%M").date()
    e = dt.datetime.strptime(end, "%Y-%m-%d %H:%M").date()
    if e < REF_DAY:
        return "ENDED"
    if s > REF_DAY:
        return "UPCOMING"
    return "ONGOING"


def write_jsonl(name, rows):
    path = os.path.join(ROOT, name)
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return len(rows)


def main():
    cid = {c["key"]: make_id("c", c["key"]) for c in CONTESTS}
    nid = {n["key"]: make_id("n", n["key"]) for n in NEWS}
    bid = {b["key"]: make_id("b", b["key"]) for b in BOOKMARKS}
    for table in (cid, nid, bid):
        assert len(set(table.values())) == len(table), "id collision"

    contests = []
    for c in CONTESTS:
        contests.append({
            "id": cid[c["key"]],
            "title": c["title"],
            "description": c["desc"],
            "startDate": iso(c["start"]),
            "endDate": iso(c["end"]),
            "status": status(c["start"], c["end"]),
            "url": c["url"],
            "sourceName": c["source"],
            "tags": list(c["tags"]),
        })
    ctitle = {c["key"]: c["title"] for c in CONTESTS}

    news = []
    for n in sorted(NEWS, key=lambda n: n["date"]):
        d = dt.datetime.strptime(n["date"], "%Y-%m-%d %H:%M")
        url = "https://%s/%04d/%02d/%s" % (OUTLETS[n["outlet"]], d.year, d.month, n["key"])
        news.append({
            "id": nid[n["key"]],
            "title": n["title"],
            "summary": n["summary"],
            "content": "\n\n".join(n["paras"]),
            "publishedAt": iso(n["date"]),
            "url": url,
            "sourceName": n["outlet"],
            "tags": list(n["tags"]),
        })
    ntitle = {n["key"]: n["title"] for n in NEWS}

    bookmarks = []
    for b in BOOKMARKS:
        kind, key = b["item"]
        if kind == "contest":
            item_type, item_id, item_title = "CONTEST", cid[key], ctitle[key]
        else:
            item_type, item_id, item_title = "NEWS_ARTICLE", nid[key], ntitle[key]
        bookmarks.append({
            "id": bid[b["key"]],
            "userId": b["user"],
            "itemType": item_type,
            "itemId": item_id,
            "itemTitle": item_title,
            "itemSummary": b["summary"],
            "tag": b["tag"],
            "memo": b["memo"],
        })

    coll = {"c": ("contests", cid), "n": ("news_articles", nid), "b": ("bookmarks", bid)}
    all_ids = dict(cid)
    all_ids.update(nid)

    def fill(text):
        return re.sub(r"\{id:([^}]+)\}", lambda m: all_ids[m.group(1)], text)

    queries = []
    for i, x in enumerate(Q, 1):
        kind = x["kind"]
        if kind == "bookmark":
            opts = {"includeContests": False, "includeNews": False, "includeBookmarks": True}
        else:
            opts = {"includeContests": True, "includeNews": True, "includeBookmarks": False}
        expected = []
        for c, key in x["exp"]:
            name, table = coll[c]
            expected.append({"collection": name, "id": table[key]})
        queries.append({
            "id": "%s-%03d" % (QUERY_PREFIX, i),
            "userId": x["user"],
            "query": fill(x["q"]),
            "options": opts,
            "expected": expected,
            "kind": kind,
        })

    counts = {
        "contests.jsonl": write_jsonl("contests.jsonl", contests),
        "news_articles.jsonl": write_jsonl("news_articles.jsonl", news),
        "bookmarks.jsonl": write_jsonl("bookmarks.jsonl", bookmarks),
        "queries.jsonl": write_jsonl("queries.jsonl", queries),
    }
    for k, v in counts.items():
        print("wrote %-20s %3d" % (k, v))


if __name__ == "__main__":
    main()
