#!/usr/bin/env python3
"""Generate the portal-i catalog (contests, news, bookmarks, queries) from scripts/data_*.py.

Deterministic: every id comes from random.Random(seed string built from a stable key),
and the query order comes from random.Random(20270113).
Run from anywhere: python3 scripts/gen.py
"""
import json
import os
import random
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from data_contests import C  # noqa: E402
from data_news import N  # noqa: E402
from data_users import B, Q  # noqa: E402

REF_DAY = "2027-01-13"
SEED = "portal-i/2027-01-13"
HANGUL = re.compile(r"[\uac00-\ud7a3]")

OUTLETS = {
    "테크온뉴스": "techon.example",
    "AI타임라인": "aitimeline.example",
    "퀀텀위클리": "quantumweekly.example",
    "그린테크데일리": "greentechdaily.example",
    "에듀코드신문": "educode.example",
    "Cloudscope Korea": "cloudscope.example",
    "DevHerald": "devherald.example",
    "Korea AI Review": "koreaaireview.example",
    "Qubit Report": "qubitreport.example",
    "GreenTech Asia": "greentech-asia.example",
    "Campus Code Journal": "campuscode.example",
}


def make_id(prefix, key):
    r = random.Random(f"{SEED}/{prefix}/{key}")
    return f"{prefix}-{r.getrandbits(64):016x}"


def ts(s):
    return s + ":00+09:00"


def status(start, end):
    sd, ed = start[:10], end[:10]
    if ed < REF_DAY:
        return "ENDED"
    if sd > REF_DAY:
        return "UPCOMING"
    return "ONGOING"


def first_sentence(text):
    m = re.match(r"(.+?[.!?다])(\s|$)", text)
    return m.group(1) if m else text


def main():
    cid, nid, bid = {}, {}, {}
    contests, news, bookmarks, queries = [], [], [], []
    c_by_key, n_by_key = {}, {}

    for c in C:
        assert c["k"] not in cid, c["k"]
        cid[c["k"]] = make_id("c", c["k"])
        if c["lang"] == "E":
            assert not HANGUL.search(c["t"]), c["t"]
        else:
            assert HANGUL.search(c["t"]), c["t"]
        row = {
            "id": cid[c["k"]], "title": c["t"], "description": c["d"],
            "startDate": ts(c["s"]), "endDate": ts(c["e"]),
            "status": status(c["s"], c["e"]), "url": c["url"],
            "sourceName": c["org"], "tags": c["tags"],
        }
        contests.append(row)
        c_by_key[c["k"]] = row

    for n in N:
        assert n["k"] not in nid, n["k"]
        nid[n["k"]] = make_id("n", n["k"])
        if n["lang"] == "E":
            assert not HANGUL.search(n["t"]), n["t"]
        else:
            assert HANGUL.search(n["t"]), n["t"]
        assert n["src"] in OUTLETS, n["src"]
        url = f"https://{OUTLETS[n['src']]}/news/{n['p'][:4]}/{n['p'][5:7]}/{n['k']}"
        row = {
            "id": nid[n["k"]], "title": n["t"], "summary": n["s"],
            "content": "\n\n".join(n["c"]), "publishedAt": ts(n["p"]),
            "url": url, "sourceName": n["src"], "tags": n["tags"],
        }
        news.append(row)
        n_by_key[n["k"]] = row

    for key, user, coll, item, tag, memo in B:
        bid[key] = make_id("b", key)
        if coll == "c":
            it = c_by_key[item]
            summ = first_sentence(it["description"])
            itype = "CONTEST"
        else:
            it = n_by_key[item]
            summ = first_sentence(it["summary"])
            itype = "NEWS_ARTICLE"
        bookmarks.append({
            "id": bid[key], "userId": user, "itemType": itype, "itemId": it["id"],
            "itemTitle": it["title"], "itemSummary": summ, "tag": tag, "memo": memo,
        })

    def resolve(ref):
        coll, key = ref.split(":", 1)
        if coll == "c":
            return {"collection": "contests", "id": cid[key]}
        if coll == "n":
            return {"collection": "news_articles", "id": nid[key]}
        return {"collection": "bookmarks", "id": bid[key]}

    order = list(Q)
    random.Random(20270113).shuffle(order)
    table = []
    for i, (tag, user, kind, text, exp) in enumerate(order, 1):
        qid = f"pi-{i:03d}"

        def sub(m):
            return resolve(m.group(1))["id"]
        text = re.sub(r"\{id:([cn]:[a-z0-9-]+)\}", sub, text)
        if kind == "bookmark":
            opts = {"includeContests": False, "includeNews": False, "includeBookmarks": True}
        else:
            opts = {"includeContests": True, "includeNews": True, "includeBookmarks": False}
        queries.append({"id": qid, "userId": user, "query": text, "options": opts,
                        "expected": [resolve(r) for r in exp], "kind": kind})
        table.append((qid, tag))

    def dump(name, rows):
        with open(os.path.join(ROOT, name), "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")

    dump("contests.jsonl", contests)
    dump("news_articles.jsonl", news)
    dump("bookmarks.jsonl", bookmarks)
    dump("queries.jsonl", queries)
    with open(os.path.join(HERE, "query_handles.tsv"), "w", encoding="utf-8") as f:
        for qid, tag in table:
            f.write(f"{qid}\t{tag}\n")

    # summary for README
    st = Counter(r["status"] for r in contests)
    cl = Counter(c["lang"] for c in C)
    nl = Counter(n["lang"] for n in N)
    months = Counter(r["publishedAt"][:7] for r in news)
    kinds = Counter(q["kind"] for q in queries)
    qko = sum(1 for q in queries if HANGUL.search(q["query"]))
    print("contests", len(contests), dict(st), "title scripts", dict(cl))
    print("news", len(news), "title scripts", dict(nl))
    print("news by month", dict(sorted(months.items())))
    print("bookmarks", len(bookmarks), Counter(b["userId"] for b in bookmarks))
    print("queries", len(queries), dict(kinds), "korean", qko)


if __name__ == "__main__":
    main()
