"""The padded catalog the gate is measured on at the portal's size (devstack.pad_catalog)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest
from devstack.evaluate import as_of_date, read_jsonl
from devstack.pad_catalog import padded

from techai_shared.contest_status import contest_status

pytestmark = pytest.mark.unit

SAMPLE = Path("infra/seed")


def test_the_sample_is_filled_up_with_new_items_that_keep_the_schema(tmp_path: Path) -> None:
    as_of = as_of_date("2026-11-22")
    folder = padded(SAMPLE, tmp_path / "pad", 300, as_of)
    for kind in ("contests.jsonl", "news_articles.jsonl"):
        original = read_jsonl(SAMPLE / kind)
        rows = read_jsonl(folder / kind)
        assert len(rows) == 300 and rows[:len(original)] == original  # the sample, then padding
        added = rows[len(original):]
        assert len({r["id"] for r in rows}) == 300  # new ids, none a sample item's
        assert all(re.fullmatch(r"[cn]-[0-9a-f]{16}", r["id"]) for r in added)
        assert not {r["title"] for r in original} & {r["title"] for r in added}
        assert all(set(r) == set(original[0]) for r in added)  # the sample's fields
    sample_contests = len(read_jsonl(SAMPLE / "contests.jsonl"))
    for contest in read_jsonl(folder / "contests.jsonl")[sample_contests:]:
        start = datetime.fromisoformat(contest["startDate"])
        end = datetime.fromisoformat(contest["endDate"])
        assert contest["status"] == contest_status(start, end, as_of).value  # true as of the day
    bookmarks = "bookmarks.jsonl"
    assert (folder / bookmarks).read_text() == (SAMPLE / bookmarks).read_text()


def test_padding_is_the_same_from_one_run_to_the_next(tmp_path: Path) -> None:
    as_of = as_of_date("2026-11-22")
    one = padded(SAMPLE, tmp_path / "one", 250, as_of)
    two = padded(SAMPLE, tmp_path / "two", 250, as_of)
    for name in ("contests.jsonl", "news_articles.jsonl"):
        assert (one / name).read_bytes() == (two / name).read_bytes()
