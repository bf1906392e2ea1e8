"""Time-window definitions for time-word questions (reference date 2026-11-22, Sunday, KST).

mode: overlap   -> contest period [startDate, endDate] (calendar days, KST) overlaps [from, to]
      end       -> contest endDate falls in [from, to]
      start     -> contest startDate falls in [from, to]
      published -> news publishedAt (calendar day, KST) falls in [from, to]
tags_any / tags_all filter by the item's tags (the "type" asked for).
"""
from datetime import date


def W(coll, mode, frm, to, word, tags_any=None, tags_all=None):
    return {"coll": coll, "mode": mode, "from": frm, "to": to, "timeWord": word,
            "tagsAny": tags_any or [], "tagsAll": tags_all or []}


WINDOWS = {
    # contests
    "다음 주에 마감되는 대회 뭐 있어?": W("contests", "end", "2026-11-23", "2026-11-29", "다음 주 = Mon 11-23 .. Sun 11-29"),
    "Anything closing soon? Contests ending within the next week": W("contests", "end", "2026-11-23", "2026-11-29", "closing soon / within a week = 11-23 .. 11-29"),
    "다음 달에 열리는 해커톤 있어?": W("contests", "overlap", "2026-12-01", "2026-12-31", "다음 달 = December 2026", ["hackathon"]),
    "오늘 참가할 수 있는 진행 중인 해커톤 있나요": W("contests", "overlap", "2026-11-22", "2026-11-22", "오늘 = 2026-11-22 (ONGOING)", ["hackathon"]),
    "이번 달 보안 대회 뭐 있었어?": W("contests", "overlap", "2026-11-01", "2026-11-30", "이번 달 = November 2026", ["security"]),
    "12월에 알고리즘 대회 있어?": W("contests", "overlap", "2026-12-01", "2026-12-31", "12월 = December 2026", ["algorithm"]),
    "지난달에 열린 알고리즘 대회들": W("contests", "overlap", "2026-10-01", "2026-10-31", "지난달 = October 2026", ["algorithm"]),
    "작년에 열린 CTF 뭐 있었지?": W("contests", "overlap", "2025-01-01", "2025-12-31", "작년 = 2025", ["ctf"]),
    "내년 1월 해커톤 일정 알려줘": W("contests", "overlap", "2027-01-01", "2027-01-31", "내년 1월 = January 2027", ["hackathon"]),
    "올해 열린 여성 개발자 대상 대회 전부 보여줘": W("contests", "overlap", "2026-01-01", "2026-12-31", "올해 = 2026", ["women"]),
    "any game jam this December?": W("contests", "overlap", "2026-12-01", "2026-12-31", "this December = December 2026", ["gamejam"]),
    "연말에 진행 중인 오픈소스 대회나 스프린트 있어?": W("contests", "overlap", "2026-12-01", "2026-12-31", "연말 = December 2026", ["opensource"]),
    "고등학생이 나갈 수 있는 대회 중에 다음 달에 시작하는 거": W("contests", "start", "2026-12-01", "2026-12-31", "다음 달에 시작 = startDate in December 2026", ["highschool"]),
    # news
    "지난달 보안 사고 뉴스 정리해줘": W("news", "published", "2026-10-01", "2026-10-31", "지난달 = October 2026", ["security"]),
    "이번 주 AI 관련 뉴스 뭐 있어?": W("news", "published", "2026-11-16", "2026-11-22", "이번 주 = Mon 11-16 .. Sun 11-22", ["ai"]),
    "작년 12월 뉴스 보여줘": W("news", "published", "2025-12-01", "2025-12-31", "작년 12월 = December 2025"),
    "올해 투자 유치 소식 모아줘": W("news", "published", "2026-01-01", "2026-12-31", "올해 = 2026", ["funding"]),
    "이번 달 6G 뉴스": W("news", "published", "2026-11-01", "2026-11-30", "이번 달 = November 2026", ["6g"]),
    "last month's telecom news please": W("news", "published", "2026-10-01", "2026-10-31", "last month = October 2026", ["telecom"]),
    "작년 11월에 클라우드 장애 났던 기사 있었지?": W("news", "published", "2025-11-01", "2025-11-30", "작년 11월 = November 2025", None, ["cloud", "incident"]),
    "이번 달 나온 데이터베이스 뉴스": W("news", "published", "2026-11-01", "2026-11-30", "이번 달 = November 2026", ["database"]),
    "지난주 물류 관련 뉴스 있어?": W("news", "published", "2026-11-09", "2026-11-15", "지난주 = Mon 11-09 .. Sun 11-15", ["logistics"]),
    "작년에 나온 6G 관련 기사들": W("news", "published", "2025-01-01", "2025-12-31", "작년 = 2025", ["6g"]),
}


def match(spec, item):
    f, t = date.fromisoformat(spec["from"]), date.fromisoformat(spec["to"])
    tags = set(item["tags"])
    if spec["tagsAny"] and not tags & set(spec["tagsAny"]):
        return False
    if spec["tagsAll"] and not set(spec["tagsAll"]) <= tags:
        return False
    if spec["mode"] == "published":
        d = date.fromisoformat(item["publishedAt"][:10])
        return f <= d <= t
    s, e = date.fromisoformat(item["startDate"][:10]), date.fromisoformat(item["endDate"][:10])
    if spec["mode"] == "overlap":
        return s <= t and e >= f
    if spec["mode"] == "end":
        return f <= e <= t
    if spec["mode"] == "start":
        return f <= s <= t
    raise ValueError(spec["mode"])
