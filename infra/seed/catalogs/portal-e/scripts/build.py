#!/usr/bin/env python3
"""Generate portal-e catalog files (contests, news, bookmarks, queries) from scripts/data_*.py.
Deterministic: ids come from fixed-seed RNGs. Also writes scripts/time_windows.json, the
machine-readable spec of every time-window question, used by validate.py."""
import json, os, random, sys
from datetime import date

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from data_contests import CONTESTS
from data_news_a import NEWS_A
from data_news_b import NEWS_B
from data_queries import BOOKMARKS, QUERIES

REF = date(2026, 11, 22)


def idgen(prefix, seed):
    rng = random.Random(seed)
    seen = set()
    def nxt():
        while True:
            v = prefix + "".join(rng.choice("0123456789abcdef") for _ in range(16))
            if v not in seen:
                seen.add(v)
                return v
    return nxt


def iso(s):
    return s + ":00+09:00"


def status(start, end):
    sd, ed = date.fromisoformat(start[:10]), date.fromisoformat(end[:10])
    if ed < REF:
        return "ENDED"
    if sd > REF:
        return "UPCOMING"
    return "ONGOING"


def main():
    cid = idgen("c-", "portal-e/contests/2026")
    nid = idgen("n-", "portal-e/news/2026")
    bid = idgen("b-", "portal-e/bookmarks/2026")

    contests, ckey = [], {}
    for key, title, desc, st, en, tags, src, url in CONTESTS:
        row = dict(id=cid(), title=title, description=desc, startDate=iso(st), endDate=iso(en),
                   status=status(st, en), url=url, sourceName=src, tags=tags)
        ckey[key] = row
        contests.append(row)

    news, nkey = [], {}
    slugs = {"대덕테크뉴스": "daedeok-technews", "빛고을IT저널": "bitgoeul-itjournal",
             "Hanbat Tech Daily": "hanbat-techdaily", "K-Dev Weekly": "kdev-weekly",
             "메디테크리뷰": "meditech-review", "GovTech Korea Wire": "govtech-korea-wire"}
    for key, pub, title, summary, paras, tags, src in NEWS_A + NEWS_B:
        i = nid()
        row = dict(id=i, title=title, summary=summary, content="\n\n".join(paras),
                   publishedAt=iso(pub), url=f"https://{slugs[src]}.example/articles/{pub[:10].replace('-', '/')}/{i[2:10]}",
                   sourceName=src, tags=tags)
        nkey[key] = row
        news.append(row)
    news.sort(key=lambda r: r["publishedAt"])

    bookmarks, bkey = [], {}
    for user, key, tag, memo in BOOKMARKS:
        if key in ckey:
            it, t = "CONTEST", ckey[key]
            desc = t["description"]
            cut = desc.find(". ")
            summ = desc if cut < 0 else desc[:cut + 1]  # first sentence of the description
        else:
            it, t = "NEWS_ARTICLE", nkey[key]
            summ = t["summary"]
        row = dict(id=bid(), userId=user, itemType=it, itemId=t["id"], itemTitle=t["title"],
                   itemSummary=summ, tag=tag, memo=memo)
        bkey[f"bm:{user}:{key}"] = row
        bookmarks.append(row)

    # queries: shuffle order deterministically so kinds are interleaved
    order = list(range(len(QUERIES)))
    random.Random("portal-e/query-order").shuffle(order)
    queries, windows = [], {}
    for n, qi in enumerate(order, 1):
        kind, user, text, exp, spec = QUERIES[qi]
        qid = f"pe-{n:03d}"
        while "{id:" in text:
            a = text.index("{id:"); b = text.index("}", a)
            text = text[:a] + ckey[text[a + 4:b]]["id"] + text[b + 1:]
        if spec is not None:
            exp_rows = compute_window(spec, contests, news)
            windows[qid] = spec
        else:
            exp_rows = []
            for k in exp:
                if k.startswith("bm:"):
                    exp_rows.append(dict(collection="bookmarks", id=bkey[k]["id"]))
                elif k in ckey:
                    exp_rows.append(dict(collection="contests", id=ckey[k]["id"]))
                else:
                    exp_rows.append(dict(collection="news_articles", id=nkey[k]["id"]))
        if kind == "bookmark":
            opts = dict(includeContests=False, includeNews=False, includeBookmarks=True)
        else:
            opts = dict(includeContests=True, includeNews=True, includeBookmarks=False)
        queries.append(dict(id=qid, userId=user, query=text, options=opts, expected=exp_rows, kind=kind))

    def dump(name, rows):
        with open(os.path.join(ROOT, name), "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    dump("contests.jsonl", contests)
    dump("news_articles.jsonl", news)
    dump("bookmarks.jsonl", bookmarks)
    dump("queries.jsonl", queries)
    with open(os.path.join(HERE, "time_windows.json"), "w", encoding="utf-8") as f:
        json.dump(windows, f, ensure_ascii=False, indent=1)
    print(len(contests), len(news), len(bookmarks), len(queries))


def in_window(d, spec):
    return date.fromisoformat(spec["from"]) <= d <= date.fromisoformat(spec["to"])


def compute_window(spec, contests, news):
    """Shared with validate.py (copied there): returns expected rows for a time-window spec."""
    lo, hi = date.fromisoformat(spec["from"]), date.fromisoformat(spec["to"])
    out = []
    if spec["collection"] == "contests":
        for c in contests:
            if spec["tag"] and spec["tag"] not in c["tags"]:
                continue
            sd, ed = date.fromisoformat(c["startDate"][:10]), date.fromisoformat(c["endDate"][:10])
            m = spec["mode"]
            ok = (m == "overlap" and sd <= hi and ed >= lo) or (m == "end" and lo <= ed <= hi) or \
                 (m == "start" and lo <= sd <= hi)
            if ok:
                out.append(dict(collection="contests", id=c["id"]))
    else:
        for n in news:
            if spec["tag"] and spec["tag"] not in n["tags"]:
                continue
            if lo <= date.fromisoformat(n["publishedAt"][:10]) <= hi:
                out.append(dict(collection="news_articles", id=n["id"]))
    return out


if __name__ == "__main__":
    main()
