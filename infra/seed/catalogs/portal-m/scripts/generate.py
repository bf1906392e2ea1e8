#!/usr/bin/env python3
"""Generate the portal-m catalog (contests, news, bookmarks, queries) from the Python data files."""
import json
import os
import random
import re
import sys
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data_contests import ORGS, CONTESTS  # noqa: E402
from data_news import OUTLETS, NEWS  # noqa: E402
from data_user import BOOKMARKS, QUERIES  # noqa: E402

CATALOG = "portal-m"
QPREFIX = "pm"
KST = timezone(timedelta(hours=9))
NOW = datetime(2026, 12, 3, 12, 0, 0, tzinfo=KST)  # reference moment
OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def make_id(prefix, key):
    rng = random.Random(f"{CATALOG}:{prefix}:{key}")
    return f"{prefix}-{rng.getrandbits(64):016x}"


def parse(s, default_time):
    if len(s) == 10:
        s = f"{s} {default_time}"
    return datetime.strptime(s, "%Y-%m-%d %H:%M").replace(tzinfo=KST)


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%S+09:00")


def status(start, end):
    if start > NOW:
        return "UPCOMING"
    if end < NOW:
        return "ENDED"
    return "ONGOING"


def build():
    contests, by_ref = [], {}
    for key, org, title, start, end, path, tags, desc in CONTESTS:
        ko, en, domain = ORGS[org]
        s, e = parse(start, "09:00"), parse(end, "18:00")
        rec = {
            "id": make_id("c", key), "title": title, "description": desc,
            "startDate": iso(s), "endDate": iso(e), "status": status(s, e),
            "url": f"https://{domain}/{path}",
            "sourceName": ko if HANGUL.search(title) else en,
            "tags": tags,
        }
        contests.append(rec)
        by_ref["c:" + key] = ("contests", rec)

    news = []
    for key, pub, outlet, title, summary, content, tags in NEWS:
        p = parse(pub, "09:00")
        slug = key.lower()
        rec = {
            "id": make_id("n", key), "title": title, "summary": summary, "content": content,
            "publishedAt": iso(p),
            "url": f"https://{OUTLETS[outlet]}/news/{p:%Y/%m}/{slug}-{make_id('n', key)[2:10]}",
            "sourceName": outlet, "tags": tags,
        }
        news.append(rec)
        by_ref["n:" + key] = ("news_articles", rec)

    bookmarks = []
    for key, user, ref, tag, memo in BOOKMARKS:
        coll, item = by_ref[ref]
        if coll == "contests":
            summary = re.split(r"(?<=[.!?])\s", item["description"])[0]
            itype = "CONTEST"
        else:
            summary = item["summary"]
            itype = "NEWS_ARTICLE"
        rec = {
            "id": make_id("b", key), "userId": user, "itemType": itype, "itemId": item["id"],
            "itemTitle": item["title"], "itemSummary": summary, "tag": tag, "memo": memo,
        }
        bookmarks.append(rec)
        by_ref["b:" + key] = ("bookmarks", rec)

    queries = []
    for i, (user, text, kind, opts, expected, _rule) in enumerate(QUERIES, 1):
        exp = []
        for ref in expected:
            coll, item = by_ref[ref]
            exp.append({"collection": coll, "id": item["id"]})
        queries.append({
            "id": f"{QPREFIX}-{i:03d}", "userId": user, "query": text,
            "options": {"includeContests": opts[0], "includeNews": opts[1], "includeBookmarks": opts[2]},
            "expected": exp, "kind": kind,
        })
    return contests, news, bookmarks, queries


def write(name, rows):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main():
    contests, news, bookmarks, queries = build()
    news.sort(key=lambda r: r["publishedAt"])
    write("contests.jsonl", contests)
    write("news_articles.jsonl", news)
    write("bookmarks.jsonl", bookmarks)
    write("queries.jsonl", queries)
    print(f"wrote {len(contests)} contests, {len(news)} news, {len(bookmarks)} bookmarks, {len(queries)} queries")


if __name__ == "__main__":
    main()
