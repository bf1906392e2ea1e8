"""The in-memory catalog index: the exact strategy at the cost of a dot product (docs/architecture.md,
Retrieval; docs/decisions/0018-in-memory-catalog-index.md).

Contests and news are held in this process: one float32 matrix of unit vectors per collection, the
keyword side's postings (term -> slots and term frequencies, built once per document), and the
pre-filter fields as arrays. A search is one matrix-vector product, BM25 from the postings of the
documents the pre-filter keeps, and the same fusion as ExactStrategy, which stays the reference: for
the same catalog both return the same ids in the same order with the same scores (a test holds them
to it). Bookmarks are per user and few: they are read per question, filtered by the caller's user
id, exactly as ExactStrategy reads them.

The shards and their search are here, pure; adapters/catalog_index.py (CatalogIndex) fills them
from MongoDB. Freshness: `load()` reads both collections in full; `refresh()` then reads what query-sync wrote
since (its `projected_at` stamp, on documents and on `catalog_tombstones`): from the start of the
previous read minus an overlap that covers a write committed after its stamp, and clock skew.
Applying a document is idempotent (a version not newer than the held one is skipped), so the
overlap costs a few re-reads, never correctness. The deletions read are remembered (id -> version)
and `load()` reads every tombstone after the documents: query-sync writes an item's tombstone before
it removes the document, so a read can meet a document whose deletion is under way (Shard.deleted).
A search refreshes first when the last refresh is older than the refresh interval, so what a search
sees is at most that interval behind the read model, with no background task to manage.
"""

from __future__ import annotations

import logging
import math
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from chatbot_api.retrieval.fusion import (
    NAME_CANDIDATES,
    Candidates,
    FusionWeights,
    best,
    bound_outside,
    fuse_levels,
    fused_hits,
    recency_applies,
    standardised_by_script,
    status_order_applies,
    tag_parts,
    tag_terms,
    title_pair,
    written_in_hangul,
)
from chatbot_api.retrieval.glossary import keyword_query
from chatbot_api.retrieval.hits import AsOf, LazyDocs, hit_fields, to_hit
from chatbot_api.retrieval.intent import read_intent
from chatbot_api.retrieval.keyword import document_terms, has_hangul, query_terms, rank_array
from chatbot_api.retrieval.model import (
    ACTIVE_CONTEST_STATUSES,
    Collection,
    SearchFilters,
    SearchHit,
    prefilter,
)

logger = logging.getLogger(__name__)

INDEXED = (Collection.CONTESTS, Collection.NEWS)
TOMBSTONES = "catalog_tombstones"  # written by query-sync's catalog projector
REFRESH_OVERLAP = timedelta(seconds=2)  # commit lag and clock skew, generously
NOT_READ = {"_id": 0, "embedding_hash": 0}
# bm25s's defaults (method "lucene"), which ExactStrategy scores with
BM25_K1, BM25_B = 1.5, 0.75
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_STATUS_NAMES = np.asarray(["ONGOING", "UPCOMING", "ENDED"])  # Shard.statuses' codes 0, 1, 2
# Above PRUNE_ABOVE kept documents a search fuses only those that can come first: the best
# PRUNE_KEEP of each side, ties included (see _pruned_hits).
PRUNE_ABOVE = 2_000
PRUNE_KEEP = 256


@dataclass
class _Slot:
    document_id: str
    version: int
    doc: dict[str, Any]  # what to_hit and the fusion read (hits.hit_fields)
    terms: tuple[str, ...]  # its distinct terms, to take it out of their postings
    tags: tuple[tuple[str, ...], ...]  # its tags' parts (fusion.tag_parts), the same way


class Shard:
    """One collection's documents in slots (the order they arrived in, as a find() returns them).

    The postings are two arrays per term, the slots holding it (ascending) and its frequency in
    each; a new document's entries wait in lists until the term is next read, so loading stays
    linear. A deleted document leaves a hole (alive = False) until holes make up a quarter of the
    slots; then the shard is compacted, keeping the order."""

    def __init__(self, collection: Collection, dimensions: int) -> None:
        self.collection = collection
        self.dimensions = dimensions
        self.slots: list[_Slot | None] = []
        self.where: dict[str, int] = {}
        self.matrix = np.zeros((0, dimensions), dtype=np.float32)
        self.lengths = np.zeros(0, dtype=np.int64)
        self.alive = np.zeros(0, dtype=bool)
        self.active = np.zeros(0, dtype=bool)  # contests stored with an active status
        self.stated_ended = np.zeros(0, dtype=bool)  # stored with another (ENDED), not none
        # contests: start and end in epoch seconds, NaN when unknown; the status is derived from
        # them as of each search (techai_shared.contest_status), the stored one only when undated
        self.starts = np.zeros(0, dtype=np.float64)
        self.ends = np.zeros(0, dtype=np.float64)
        self.hangul = np.zeros(0, dtype=bool)  # titles written in Hangul (fusion.written_in_hangul)
        self.published = np.zeros(0, dtype=np.float64)  # news: epoch seconds, NaN when unknown
        # each slot's title as a number, and the titles by number (the names rules read them):
        # fusion.title_of's and the document's own "title" (they differ only without one)
        self.title_ids = np.zeros(0, dtype=np.int64)
        self.title_names: list[tuple[str, str]] = []
        self._title_numbers: dict[tuple[str, str], int] = {}
        self.postings: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._pending: dict[str, tuple[list[int], list[int]]] = {}
        # BM25 over every slot: each term's scores, and the length factor, until the shard changes
        self._scored: dict[str, tuple[np.ndarray, np.ndarray] | None] = {}
        self._factor: np.ndarray | None = None
        # over every slot, until the shard changes: news' recency ranks, the two scripts' slots
        self._recency: np.ndarray | None = None
        self._scripts: tuple[np.ndarray, np.ndarray] | None = None
        self._alive_slots: np.ndarray | None = None  # what a search without a pre-filter keeps
        self._published_zero: np.ndarray | None = None  # published_or_zero over every slot
        # a tag's parts -> the slots tagged with it, and those as an array once a search asks
        self.tagged: dict[tuple[str, ...], set[int]] = {}
        self._tags_with: dict[str, set[tuple[str, ...]]] = {}  # a part -> the tags holding it
        self._tagged_arrays: dict[tuple[str, ...], np.ndarray] = {}
        self.foreign_models: dict[str, str] = {}  # document id -> another embedding model
        # Document id -> the newest deletion read (its tombstone's version): a document of that
        # version or an older one is not held again. A read can meet such a document after its
        # tombstone: query-sync removes it only after writing the tombstone, and during a rebalance
        # a member slowed down between its tombstone check and its write puts it back, stamped
        # after the tombstone, until its own check removes it. The tombstone, read already or
        # stamped before the resume point, is not read again to take the document out.
        self.deleted: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.where)

    def put(self, doc: dict[str, Any], model_name: str) -> bool:
        """Add or replace a document; False when the held version is as new or newer, or when a
        deletion read already covers this version."""
        document_id = doc["document_id"]
        version = int(doc.get("version", 0))
        if version <= self.deleted.get(document_id, 0):
            return False  # its deletion was read already: the document is on its way out
        at = self.where.get(document_id)
        if at is not None:
            held = self.slots[at]
            assert held is not None
            if held.version >= version:
                return False
        vector = doc.get("embedding_vector") or []
        self._changed()
        self.foreign_models.pop(document_id, None)
        if not vector:  # not searchable (ExactStrategy skips it too)
            self._drop(document_id)
            return True
        if doc.get("embedding_model") != model_name or len(vector) != self.dimensions:
            self.foreign_models[document_id] = str(doc.get("embedding_model"))
            self._drop(document_id)
            return True
        appended = at is None
        if at is None:
            at = self._append()
            self.where[document_id] = at
        else:
            self._unpost(at)
        counts = Counter(sys.intern(t) for t in document_terms(str(doc.get("embedding_text", ""))))
        tags = tuple(dict.fromkeys(parts for t in doc.get("tags") or () if (parts := tag_parts(t))))
        self.slots[at] = _Slot(document_id, version, hit_fields(self.collection, doc), tuple(counts),
                               tags)
        for parts in tags:
            self.tagged.setdefault(parts, set()).add(at)
            self._tagged_arrays.pop(parts, None)
            for part in parts:
                self._tags_with.setdefault(part, set()).add(parts)
        row = np.asarray(vector, dtype=np.float64)
        norm = float(np.linalg.norm(row))
        self.matrix[at] = (row / norm if norm > 0 else row).astype(np.float32)
        self.lengths[at] = sum(counts.values())
        self.alive[at] = True
        self.active[at] = doc.get("status") in ACTIVE_CONTEST_STATUSES
        self.stated_ended[at] = doc.get("status") not in (None, *ACTIVE_CONTEST_STATUSES)
        self.starts[at] = _epoch_or_nan(doc.get("start_date"))
        self.ends[at] = _epoch_or_nan(doc.get("end_date"))
        self.hangul[at] = written_in_hangul(doc)
        self.published[at] = _epoch_or_nan(doc.get("published_at"))
        self.title_ids[at] = self._title_number(title_pair(doc))
        if len(self.title_names) > 2 * len(self.slots) + 64:  # many renamed: drop the old titles
            self._renumber_titles()
        for term, tf in counts.items():
            if appended:  # a slot above every other: its entries go last
                pending = self._pending.setdefault(term, ([], []))
                pending[0].append(at)
                pending[1].append(tf)
            else:
                slots, freqs = self.posting(term)
                i = int(np.searchsorted(slots, at))
                self.postings[term] = (np.insert(slots, i, at), np.insert(freqs, i, np.float32(tf)))
        return True

    def remove(self, document_id: str, version: int) -> bool:
        """Drop a document deleted at `version` (a held newer version, a re-creation, stays), and
        keep out any document of that version or an older one read later (see `deleted`)."""
        self.deleted[document_id] = max(version, self.deleted.get(document_id, 0))
        self.foreign_models.pop(document_id, None)
        at = self.where.get(document_id)
        if at is None:
            return False
        held = self.slots[at]
        assert held is not None
        if held.version >= version:
            return False
        self._drop(document_id)
        return True

    def _drop(self, document_id: str) -> None:
        at = self.where.pop(document_id, None)
        if at is None:
            return
        self._changed()
        self._unpost(at)
        self.slots[at] = None
        self.alive[at] = False
        if len(self.slots) >= 64 and len(self.where) < 0.75 * len(self.slots):
            self._compact()

    def _unpost(self, at: int) -> None:
        held = self.slots[at]
        if held is None:
            return
        for parts in held.tags:
            tagged = self.tagged.get(parts)
            if tagged is not None:
                tagged.discard(at)
                if not tagged:
                    del self.tagged[parts]
                    for part in set(parts):  # a part may repeat ("bye-bye")
                        holding = self._tags_with[part]
                        holding.discard(parts)
                        if not holding:
                            del self._tags_with[part]
            self._tagged_arrays.pop(parts, None)
        for term in held.terms:
            slots, freqs = self.posting(term)
            keep = slots != at
            if keep.all():
                continue
            if keep.any():
                self.postings[term] = (slots[keep], freqs[keep])
            else:
                del self.postings[term]

    def _append(self) -> int:
        at = len(self.slots)
        self.slots.append(None)
        if at >= len(self.alive):
            capacity = max(64, 2 * len(self.alive))
            self.matrix = _grown(self.matrix, capacity)
            self.lengths = _grown(self.lengths, capacity)
            self.alive = _grown(self.alive, capacity)
            self.active = _grown(self.active, capacity)
            self.stated_ended = _grown(self.stated_ended, capacity)
            self.starts = _grown(self.starts, capacity)
            self.ends = _grown(self.ends, capacity)
            self.hangul = _grown(self.hangul, capacity)
            self.published = _grown(self.published, capacity)
            self.title_ids = _grown(self.title_ids, capacity)
        return at

    def _renumber_titles(self) -> None:
        """Number the titles of the documents held again (those of documents gone or renamed are
        dropped)."""
        self.title_names, self._title_numbers = [], {}
        for at, slot in enumerate(self.slots):
            if slot is not None:
                self.title_ids[at] = self._title_number(title_pair(slot.doc))

    def _title_number(self, title: tuple[str, str]) -> int:
        number = self._title_numbers.get(title)
        if number is None:
            number = self._title_numbers[title] = len(self.title_names)
            self.title_names.append(title)
        return number

    def _compact(self) -> None:
        for term in list(self._pending):
            self.posting(term)
        kept = [i for i, s in enumerate(self.slots) if s is not None]
        moved = np.full(len(self.slots), -1, dtype=np.int64)
        moved[kept] = np.arange(len(kept))
        self.slots = [self.slots[i] for i in kept]
        self.where = {s.document_id: i for i, s in enumerate(self.slots) if s is not None}
        size = len(self.alive)
        for name in ("matrix", "lengths", "alive", "active", "stated_ended", "starts", "ends",
                     "hangul", "published"):
            array = getattr(self, name)
            compacted = np.zeros((size, *array.shape[1:]), dtype=array.dtype)
            compacted[:len(kept)] = array[kept]
            setattr(self, name, compacted)
        self._renumber_titles()
        self.postings = {t: (moved[slots], freqs) for t, (slots, freqs) in self.postings.items()}
        self.tagged = {parts: {int(moved[i]) for i in slots} for parts, slots in self.tagged.items()}
        self._tagged_arrays = {}

    def tagged_among(self, kept: slice | np.ndarray, terms: frozenset[str]) -> np.ndarray:
        """Which of the kept slots (indexes, or a slice of them) have a tag whose every part is
        among `terms` (fusion.tagged_with), from the tag index: no document is read."""
        hit = np.zeros(len(self.alive), dtype=bool)
        named = {parts for term in terms for parts in self._tags_with.get(term, ())}
        for parts in named:  # the tags holding a part among the terms: then all of them?
            slots = self.tagged[parts]
            if all(p in terms for p in parts):
                held = self._tagged_arrays.get(parts)
                if held is None:
                    held = self._tagged_arrays[parts] = np.fromiter(slots, dtype=np.int64,
                                                                    count=len(slots))
                hit[held] = True
        return hit[kept]

    def _changed(self) -> None:
        self._scored.clear()
        self._factor = None
        self._recency = None
        self._scripts = None
        self._alive_slots = None
        self._published_zero = None

    def _every_slot(self, at: slice | np.ndarray) -> bool:
        return isinstance(at, slice) and at == slice(0, len(self.slots))

    def recency_ranks(self, at: slice | np.ndarray) -> np.ndarray:
        """The kept slots' ranks by publication, newest first (0: unknown), as fusion ranks them;
        over every slot (`at` the slice of them all) kept until the shard changes."""
        if not self._every_slot(at):
            return rank_array(self.published_or_zero(at), positive_only=True)
        if self._recency is None:
            self._recency = rank_array(self.published_or_zero(slice(0, len(self.slots))),
                                       positive_only=True)
        return self._recency

    def scripts(self, at: slice | np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """The positions among the kept slots of titles in Hangul and in other scripts, over every
        slot (`at` the slice of them all) kept until the shard changes; None for a subset (computed by the
        caller)."""
        if not self._every_slot(at):
            return None
        if self._scripts is None:
            hangul = self.hangul[:len(self.slots)]
            self._scripts = (np.flatnonzero(hangul), np.flatnonzero(~hangul))
        return self._scripts

    def term_scores(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        """`term`'s BM25 scores over every slot (_term_scores), kept until the shard changes."""
        if term in self._scored:
            return self._scored[term]
        if term not in self.postings and term not in self._pending:
            return None  # in no document: not kept, or any word asked would grow the cache
        if self._factor is None:
            self._factor = _length_factor(self.lengths[:len(self.slots)])
        slots, tf = self.posting(term)
        found = self._scored[term] = _term_scores(slots, tf, self._factor, len(self.slots))
        return found

    def posting(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """The slots holding `term`, ascending, and its frequency in each (float32, as bm25s)."""
        pending = self._pending.pop(term, None)
        held = self.postings.get(term)
        if pending is not None:
            slots = np.asarray(pending[0], dtype=np.int64)
            freqs = np.asarray(pending[1], dtype=np.float32)
            if held is not None:
                slots, freqs = np.concatenate((held[0], slots)), np.concatenate((held[1], freqs))
            held = self.postings[term] = (slots, freqs)
        if held is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        return held

    def kept(self, filters: SearchFilters) -> np.ndarray:
        """The slots a search with `filters` considers (`mask`'s, ascending). Without a pre-filter
        they are the live slots, kept until the shard changes (callers only read them)."""
        if prefilter(self.collection, "", filters):
            return np.flatnonzero(self.mask(filters))
        if self._alive_slots is None:
            self._alive_slots = np.flatnonzero(self.alive[:len(self.slots)])
        return self._alive_slots

    def mask(self, filters: SearchFilters) -> np.ndarray:
        """The slots a search with `filters` considers: the pre-filter of model.prefilter()."""
        n = len(self.slots)
        keep = self.alive[:n].copy()
        if self.collection is Collection.CONTESTS:
            keep &= self._contest_mask(n, filters)
        if self.collection is Collection.NEWS:
            published = self.published[:n]
            if filters.published_after is not None:
                keep &= published >= _epoch(filters.published_after)
            if filters.published_before is not None:
                keep &= published <= _epoch(filters.published_before)
        return keep

    def _contest_mask(self, n: int, filters: SearchFilters) -> np.ndarray:
        """model.prefilter's contest conditions over the arrays (NaN, undated: out, as in MQL)."""
        keep = np.ones(n, dtype=bool)
        ends, starts = self.ends[:n], self.starts[:n]
        with np.errstate(invalid="ignore"):
            for path, bounds in prefilter(self.collection, "", filters).items():
                values = ends if path == "end_date" else starts
                if "$gte" in bounds:
                    keep &= values >= _epoch(bounds["$gte"])
                if "$lt" in bounds:
                    keep &= values < _epoch(bounds["$lt"])
        return keep

    def ended(self, at: slice | np.ndarray, now: datetime) -> np.ndarray:
        """Which of the contests at `at` (kept slots) have ended as of `now`, as contest_status
        says: past their end; an undated one if it was stored ENDED (not one stored without a
        status); one with a start but no end never."""
        ends, starts = self.ends[at], self.starts[at]
        dated = ~np.isnan(ends)
        with np.errstate(invalid="ignore"):
            past = ends < _epoch(now)
        return np.where(dated, past, np.isnan(starts) & self.stated_ended[at])

    def published_or_zero(self, at: slice | np.ndarray) -> np.ndarray:
        """The publication (epoch seconds) of the slots at `at`, 0 where unknown (fusion's)."""
        if self._published_zero is None:
            self._published_zero = np.nan_to_num(self.published[:len(self.slots)], nan=0.0)
        return self._published_zero[at]

    def statuses(self, kept: np.ndarray, at: slice | np.ndarray, now: datetime,
                 ended: np.ndarray) -> np.ndarray:
        """Each kept contest's status as of `now`, from the arrays (contest_status's rule), so the
        fusion reads no document for it; one without a start that has not ended keeps its stored
        status when that is an active one. `at` reads the kept slots of the arrays."""
        starts = self.starts[at]
        with np.errstate(invalid="ignore"):
            upcoming = starts > _epoch(now)
        derived = _STATUS_NAMES[np.where(ended, 2, upcoming.astype(np.int8))]
        for i in np.flatnonzero(np.isnan(starts) & ~ended):  # no start: the stored one, if active
            slot = self.slots[int(kept[i])]
            stored = slot.doc.get("status") if slot is not None else None
            derived[i] = stored if stored in ACTIVE_CONTEST_STATUSES else "ONGOING"
        return derived

    def memory_bytes(self) -> int:
        """The arrays, the postings and the held fields (Python objects estimated with getsizeof;
        a string shared by several documents is counted once per document)."""
        for term in list(self._pending):
            self.posting(term)
        arrays = sum(a.nbytes for a in (self.matrix, self.lengths, self.alive, self.active,
                                        self.stated_ended, self.starts, self.ends, self.hangul,
                                        self.published, self.title_ids))
        # the title numbering's containers (its strings are the held documents' own)
        arrays += sys.getsizeof(self.title_names) + sys.getsizeof(self._title_numbers)
        postings = sys.getsizeof(self.postings) + sum(
            sys.getsizeof(t) + s.nbytes + f.nbytes + 2 * 112 for t, (s, f) in self.postings.items())
        held = sum(_deep_size(s.doc) + sys.getsizeof(s.terms) + sys.getsizeof(s)
                   for s in self.slots if s is not None)
        scored = sum(sys.getsizeof(t) + (0 if f is None else f[1].nbytes)
                     for t, f in self._scored.items())  # f[0] is the posting's own array
        scored += sum(a.nbytes for a in (self._factor, self._recency, *(self._scripts or ()),
                                         self._alive_slots, self._published_zero)
                      if a is not None)
        tags = sum(sys.getsizeof(p) + sys.getsizeof(slots) + 28 * len(slots)
                   for p, slots in self.tagged.items())
        tags += sum(a.nbytes for a in self._tagged_arrays.values())
        tags += sum(sys.getsizeof(held) + 8 * len(held) for held in self._tags_with.values())
        return arrays + postings + held + scored + tags + _deep_size(self.deleted)


def search_shard(shard: Shard, query: np.ndarray, query_text: str, limit: int, min_score: float,
                 filters: SearchFilters, weights: FusionWeights) -> list[SearchHit]:
    held = len(shard.slots)
    kept = shard.kept(filters)
    if not len(kept):
        return []
    # every slot kept (no filter, no hole): the arrays are read as views, not copied by index
    at: slice | np.ndarray = slice(0, held) if len(kept) == held else kept
    norm = float(np.linalg.norm(query))
    unit = (query / norm if norm > 0 else query).astype(np.float32)
    # (1 + cosine) / 2 within [0, 1], computed in place (the same operations, no temporaries)
    similarities = (shard.matrix[:held] @ unit)[at].astype(np.float64)
    similarities += 1.0
    similarities /= 2.0
    np.clip(similarities, 0.0, 1.0, out=similarities)
    scores = _bm25(shard, kept, keyword_query(query_text))
    now = filters.moment()
    # what the rankings read of every kept document; the pruned fusion reads the few it fuses
    # (the keyword side's ranks, contests' ends and statuses, news' publication) itself
    whole = Candidates(shard.collection, _Held(shard.slots, kept), (), query_text,
                       read_intent(query_text), filters.names, None, shard.hangul[at], None,
                       None, lambda terms: shard.tagged_among(at, terms))
    if len(kept) > PRUNE_ABOVE and limit > 0:
        hits = _pruned_hits(shard, kept, at, whole, similarities, scores, weights, min_score,
                            limit, now)
        if hits is not None:
            return hits
    ended = published = None
    if shard.collection is Collection.CONTESTS:
        ended = shard.ended(at, now)
    else:
        published = shard.published_or_zero(at)
    status_of = None if ended is None else shard.statuses(kept, at, now, ended)
    keyword_ranks = rank_array(scores, positive_only=True)
    return fused_hits(shard.collection, whole.docs, similarities, keyword_ranks, query_text,
                      weights, min_score, limit, filters.names, ended=ended, hangul=whole.hangul,
                      as_of=now, status_of=status_of, published=published, tagged_by=whole.tagged_by)


def _pruned_hits(shard: Shard, kept: np.ndarray, at: slice | np.ndarray, whole: Candidates,
                 similarities: np.ndarray, scores: np.ndarray, weights: FusionWeights,
                 min_score: float, limit: int, now: datetime) -> list[SearchHit] | None:
    """The hits fused_hits gives over every kept document, from the fusion of the few that can
    come first; None where that cannot be told, and the caller fuses them all.

    Kept: the best PRUNE_KEEP on the vector side (script-corrected), on the keyword side (at
    least the NAME_CANDIDATES the names and title rules read) and, where it applies, on recency,
    each with its ties; and the documents the tags ranking matches when they are few. They are
    fused with the ranks they hold among all kept documents. A document left out holds no better
    ranks than the cuts leave it on each side and no name, so bound_outside bounds its value;
    the hits stand when the value at the last hit's place is above that bound (then no document
    left out comes before it or changes the values given out before it) and, when fewer than
    `limit` are eligible, no document left out is eligible either."""
    n = len(kept)
    keep = max(PRUNE_KEEP, 4 * limit)
    if keep >= n:
        return None
    hangul = whole.hangul
    assert hangul is not None
    vector = (standardised_by_script(similarities, hangul, shard.scripts(at))
              if weights.vector_by_script else similarities)
    order = _Order(vector)  # the cut, and below the vector ranks of those fused among all n
    if order.holds_nan:  # an embedding gone wrong: the whole fusion, which ranks NaN its own way
        return None
    cut, at_or_above = order.best(keep)
    chosen = vector >= cut
    keyword = _Ranked(scores)
    keyword_cut = max(keep, NAME_CANDIDATES)
    chosen |= keyword.within(keyword_cut)
    recency = None
    if recency_applies(whole):
        recency = shard.recency_ranks(at)
        chosen |= (recency > 0) & (recency <= keep)
    tagged = None
    if terms := tag_terms(whole, weights):
        assert whole.tagged_by is not None
        tagged = whole.tagged_by(terms)
        if np.count_nonzero(tagged) <= keep:  # few: fused; many: bounded (bound_outside)
            chosen |= tagged
    picked = np.flatnonzero(chosen)
    if len(picked) == n:
        return None
    # The best ranks a document left out can hold, bounded from the cuts rather than read from
    # the documents left out (each masked pass over all of them cost more than the bound saves):
    # it is below the vector cut, so every value at or above the cut ranks before it; below the
    # keyword cut, so every positive score at or above that cut does; past the recency cut.
    vector_rank = 1 + at_or_above
    keyword_rank = keyword.best_outside(keyword_cut)
    asked_hangul = has_hangul(whole.query_text)
    other_script = np.count_nonzero(hangul) if not asked_hangul else n - np.count_nonzero(hangul)
    if weights.other_script and other_script > np.count_nonzero(hangul[picked] != asked_hangul):
        substitute = vector_rank + weights.other_script_offset  # script_sides' substitute rank
        keyword_rank = min(keyword_rank, substitute) if keyword_rank else substitute
    recency_rank = 0
    if recency is not None and np.count_nonzero(recency) > np.count_nonzero(recency[picked]):
        recency_rank = keep + 1
    tagged_left = tagged is not None and bool(np.count_nonzero(tagged) > np.count_nonzero(tagged[picked]))
    bound = bound_outside(whole, weights, vector_rank, keyword_rank, recency_rank, tagged_left)
    # similarities are at least 0 (clipped; a NaN returned above)
    eligible_left = min_score <= 0 or bool(similarities[~chosen].max() >= min_score)

    slots = kept[picked]
    contests = shard.collection is Collection.CONTESTS
    ended = shard.ended(slots, now) if contests else None
    status_of = None if ended is None else shard.statuses(slots, slots, now, ended)
    c = Candidates(
        whole.collection, AsOf(whole.collection, _Held(shard.slots, slots), now, status_of),
        keyword.ranks(scores[picked]), whole.query_text, whole.intent, whole.names, ended, hangul[picked],
        status_of,
        None if contests else shard.published_or_zero(slots),
        None if tagged is None else lambda _: tagged[picked],  # its terms: the same as above
        vector_ranks=order.ranks(vector[picked]),
        recency_ranks=None if recency is None else recency[picked],
        title_ids=shard.title_ids[slots], title_names=shard.title_names)
    sims = similarities[picked]
    levels, fused = fuse_levels(c, sims, weights)
    hits = best(fused, sims, min_score, limit)
    if len(hits) < limit and eligible_left:
        return None
    if hits:
        place = int(np.count_nonzero(fused >= fused[hits[-1]]))
        standing = levels if status_order_applies(c) else fused
        if -np.partition(-standing, place - 1)[place - 1] <= bound:
            return None
    return [to_hit(c.collection, c.docs[i], float(sims[i]), float(fused[i])) for i in hits]


class _Order:
    """Exact order statistics of `values` (float64) from a float32 copy sorted, which NumPy sorts
    in about half the time: rounding to float32 keeps the order (a value above another never
    rounds below it), so only values that round alike are compared in full."""

    MAX_SHARED = 32  # rounded values shared by several of the values asked about; past it, a full sort

    def __init__(self, values: np.ndarray) -> None:
        self._values = values
        self._rounded = values.astype(np.float32)
        self._sorted = np.sort(self._rounded)

    @property
    def holds_nan(self) -> bool:
        return bool(len(self._sorted)) and bool(np.isnan(self._sorted[-1]))  # NaN sorts last

    def best(self, k: int) -> tuple[float, int]:
        """The k-th greatest value (1 <= k <= n), ties counted, and how many values are at least
        that one (k or more)."""
        n = len(self._sorted)
        rounded = self._sorted[n - k]
        above = n - int(np.searchsorted(self._sorted, rounded, side="right"))  # all truly above
        alike = np.sort(self._values[self._rounded == rounded])
        value = alike[len(alike) - (k - above)]
        return float(value), above + len(alike) - int(np.searchsorted(alike, value, side="left"))

    def ranks(self, members: np.ndarray) -> np.ndarray:
        """1 + how many values are greater than each of `members` (values of this population)."""
        rounded = members.astype(np.float32)
        right = np.searchsorted(self._sorted, rounded, side="right")
        ranks = len(self._sorted) - right + 1
        # each member is among the values, so the value below its last equal tells whether its
        # rounded value is shared
        shared = np.flatnonzero((right >= 2) & (self._sorted[np.maximum(right - 2, 0)] == rounded))
        if not len(shared):  # each rounds alone: the rounded order is the order
            return ranks
        groups = sorted(set(rounded[shared].tolist()))
        if len(groups) > self.MAX_SHARED:
            ordered = np.sort(self._values)
            return len(ordered) - np.searchsorted(ordered, members, side="right") + 1
        for value in groups:
            alike = np.sort(self._values[self._rounded == value])
            at = shared[rounded[shared] == value]
            ranks[at] += len(alike) - np.searchsorted(alike, members[at], side="right")
        return ranks


class _Ranked:
    """The keyword side's ranks (keyword.rank_array(scores, positive_only=True)) read where they
    are needed, from the positive scores sorted (several times faster than ranking them all)."""

    def __init__(self, scores: np.ndarray) -> None:
        self._scores = scores
        self._positive = np.sort(scores[scores > 0])

    def ranks(self, values: np.ndarray | float) -> np.ndarray:
        """The rank of each of `values` (scores of documents): one more than the positive scores
        above it; 0 for one not positive."""
        above = len(self._positive) - np.searchsorted(self._positive, values, side="right")
        return np.where(np.asarray(values) > 0, above + 1, 0)

    def best_outside(self, cut: int) -> int:
        """The best rank a document not `within(cut)` can hold: one more than the positive scores
        at or above the cut; 0 (no rank) when every positive score is within it."""
        if len(self._positive) <= cut:
            return 0
        at_cut = self._positive[len(self._positive) - cut]
        return 1 + len(self._positive) - int(np.searchsorted(self._positive, at_cut, side="left"))

    def within(self, cut: int) -> np.ndarray:
        """Which documents rank at most `cut`: a positive score at or above the cut-th best."""
        if len(self._positive) <= cut:
            return self._scores > 0
        return self._scores >= self._positive[len(self._positive) - cut]


class _Held(LazyDocs):
    """The held fields of the kept slots, read only where needed."""

    def __init__(self, slots: list[_Slot | None], kept: np.ndarray) -> None:
        self._slots = slots
        self._kept = kept

    def __len__(self) -> int:
        return len(self._kept)

    def doc(self, i: int) -> dict[str, Any]:
        slot = self._slots[int(self._kept[i])]
        assert slot is not None
        return slot.doc


def _bm25(shard: Shard, kept: np.ndarray, query: str) -> np.ndarray:
    """BM25 of `query` over the kept slots, with the statistics of those documents only and the
    arithmetic of bm25s (float32 scores per term, summed in the query's term order), so the ranks
    equal those of ExactStrategy's bm25s index over the same texts. When every slot is kept, each
    term's scores are the shard's own until it changes (Shard.term_scores)."""
    scores = np.zeros(len(kept), dtype=np.float32)
    terms = query_terms(query)
    if not terms:
        return scores
    if len(kept) == len(shard.slots):  # every slot is kept: a slot is its own position
        for term in terms:
            if (found := shard.term_scores(term)) is not None:
                scores[found[0]] += found[1]
        return scores
    factor = _length_factor(shard.lengths[kept])
    per_term: dict[str, tuple[np.ndarray, np.ndarray] | None] = {}
    for term in terms:
        if term not in per_term:
            slots, tf = shard.posting(term)
            at = np.searchsorted(kept, slots)
            inside = (at < len(kept)) & (kept[np.minimum(at, len(kept) - 1)] == slots)
            per_term[term] = _term_scores(at[inside], tf[inside], factor, len(kept))
        if (found := per_term[term]) is not None:
            scores[found[0]] += found[1]
    return scores


def _length_factor(lengths: np.ndarray) -> np.ndarray:
    return BM25_K1 * ((1 - BM25_B) + BM25_B * lengths / lengths.mean())


def _term_scores(where: np.ndarray, freq: np.ndarray, factor: np.ndarray, total: int
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """One term's BM25 scores at the positions holding it; None where none does (a term not in
    the documents' vocabulary is skipped, as bm25s does)."""
    if not len(where):
        return None
    df = len(where)
    idf = np.float32(math.log(1 + (total - df + 0.5) / (df + 0.5)))
    tfc = freq / (factor[where] + freq)
    return where, (np.float64(idf) * tfc).astype(np.float32)


def _epoch(value: datetime) -> float:
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()


def _epoch_or_nan(value: Any) -> float:
    return _epoch(value) if isinstance(value, datetime) else math.nan


def _grown(array: np.ndarray, capacity: int) -> np.ndarray:
    grown = np.zeros((capacity, *array.shape[1:]), dtype=array.dtype)
    grown[:len(array)] = array
    return grown


def _deep_size(value: Any) -> int:
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(_deep_size(k) + _deep_size(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return sys.getsizeof(value) + sum(_deep_size(v) for v in value)
    return sys.getsizeof(value)
