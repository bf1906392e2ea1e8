# -*- coding: utf-8 -*-
"""Window rules used by generate.py (validate.py has an independent copy)."""
from datetime import date, datetime, timedelta, timezone

KST = timezone(timedelta(hours=9))
REF_DAY = date(2026, 12, 16)


def kst_day(ts):
    return datetime.fromisoformat(ts).astimezone(KST).date()


def contest_status(c, ref=REF_DAY):
    s, e = kst_day(c["startDate"]), kst_day(c["endDate"])
    if e < ref:
        return "ENDED"
    if s > ref:
        return "UPCOMING"
    return "ONGOING"


def _d(s):
    return date.fromisoformat(s)


def contest_in_window(c, spec):
    s, e = kst_day(c["startDate"]), kst_day(c["endDate"])
    mode = spec["mode"]
    if mode == "ongoing":
        ok = contest_status(c) == "ONGOING"
    else:
        lo, hi = _d(spec["frm"]), _d(spec["to"])
        if mode == "overlap":
            ok = s <= hi and e >= lo
        elif mode == "start":
            ok = lo <= s <= hi
        elif mode == "end":
            ok = lo <= e <= hi
        else:
            raise ValueError(mode)
    if ok and spec.get("tags"):
        ok = any(t in c["tags"] for t in spec["tags"])
    if ok and spec.get("org"):
        ok = c["sourceName"] == spec["org"]
    return ok


def news_in_window(n, spec):
    assert spec["mode"] == "published"
    d = kst_day(n["publishedAt"])
    ok = _d(spec["frm"]) <= d <= _d(spec["to"])
    if ok and spec.get("tags"):
        ok = any(t in n["tags"] for t in spec["tags"])
    return ok


def matches_window(data, spec, user):
    coll = spec["coll"]
    if coll == "contests":
        return [c["id"] for c in data["contests"] if contest_in_window(c, spec)]
    if coll == "news":
        return [n["id"] for n in data["news"] if news_in_window(n, spec)]
    if coll == "bookmarks":
        cs = {c["id"]: c for c in data["contests"]}
        return [b["id"] for b in data["bookmarks"]
                if b["userId"] == user and b["itemType"] == "CONTEST"
                and contest_in_window(cs[b["itemId"]], spec)]
    raise ValueError(coll)
