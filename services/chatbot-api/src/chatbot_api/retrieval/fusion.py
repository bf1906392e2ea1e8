"""Rank fusion shared by both strategies: vector, keyword and, when the question asks for them,
recency (news), names and kind (the items of the kind it names), fused by weighted reciprocal rank;
then the demotions of other years' editions and other divisions (a question naming a year or a
division of a series), and the bonuses on the fused values, status (contests of the asked status
first) and the ended contests' demotion. Each is a function of its own with explicit inputs
(`Candidates`), and `fuse` applies them in the order RANKINGS, DEMOTIONS and BONUSES list. Pure
functions, no I/O.

Each strategy ranks its candidates its own way (the exact one by NumPy cosine and BM25 over every
candidate; the Atlas one by `$vectorSearch` and `$search`), then hands the rankings here, so a
question is ordered by the same rules on Atlas and on the embedded stack. The reported score is
never the fused value: it stays the similarity (1 + cosine) / 2.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

import numpy as np

from chatbot_api.domain.routing import divisions_named
from chatbot_api.retrieval.glossary import keyword_query
from chatbot_api.retrieval.hits import AsOf, to_hit
from chatbot_api.retrieval.intent import QueryIntent, read_intent
from chatbot_api.retrieval.keyword import (
    RRF_K,
    fused_ranks,
    has_hangul,
    rank_array,
    rank_values,
    tokenize,
)
from chatbot_api.retrieval.model import (
    ACTIVE_CONTEST_STATUSES,
    BOOKMARK_ITEM_TYPE,
    Collection,
    SearchHit,
)

_WORDS = re.compile(r"[a-z0-9]+")
# a year of the portal's (2010 to 2039) written as one: 2026, 2026년, 2026-11-22; not 12026,
# CVE-2025-1234, 2030만 원 or 2020명
_YEAR = re.compile(r"(?<![0-9A-Za-z-])20[1-3][0-9]"
                   r"(?![0-9]|\s*(?:[만천억] ?[원명]|[원명](?![가-힣])|달러|%))")
_TAG_PARTS = re.compile(r"[-_\s/]+")
NAME_CANDIDATES = 100  # the keyword side's best documents whose titles are read for names
NAMED_TITLE_SHARE = 0.6  # of an ended contest's title terms in the question: not demoted


@dataclass(frozen=True)
class FusionWeights:
    """Weights of the rankings in the fusion; tuned on infra/seed/queries-dev.jsonl (make eval)."""

    vector: float = 1.0
    keyword: float = 1.0
    recency: float = 0.5  # only for news, and only when the question asks for recent ones
    status: float = 1.0  # orders contests of the asked status first, among contests only (fuse)
    ended: float = 0.1  # ended contests' demotion when the question asks for no status
    names: float = 0.5  # items whose title holds a name of the question (SearchFilters.names)
    kind: float = 0.5  # items of the one kind the question names (QueryIntent.asked_kind)
    tags: float = 0.25  # items tagged with a topic of the question (its words or their glossary's)
    year: float = 0.5  # items whose title names only other years than the question (other_years)
    division: float = 0.5  # items whose title names only the other division (other_divisions)
    # an item written in the other script than the question takes its vector rank plus
    # other_script_offset on the keyword side where the keyword side ranks it lower or not at all
    other_script: bool = True
    other_script_offset: int = 5
    # the vector side ranks an item by its similarity against the others in its script (see fuse)
    vector_by_script: bool = True
    k: int = RRF_K


@dataclass(frozen=True)
class Candidates:
    """What the fusion's rankings and bonuses read of one collection's candidates: the documents,
    the question, and what a caller already holds of them (the index: `ended`, `hangul` and
    `status_of` as arrays, so no document is read for them)."""

    collection: Collection
    docs: Sequence[dict[str, Any]]
    keyword_ranks: Sequence[int | None] | np.ndarray  # 1-based; None or 0: not matched
    query_text: str
    intent: QueryIntent
    names: Sequence[str]
    ended: np.ndarray | None
    hangul: np.ndarray | None
    status_of: np.ndarray | None
    published: np.ndarray | None = None  # news: epoch seconds, 0 where unknown
    tagged_by: Callable[[frozenset[str]], np.ndarray] | None = None  # tags_ranking's matches
    # ranks among more documents than `docs` (a caller fusing only those that can come first):
    # the script-corrected vector side's, and the recency ranking's where it applies
    vector_ranks: np.ndarray | None = None
    recency_ranks: np.ndarray | None = None
    # each document's titles (`title_pair`) as a number and the titles by number, where the caller
    # holds them apart from `docs` (whose reading derives a contest's status): what the names
    # rules and DEMOTIONS read
    title_ids: np.ndarray | None = None
    title_names: Sequence[tuple[str, str]] | None = None

    def titles_of(self, at: np.ndarray, *, own: bool = False) -> tuple[list[str], np.ndarray]:
        """The distinct titles of the documents at `at` (title_of's; with `own`, the document's
        own "title" only), and for each document the position of its own among them."""
        side = 1 if own else 0
        if self.title_ids is not None and self.title_names is not None:
            numbers, which = np.unique(self.title_ids[at], return_inverse=True)
            return [self.title_names[int(n)][side] for n in numbers], which.reshape(-1)
        distinct: dict[str, int] = {}
        which = np.asarray([distinct.setdefault(title_pair(self.docs[int(i)])[side], len(distinct))
                            for i in at], dtype=np.int64)
        return list(distinct), which

    def statuses(self) -> frozenset[str]:
        """The contest statuses the question asks for; none for a question about an article (its
        status word, "복구에 몇 시간 걸렸다고 했던 기사", dates the article, not a contest)."""
        return self.intent.preferred_statuses() if self.intent.asked_kind != "NEWS" else frozenset()


# A ranking added to the vector and keyword sides, with its weight; None where it does not apply.
Ranking = tuple[np.ndarray, float] | None


def script_sides(c: Candidates, similarities: Sequence[float] | np.ndarray,
                 w: FusionWeights) -> tuple[np.ndarray, Sequence[int | None] | np.ndarray]:
    """The vector and keyword rankings, each corrected for the script the items are written in.

    Vector: multilingual-e5 places a question closer to every text in its own language (an
    English question meets English articles at higher cosines than the Korean one it asks about),
    so each item is ranked by its similarity in standard deviations from the mean of the items in
    its script, which takes that offset out and keeps one ranking.

    Keyword: an item in the other script than the question can match its words only through the
    glossary, a name or a number, so its absence from the keyword side is little evidence against
    it: it takes its vector rank there, `other_script_offset` ranks lower, where that is better.
    Without this, an English question about a Korean article ranked every English article it
    shared a word with ("team", "Korean", "open-source") above it; without the few ranks, the best
    items of the other script stood level with an item the question names exactly."""
    hangul = c.hangul
    if c.vector_ranks is not None:
        vector_ranks = c.vector_ranks
    elif hangul is not None and w.vector_by_script:
        vector_ranks = rank_array(standardised_by_script(similarities, hangul))
    else:
        vector_ranks = rank_array(similarities)
    if not w.other_script or hangul is None:
        return vector_ranks, c.keyword_ranks
    other = hangul != has_hangul(c.query_text)
    if not other.any():
        return vector_ranks, c.keyword_ranks
    keyword = rank_values(c.keyword_ranks)
    substitute = vector_ranks + w.other_script_offset
    unmatched = other & (keyword == 0)
    keyword[unmatched] = substitute[unmatched]
    keyword[other] = np.minimum(keyword[other], substitute[other])
    return vector_ranks, keyword


def recency_ranking(c: Candidates, w: FusionWeights) -> Ranking:
    """News, when the question asks for recent ones: newest first."""
    if not recency_applies(c):
        return None
    if c.recency_ranks is not None:
        return c.recency_ranks, w.recency
    published = (c.published if c.published is not None
                 else [_timestamp(d.get("published_at")) for d in c.docs])
    return rank_array(published, positive_only=True), w.recency


def recency_applies(c: Candidates) -> bool:
    return c.collection is Collection.NEWS and c.intent.wants_recent


def names_ranking(c: Candidates, w: FusionWeights) -> Ranking:
    """Every item whose title holds one of the question's names shares rank 1: a name is the
    surest sign of the item meant, and one rare keyword is worth only one rank on BM25's side
    (only among the keyword side's best NAME_CANDIDATES: a title holding a name ranks high there,
    and a name in thousands of documents tells none of them apart)."""
    if not c.names:
        return None
    ranks = rank_values(c.keyword_ranks)
    matched = np.flatnonzero((ranks > 0) & (ranks <= NAME_CANDIDATES))
    named = np.zeros(len(c.docs), dtype=np.int64)
    titles, which = c.titles_of(matched)  # documents sharing a rank often share their title too
    named[matched] = np.asarray([_names_in(t, c.names) for t in titles], dtype=np.int64)[which]
    return named, w.names


def tags_ranking(c: Candidates, w: FusionWeights) -> Ranking:
    """Every item tagged with a topic the question names shares rank 1: a catalog's tags are its
    own topics ("LLM 뉴스", "보안 대회", "hackathons in December": the items tagged llm, security,
    hackathon), which an article's text may not spell out. A tag matches when every part of it
    ("data-breach": data, breach) is one of the question's terms or their glossary equivalents.
    Only for a question that asks which items there are (a lookup or dates: "블록체인 관련 대회
    있어?", "지난달 LLM 뉴스"), and not one that names an item (its names): "하늘3 API 가격" asks
    about 하늘-3, not about everything tagged api, and "솔방울 양자 해커톤" about the contest of
    that title, tagged hackathon or not."""
    terms = tag_terms(c, w)
    if not terms:
        return None
    if c.tagged_by is not None:
        tagged = c.tagged_by(terms).astype(np.int64)
    else:
        tagged = np.asarray([tagged_with(d.get("tags"), terms) for d in c.docs], dtype=np.int64)
    return (tagged, w.tags) if tagged.any() else None


def tag_terms(c: Candidates, w: FusionWeights) -> frozenset[str]:
    """The terms tags_ranking matches tags against; empty where it does not apply."""
    if not w.tags or c.names or not c.intent.asks_for_list:
        return frozenset()
    return _expanded_terms(c.query_text)


def tag_parts(tag: Any) -> tuple[str, ...]:
    """The words of a tag ("data-breach": data, breach), lower-cased."""
    return tuple(p for p in _TAG_PARTS.split(str(tag).lower()) if p)


def tagged_with(tags: Sequence[Any] | None, terms: frozenset[str]) -> bool:
    """Whether one of `tags` has every part among `terms` (tags_ranking's match)."""
    return any((parts := tag_parts(tag)) and all(p in terms for p in parts) for tag in tags or ())


def kind_ranking(c: Candidates, w: FusionWeights) -> Ranking:
    """Every item of the kind the question names shares rank 1; a bookmark is of its item's kind."""
    if c.intent.asked_kind is None:
        return None
    return _of_kind(c.collection, c.docs, c.intent.asked_kind), w.kind


def status_order(c: Candidates, fused: np.ndarray, w: FusionWeights) -> np.ndarray:
    """Contests of a status the question asks for first, among contests only: every one of them
    shares rank 1, a bonus that orders the contests among themselves and leaves their standing
    against the other collections as it was (added to their values, it put every ended contest
    above the article a question about an ended contest's result asks for, "작년 블루하버 CTF
    본선에서 우승한 팀은 어떤 전략으로 이겼대?", though that article came first on both sides). A
    contest the question names counts as one of the asked status ("별빛 게임잼 지난 여름 테마랑
    이번 겨울 시즌 신청 마감": the winter one is named, though it has not ended)."""
    statuses = c.statuses()
    if not status_order_applies(c):
        return fused
    status = (np.isin(c.status_of, list(statuses)) if c.status_of is not None
              else np.asarray([d.get("status") in statuses for d in c.docs], dtype=bool))
    status |= _named_by(c, among=~status)
    return _reordered(fused, fused + fused_ranks([status.astype(np.int64)], [w.status], w.k))


def status_order_applies(c: Candidates) -> bool:
    return c.collection is Collection.CONTESTS and bool(c.statuses())


def ended_demotion(c: Candidates, fused: np.ndarray, w: FusionWeights) -> np.ndarray:
    """When the question asks for no status, an ended contest loses what a first rank is worth
    times `ended`: below active contests and news of the same standing, above those clearly worse.
    Not a contest the question names: a question about one specific event finds it whatever its
    status."""
    if c.collection is not Collection.CONTESTS or c.statuses():
        return fused
    ended = c.ended
    if ended is None:
        ended = np.asarray([d.get("status") not in ACTIVE_CONTEST_STATUSES for d in c.docs],
                           dtype=bool)
    demoted = ended & ~_named_by(c, among=ended)
    fused = fused.copy()
    fused[demoted] -= w.ended / (w.k + 1)
    return fused


def other_years(c: Candidates, levels: np.ndarray, w: FusionWeights) -> np.ndarray:
    """When the question names a year ("Dandan CTF 2026 본선", "2025 예선"), an item whose title
    names years and none of the question's loses what a first rank is worth times `year`: the
    other editions of a yearly series share every word of the one asked about but the year, which
    one keyword among many hardly moves. An item whose title names no year keeps its place."""
    asked = _years_in(c.query_text)
    if not asked or not w.year:
        return levels
    return _demoted(c, levels, lambda years: bool(years) and not years & asked, _years_in, w.year, w)


def other_divisions(c: Candidates, levels: np.ndarray, w: FusionWeights) -> np.ndarray:
    """When the question names one division of a series and not its counterpart (본선 and not
    예선, "student division" and not the general one: the rules' [divisions]), an item whose title
    names the counterpart and not the asked one loses what a first rank is worth times `division`,
    as other_years does for other years' editions ("파수꾼 CTF 2026 본선 우승팀" asks about the
    finals, not the qualifier that shares every other word of its title). Contests only, saved
    ones too: the article on a qualifier's results is titled by its finalists ("2026 본선 진출자
    60명 발표")."""
    if c.collection is Collection.NEWS:
        return levels
    named = _divisions_in(c.query_text)
    asked = frozenset((pair, side) for pair, side in named if (pair, 1 - side) not in named)
    if not asked or not w.division:
        return levels
    counterparts = frozenset((pair, 1 - side) for pair, side in asked)
    contests = (_of_kind(c.collection, c.docs, "CONTEST").astype(bool)
                if c.collection is Collection.BOOKMARKS else None)
    return _demoted(c, levels, lambda held: bool(held & counterparts) and not held & asked,
                    _divisions_in, w.division, w, among=contests)


def _demoted(c: Candidates, levels: np.ndarray, demote: Callable[[frozenset[Any]], bool],
             read: Callable[[str], frozenset[Any]], weight: float, w: FusionWeights,
             among: np.ndarray | None = None) -> np.ndarray:
    """`levels` less what a first rank is worth times `weight` for each document (of `among`,
    when given) whose title's `read` meets `demote`. Every document's title is read: the whole
    fusion of a shard, up to index.PRUNE_ABOVE documents, reads them all."""
    if not len(c.docs):
        return levels
    titles, which = c.titles_of(np.arange(len(c.docs)))
    lowered = np.asarray([demote(read(t)) for t in titles], dtype=bool)[which]
    if among is not None:
        lowered &= among
    if not lowered.any():
        return levels
    levels = levels.copy()
    levels[lowered] -= weight / (w.k + 1)
    return levels


@lru_cache(maxsize=16_384)  # titles recur from question to question
def _years_in(text: str) -> frozenset[str]:
    return frozenset(_YEAR.findall(text))


@lru_cache(maxsize=16_384)
def _divisions_in(text: str) -> frozenset[tuple[int, int]]:
    return divisions_named(text)


# The rankings fused with the vector and keyword sides; the demotions that only lower the fused
# values (part of the levels status_order orders by); and the bonuses applied to the fused values
# after, each in this order.
RANKINGS = (recency_ranking, names_ranking, tags_ranking, kind_ranking)
DEMOTIONS = (other_years, other_divisions)
BONUSES = (status_order, ended_demotion)


def fuse(
    collection: Collection,
    docs: Sequence[dict[str, Any]],
    similarities: Sequence[float] | np.ndarray,
    keyword_ranks: Sequence[int | None] | np.ndarray,
    query_text: str,
    weights: FusionWeights,
    names: Sequence[str] = (),
    ended: np.ndarray | None = None,
    hangul: np.ndarray | None = None,
    status_of: np.ndarray | None = None,
    published: np.ndarray | None = None,
    tagged_by: Callable[[frozenset[str]], np.ndarray] | None = None,
) -> np.ndarray:
    """The fused rank value of each of `docs` (higher is better): the script-corrected vector and keyword
    sides and each of RANKINGS that applies, fused by weighted reciprocal rank, then each of DEMOTIONS
    and BONUSES in turn. `keyword_ranks` is 1-based, None (or 0 in an array) where the keyword side did
    not match the document. `ended` marks the ended contests among `docs` where the caller holds it
    already (the index, whose `docs` read each document only on demand); otherwise it is read from the
    documents' status; `status_of`, each contest's status, the same way. `hangul` marks the documents
    whose title is written in Hangul, the same way (`written_in_hangul`); `published` their publication
    (news) and `tagged_by` which of them have a tag matching a set of terms (`tagged_with`), the
    same way."""
    if hangul is None and (weights.other_script or weights.vector_by_script):
        hangul = np.asarray([written_in_hangul(d) for d in docs], dtype=bool)
    c = Candidates(collection, docs, keyword_ranks, query_text, read_intent(query_text), names,
                   ended, hangul, status_of, published, tagged_by)
    return fuse_levels(c, similarities, weights)[1]


def fuse_levels(c: Candidates, similarities: Sequence[float] | np.ndarray,
                weights: FusionWeights) -> tuple[np.ndarray, np.ndarray]:
    """fuse() of `c`: the fused values before BONUSES (the levels, DEMOTIONS applied) and after."""
    vector_ranks, keyword_side = script_sides(c, similarities, weights)
    rankings: list[Sequence[int | None] | np.ndarray] = [vector_ranks, keyword_side]
    factors = [weights.vector, weights.keyword]
    for ranking in RANKINGS:
        if (added := ranking(c, weights)) is not None:
            rankings.append(added[0])
            factors.append(added[1])
    levels = fused_ranks(rankings, factors, weights.k)
    for demotion in DEMOTIONS:
        levels = demotion(c, levels, weights)
    fused = levels
    for bonus in BONUSES:
        fused = bonus(c, fused, weights)
    return levels, fused


def bound_outside(c: Candidates, w: FusionWeights, vector_rank: int, keyword_rank: int,
                  recency_rank: int, tagged: bool) -> float:
    """The highest value a document fused with `c`'s but left out of it can reach, in the terms
    status_order orders by (its level plus the asked status's rank, where that applies): one whose
    best possible ranks are those given (0: none on that side), holding no name of the question,
    and a tag that tags_ranking matches only when `tagged`. The kind ranking, where it applies,
    ranks every document of a collection alike. DEMOTIONS and ended contests' demotion only lower a
    value."""
    # the terms in fused_ranks' order (the vector and keyword sides, then RANKINGS): rounded
    # additions of smaller terms in the same order never come out larger
    bound = w.vector / (w.k + vector_rank)
    if keyword_rank:
        bound += w.keyword / (w.k + keyword_rank)
    if recency_applies(c) and recency_rank:
        bound += w.recency / (w.k + recency_rank)
    if tagged:
        bound += w.tags / (w.k + 1)
    if c.intent.asked_kind is not None and _KIND_OF.get(c.collection) == c.intent.asked_kind:
        bound += w.kind / (w.k + 1)
    if status_order_applies(c):
        bound += w.status / (w.k + 1)
    return bound + 4 * float(np.spacing(bound))  # and a margin of a few floats all the same


def best(fused: Sequence[float] | np.ndarray, similarities: Sequence[float] | np.ndarray,
         min_score: float, limit: int) -> list[int]:
    """Indexes of the best `limit` candidates by fused value (similarity breaks ties, then the
    order given), each with a similarity of at least `min_score`."""
    fused_values = np.asarray(fused, dtype=np.float64)
    similarity = np.asarray(similarities, dtype=np.float64)
    eligible = np.flatnonzero(similarity >= min_score)
    if limit <= 0 or not len(eligible):
        return []
    if len(eligible) > limit:  # only those at or above the limit-th fused value can make the cut
        cut = -np.partition(-fused_values[eligible], limit - 1)[limit - 1]
        eligible = eligible[fused_values[eligible] >= cut]
    order = eligible[np.lexsort((-similarity[eligible], -fused_values[eligible]))]
    return [int(i) for i in order[:limit]]


def fused_hits(collection: Collection, docs: Sequence[dict[str, Any]],
               similarities: Sequence[float] | np.ndarray,
               keyword_ranks: Sequence[int | None] | np.ndarray, query_text: str,
               weights: FusionWeights, min_score: float, limit: int,
               names: Sequence[str] = (), ended: np.ndarray | None = None,
               hangul: np.ndarray | None = None, *, as_of: datetime,
               status_of: np.ndarray | None = None, published: np.ndarray | None = None,
               tagged_by: Callable[[frozenset[str]], np.ndarray] | None = None
               ) -> list[SearchHit]:
    """The best `limit` of `docs` as hits, in fused order: what every strategy returns once it
    has ranked its candidates its own way. Contests are read with the status their dates give as
    of `as_of` (`ended` and `status_of`, when given, must say the same)."""
    docs = AsOf(collection, docs, as_of, status_of)
    fused = fuse(collection, docs, similarities, keyword_ranks, query_text, weights, names, ended,
                 hangul, status_of, published, tagged_by)
    return [to_hit(collection, docs[i], float(similarities[i]), float(fused[i]))
            for i in best(fused, similarities, min_score, limit)]


def _named_by(c: Candidates, among: np.ndarray) -> np.ndarray:
    """Which of the contests the question names: at least NAMED_TITLE_SHARE of its title's terms
    are the question's ("코드포지 챔피언십 예선" names 코드포지 알고리즘 챔피언십 2026 예선). Only those
    of `among` that the keyword side ranks among its best NAME_CANDIDATES are read."""
    named = np.zeros(len(c.docs), dtype=bool)
    ranks = rank_values(c.keyword_ranks)
    read = np.flatnonzero(among & (ranks > 0) & (ranks <= NAME_CANDIDATES))
    if not len(read):
        return named
    asked = _asked_terms(c.query_text)
    titles, which = c.titles_of(read, own=True)  # sharing a rank, often a title too
    named[read] = np.asarray([_named(_title_terms(t), asked) for t in titles], dtype=bool)[which]
    return named


def _named(title: tuple[str, ...], asked: frozenset[str]) -> bool:
    return bool(title) and sum(t in asked for t in title) >= NAMED_TITLE_SHARE * len(title)


@lru_cache(maxsize=256)  # one question's collections read them: computed once
def _asked_terms(question: str) -> frozenset[str]:
    return frozenset(tokenize(question))


@lru_cache(maxsize=256)
def _expanded_terms(question: str) -> frozenset[str]:
    return frozenset(tokenize(keyword_query(question)))


@lru_cache(maxsize=16_384)  # the keyword side's best titles recur from question to question
def _title_terms(title: str) -> tuple[str, ...]:
    return tuple(tokenize(title))


def standardised_by_script(similarities: Sequence[float] | np.ndarray, hangul: np.ndarray,
                            scripts: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Each similarity in standard deviations from the mean of the documents written in the same
    script (a script of one document: 0, its mean). `scripts`, when the caller holds them: the
    positions in Hangul and in other scripts (np.flatnonzero of hangul and of ~hangul)."""
    sims = np.asarray(similarities, dtype=np.float64)
    if scripts is None:  # positions gather faster than a boolean mask
        scripts = (np.flatnonzero(hangul), np.flatnonzero(~hangul))
    if len(sims) and 0 in (len(scripts[0]), len(scripts[1])):  # one script: no group to take apart
        return _standardised(sims)
    standardised = np.zeros(len(sims), dtype=np.float64)
    for group in scripts:
        if len(group) >= 2:
            standardised[group] = _standardised(sims[group])
    return standardised


def _standardised(values: np.ndarray) -> np.ndarray:
    """(values - mean) / max(std, 1e-9), with NumPy's arithmetic for std (the deviations from
    the mean, squared, summed, divided by their number), the deviations computed once."""
    deviations = values - np.add.reduce(values) / len(values)  # values.mean(), without its checks
    spread = float(np.sqrt(np.add.reduce(deviations * deviations) / len(values)))
    deviations /= max(spread, 1e-9)
    return deviations


def _reordered(levels: np.ndarray, order: np.ndarray) -> np.ndarray:
    """`levels`' values, given out best first in the order of `order` (its ties broken by
    `levels`): the same standing, in another order. Equal values are parted by the least step a
    float allows, so the order holds where the standing was level too."""
    values = _strictly_decreasing(np.sort(levels)[::-1])
    result = np.empty_like(levels)
    result[np.lexsort((-levels, -order))] = values
    return result


_MAGNITUDE = np.int64(0x7FFF_FFFF_FFFF_FFFF)


def _strictly_decreasing(values: np.ndarray) -> np.ndarray:
    """`values` (descending) with each one not below its predecessor moved to the float just
    below it (np.nextafter towards -inf), in one pass: floats as integers in their order, where
    one float step is one integer step, then a running minimum."""
    bits = values.view(np.int64)
    keys = np.where(bits >= 0, bits, -(bits & _MAGNITUDE))  # -0.0 and +0.0 alike: 0
    steps = np.arange(len(keys), dtype=np.int64)
    keys = np.minimum.accumulate(keys + steps) - steps
    return np.where(keys >= 0, keys, (-keys) | ~_MAGNITUDE).view(np.float64)


_KIND_OF = {Collection.CONTESTS: "CONTEST", Collection.NEWS: "NEWS"}


def _of_kind(collection: Collection, docs: Sequence[dict[str, Any]], kind: str) -> np.ndarray:
    """1 for each of `docs` of `kind` ("CONTEST" or "NEWS"), else 0."""
    if collection is Collection.BOOKMARKS:
        item_type = BOOKMARK_ITEM_TYPE.get(kind)
        return np.asarray([1 if d.get("item_type") == item_type else 0 for d in docs],
                          dtype=np.int64)
    return np.full(len(docs), 1 if _KIND_OF.get(collection) == kind else 0, dtype=np.int64)


def written_in_hangul(doc: dict[str, Any]) -> bool:
    """Whether the item's title (a bookmark's: its item's) holds Hangul."""
    return has_hangul(title_of(doc))


def title_of(doc: dict[str, Any]) -> str:
    """The item's title (a bookmark's: its item's)."""
    return str(doc.get("title") or doc.get("item_title") or "")


def title_pair(doc: dict[str, Any]) -> tuple[str, str]:
    """title_of(doc), and the document's own title (what the rules about a contest's name read)."""
    return title_of(doc), str(doc.get("title") or "")


def _names_in(title: str, names: Sequence[str]) -> bool:
    """Whether `title` holds one of `names`: a Latin name as a word of its own (Kafka, not the
    kafka of "Kafkaesque"), a Hangul one anywhere (a particle may follow it)."""
    title = title.lower()
    words = set(_WORDS.findall(title))
    return any(name in words if name.isascii() else name in title for name in names)


def _timestamp(value: Any) -> float:
    return value.timestamp() if isinstance(value, datetime) else 0.0
