"""A catalog padded to many items per collection, for measuring the engine at the portal's size.

The gate's statistics (the peak of a question's cosines over the catalog, the coverage of its words
by its closest items) change with the catalog's size; the labelled sets ask about a few hundred
items. `padded` writes a copy of a catalog folder whose contests and news articles are filled up to
`size` each with made-up items: an invented name under a new id, and sentences drawn, one each,
from different items of other catalogs (infra/seed and the DONORS of infra/seed/catalogs, the
padded one left out), so each padding item reads like a portal's catalog without repeating what the
labelled questions ask about: drawn from the catalog's own items, each of its sentences stood in
some sixty padding items, and a question about a detail met sixty near-copies of its answer
(recall@5 of dev fell from 0.955 to 0.606). Padding items are short (a contest one or two
sentences, an article a summary and two): a 2,000-character article costs 250 ms to embed, a
180-character text 60 ms, and 20,000 of them are embedded twice (text and head). Bookmarks are
copied as they are (they are the user's own, and the gate does not read them).

Deterministic: the same catalog and size give the same files.

    python -m devstack.pad_catalog SOURCE TARGET --size 10000 --as-of 2026-11-22
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from devstack.evaluate import SEED_FILES, as_of_date, read_jsonl
from query_sync.catalog_documents import BOOKMARKS, CONTESTS, NEWS_ARTICLES
from techai_shared.clock import SEOUL
from techai_shared.contest_status import contest_status

_SENTENCE_END = re.compile(r"(?<=[.!?다요])\s+")
_LATIN_SYLLABLES = ("ka", "lo", "vex", "mir", "tal", "on", "zen", "ru", "dra", "pel", "quo", "sen",
                    "vi", "nor", "bex", "tu", "lan", "fi", "gor", "sha")
_HANGUL_SYLLABLES = "가나다라마바사아자차카타파하누리온별솔빛채결새봄담윤슬해달"
_CONTEST_KINDS = ("해커톤", "Hackathon", "챌린지", "Challenge", "공모전", "CTF", "게임잼", "Game Jam",
                  "알고리즘 대회", "Coding Cup", "아이디어 경진대회", "Data Challenge")
_NEWS_TOPICS = ("신규 서비스 공개", "launches new platform", "투자 유치", "raises funding",
                "보안 업데이트 발표", "ships security update", "오픈소스로 공개", "open-sources toolkit",
                "개발자 행사 개최", "hosts developer summit", "요금제 개편", "changes pricing")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if len(s.strip()) > 15]


def invented_name(rng: random.Random) -> str:
    """A made-up organiser or product name, Latin or Hangul (never one of the catalog's)."""
    if rng.random() < 0.5:
        return "".join(rng.choice(_LATIN_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
    return "".join(rng.choice(_HANGUL_SYLLABLES) for _ in range(rng.randint(2, 3)))


def _pool(items: list[dict[str, Any]], *fields: str) -> list[list[str]]:
    return [found for item in items for field in fields
            if (found := sentences(str(item.get(field) or "")))]


def _draw(rng: random.Random, pool: list[list[str]], n: int) -> list[str]:
    """`n` sentences, each from a different item's text."""
    return [rng.choice(rng.choice(pool)) for _ in range(n)]


def padding_contests(items: list[dict[str, Any]], n: int, as_of: datetime,
                     rng: random.Random) -> list[dict[str, Any]]:
    pool, tags = _pool(items, "description"), [t for item in items for t in item.get("tags", [])]
    out = []
    for i in range(n):
        name = invented_name(rng)
        start = datetime(2025, 1, 1, 10, tzinfo=SEOUL) + timedelta(days=rng.randint(0, 1090))
        end = start + timedelta(days=rng.choice((1, 2, 7, 14, 30, 45, 60)), hours=8)
        out.append({
            "id": f"c-{rng.getrandbits(64):016x}",
            "title": f"{name} {rng.choice(_CONTEST_KINDS)} {start.year}",
            "description": " ".join(_draw(rng, pool, rng.randint(1, 2))),
            "startDate": start.isoformat(), "endDate": end.isoformat(),
            "status": contest_status(start, end, as_of).value,
            "url": f"https://contests.example/pad/{i}", "sourceName": f"{name} 운영사무국",
            "tags": sorted(set(rng.sample(tags, min(2, len(tags))))) if tags else [],
        })
    return out


def padding_news(items: list[dict[str, Any]], n: int, as_of: datetime,
                 rng: random.Random) -> list[dict[str, Any]]:
    pool = _pool(items, "summary", "content")
    tags = [t for item in items for t in item.get("tags", [])]
    out = []
    for i in range(n):
        name = invented_name(rng)
        published = as_of - timedelta(days=rng.randint(1, 700), hours=rng.randint(0, 12))
        out.append({
            "id": f"n-{rng.getrandbits(64):016x}",
            "title": f"{name}, {rng.choice(_NEWS_TOPICS)}",
            "summary": _draw(rng, pool, 1)[0],
            "content": " ".join(_draw(rng, pool, 2)),
            "publishedAt": published.isoformat(),
            "url": f"https://news.example/pad/{i}", "sourceName": f"{name} 뉴스",
            "tags": sorted(set(rng.sample(tags, min(2, len(tags))))) if tags else [],
        })
    return out


SEED = Path("infra/seed")
# The catalog folders (of infra/seed/catalogs) whose sentences pad, with infra/seed itself: a fixed
# list, so a catalog added later changes neither the padded files nor their cached embedding.
DONORS = ("portal-a", "portal-b", "portal-c", "portal-d", "portal-e", "portal-f")


def donors_of(source: Path, seed: Path = SEED) -> list[Path]:
    """The catalogs whose sentences pad `source`: infra/seed and DONORS, `source` left out. A
    missing donor is an error: without it the padding would change silently."""
    folders = [seed, *(seed / "catalogs" / name for name in DONORS)]
    missing = [str(f) for f in folders if not (f / SEED_FILES[CONTESTS]).exists()]
    if missing:
        raise FileNotFoundError(f"padding donor catalogs missing: {', '.join(missing)}")
    return [f for f in folders if f.resolve() != source.resolve()]


def padded(source: Path, target: Path, size: int, as_of: datetime, seed: int = 7,
           donors: list[Path] | None = None) -> Path:
    """`source` with its contests and news filled up to `size` each from the sentences of
    `donors` (default: `donors_of(source)`), written to `target`."""
    rng = random.Random(seed)
    target.mkdir(parents=True, exist_ok=True)
    donors = donors_of(source) if donors is None else donors
    for kind, make in ((CONTESTS, padding_contests), (NEWS_ARTICLES, padding_news)):
        items = read_jsonl(source / SEED_FILES[kind])
        others = [item for folder in donors for item in read_jsonl(folder / SEED_FILES[kind])]
        extra = make(others, max(0, size - len(items)), as_of, rng)
        lines = [json.dumps(item, ensure_ascii=False) for item in items + extra]
        (target / SEED_FILES[kind]).write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.copyfile(source / SEED_FILES[BOOKMARKS], target / SEED_FILES[BOOKMARKS])
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("target", type=Path)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--as-of", default="2026-11-22")
    args = parser.parse_args()
    padded(args.source, args.target, args.size, as_of_date(args.as_of))
    print(f"{args.target}: contests and news filled up to {args.size} each")


if __name__ == "__main__":
    main()
