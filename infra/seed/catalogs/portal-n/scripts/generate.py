#!/usr/bin/env python3
"""Generate the portal-n catalog (contests, news, bookmarks, queries) as JSONL."""
import json
import os
import random
import sys
from datetime import date, datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from data_contests import ORGS, CONTESTS  # noqa: E402
from data_news import OUTLETS, NEWS  # noqa: E402
from data_bq import BOOKMARKS, QUESTIONS, TIME_RULES, WINDOWS  # noqa: E402

CATALOG = "portal-n"
QPREFIX = "pn"
KST = timezone(timedelta(hours=9))
NOW = datetime(2027, 4, 21, 12, 0, 0, tzinfo=KST)  # reference date, Asia/Seoul


def make_id(prefix, key):
    rng = random.Random(f"{CATALOG}:{prefix}:{key}")
    return f"{prefix}-{rng.getrandbits(64):016x}"


def has_hangul(s):
    return any("\uac00" <= ch <= "\ud7a3" for ch in s)


def to_dt(s, default_time):
    if "T" in s:
        d, t = s.split("T")
    else:
        d, t = s, default_time
    return datetime.fromisoformat(f"{d}T{t}+09:00")


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%S+09:00")


def status_of(start, end):
    if start > NOW:
        return "UPCOMING"
    if end < NOW:
        return "ENDED"
    return "ONGOING"


def build():
    contests, cmap = [], {}
    for key, org, title, start, end, tags, desc in CONTESTS:
        ko, en, domain = ORGS[org]
        s, e = to_dt(start, "09:00:00"), to_dt(end, "23:59:00")
        rec = {
            "id": make_id("c", key),
            "title": title,
            "description": desc,
            "startDate": iso(s),
            "endDate": iso(e),
            "status": status_of(s, e),
            "url": f"https://{domain}/contests/{key}",
            "sourceName": ko if has_hangul(title) else en,
            "tags": tags,
        }
        contests.append(rec)
        cmap[key] = rec

    news, nmap = [], {}
    for key, outlet, when, title, summary, paras, tags in NEWS:
        name, domain = OUTLETS[outlet]
        dt = datetime.strptime(when, "%Y-%m-%d %H:%M").replace(tzinfo=KST)
        rec = {
            "id": make_id("n", key),
            "title": title,
            "summary": summary,
            "content": "\n\n".join(paras),
            "publishedAt": iso(dt),
            "url": f"https://{domain}/news/{dt.strftime('%Y/%m')}/{key}",
            "sourceName": name,
            "tags": tags,
        }
        news.append(rec)
        nmap[key] = rec
    news.sort(key=lambda r: r["publishedAt"])

    bookmarks, bmap = [], {}
    for key, uid, kind, ikey, tag, isum, memo in BOOKMARKS:
        item = cmap[ikey] if kind == "c" else nmap[ikey]
        if isum is None:
            isum = item["summary"]
        rec = {
            "id": make_id("b", key),
            "userId": uid,
            "itemType": "CONTEST" if kind == "c" else "NEWS_ARTICLE",
            "itemId": item["id"],
            "itemTitle": item["title"],
            "itemSummary": isum,
            "tag": tag,
            "memo": memo,
        }
        bookmarks.append(rec)
        bmap[key] = rec

    def ref(kind, key):
        if kind == "c":
            return {"collection": "contests", "id": cmap[key]["id"]}
        if kind == "n":
            return {"collection": "news_articles", "id": nmap[key]["id"]}
        return {"collection": "bookmarks", "id": bmap[key]["id"]}

    def d(s):
        return date.fromisoformat(s[:10])

    def time_expected(rule):
        ws, we = (date.fromisoformat(x) for x in WINDOWS[rule["window"]])
        out = []
        if rule["collection"] == "contests":
            for c in contests:
                if rule["tag"] and rule["tag"] not in c["tags"]:
                    continue
                sd, ed = d(c["startDate"]), d(c["endDate"])
                ok = (ws <= ed <= we) if rule["mode"] == "deadline" else (sd <= we and ed >= ws)
                if ok:
                    out.append({"collection": "contests", "id": c["id"]})
        else:
            for n in news:
                if rule["tag"] and rule["tag"] not in n["tags"]:
                    continue
                if ws <= d(n["publishedAt"]) <= we:
                    out.append({"collection": "news_articles", "id": n["id"]})
        return out

    queries = []
    for num, uid, kind, text, refs, opt in QUESTIONS:
        options = {"includeContests": True, "includeNews": True,
                   "includeBookmarks": kind == "bookmark"}
        if opt:
            options.update(opt)
        expected = time_expected(TIME_RULES[num]) if refs is None else [ref(k, x) for k, x in refs]
        queries.append({
            "id": f"{QPREFIX}-{num:03d}",
            "userId": uid,
            "query": text,
            "options": options,
            "expected": expected,
            "kind": kind,
        })
    return contests, news, bookmarks, queries


def write(name, rows):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main():
    contests, news, bookmarks, queries = build()
    write("contests.jsonl", contests)
    write("news_articles.jsonl", news)
    write("bookmarks.jsonl", bookmarks)
    write("queries.jsonl", queries)


if __name__ == "__main__":
    main()
