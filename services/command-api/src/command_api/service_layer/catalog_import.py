"""Bulk import of the catalog from JSONL files, through the same command path (and events) as the API.

Each line is one item's full state with its public id; it is upserted by that id, each item in a
unit of work of its own (service_layer.catalog.upsert), so importing the same files again finds
every item unchanged and writes nothing (no versions, no outbox rows), and a bad line costs only
itself. Bookmarks carry their userId: the importer is an admin tool acting for the users in the file.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from command_api.domain.catalog import Outcome, item_model
from command_api.service_layer.catalog import upsert
from command_api.service_layer.ports import UnitOfWorkFactory
from techai_shared.errors import AppError
from techai_shared.events import AggregateType

logger = logging.getLogger(__name__)

# kind -> file, in dependency order (bookmarks refer to contests and news)
FILES = {"contests": "contests.jsonl", "newsArticles": "news_articles.jsonl",
         "bookmarks": "bookmarks.jsonl"}
KINDS = {"contests": AggregateType.CONTEST, "newsArticles": AggregateType.NEWS,
         "bookmarks": AggregateType.BOOKMARK}
PROGRESS_EVERY = 20


@dataclass
class ImportCounts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    failed: int = 0

    @property
    def total(self) -> int:
        return self.created + self.updated + self.unchanged + self.failed

    def add(self, outcome: Outcome) -> None:
        setattr(self, outcome.value, getattr(self, outcome.value) + 1)

    def public(self) -> dict[str, int]:
        return asdict(self)


class CatalogImporter:
    """Loads contests, news articles and bookmarks; reports progress through `report`."""

    def __init__(self, uow: UnitOfWorkFactory, report: Callable[[str], None] = logger.info) -> None:
        self._uow = uow
        self._report = report

    async def import_dir(self, directory: Path) -> dict[str, ImportCounts]:
        """Import every file of FILES present in the directory, in order."""
        counts: dict[str, ImportCounts] = {}
        for kind, name in FILES.items():
            path = directory / name
            if not path.is_file():
                self._report(f"{kind}: {path} not found, skipped")
                continue
            with path.open(encoding="utf-8") as lines:
                counts[kind] = await self.import_lines(kind, lines)
        return counts

    async def import_lines(self, kind: str, lines: Iterable[str]) -> ImportCounts:
        """Upsert one item per non-blank line; a bad line is counted as failed and skipped."""
        aggregate, counts = KINDS[kind], ImportCounts()
        model = item_model(aggregate)
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                item = model.model_validate(json.loads(line))
                counts.add((await upsert(self._uow, aggregate, item)).outcome)
            except (ValueError, AppError) as exc:  # ValidationError and JSON errors are ValueErrors
                counts.failed += 1
                self._report(f"{kind}: line {number} skipped: {str(exc).splitlines()[0][:200]}")
            if counts.total % PROGRESS_EVERY == 0:
                self._report(f"{kind}: {counts.total} items ...")
        self._report(f"{kind}: {counts.total} items: {counts.created} created, {counts.updated} updated, "
                     f"{counts.unchanged} unchanged, {counts.failed} failed")
        return counts
