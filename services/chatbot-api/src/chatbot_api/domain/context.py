"""Catalog hits as sources and as numbered context blocks, and the token budgets of a prompt.

Pure functions: the templates come in as strings (prompts/*.txt, versioned), the token counter as
a callable, so the budget rules are tested without a model or a tokenizer table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from chatbot_api.domain.conversation import ChatTurn, window_history
from chatbot_api.domain.hits import Collection, SearchHit
from techai_shared.errors import TokenLimitExceeded

KST = timezone(timedelta(hours=9), "Asia/Seoul")  # Korea keeps no daylight saving time
KIND_KO = {Collection.CONTESTS: "대회", Collection.NEWS: "뉴스", Collection.BOOKMARKS: "내 북마크"}
KIND_EN = {Collection.CONTESTS: "contest", Collection.NEWS: "news", Collection.BOOKMARKS: "my bookmark"}
STATUS_KO = {"UPCOMING": "접수 예정", "ONGOING": "진행 중", "ENDED": "종료"}
STATUS_EN = {"UPCOMING": "upcoming", "ONGOING": "ongoing", "ENDED": "ended"}


def source_of(hit: SearchHit) -> dict[str, Any]:
    """The API's (and the stored message's) shape of one cited item."""
    source = {"documentId": hit.document_id, "collection": hit.collection.value, "title": hit.title,
              "snippet": hit.snippet, "url": hit.url, "score": round(hit.score, 4)}
    if hit.metadata.get("status"):  # a contest: whether it is still open is part of the answer
        source["status"] = hit.metadata["status"]
    return source


def still_true_for(hits: Sequence[SearchHit], now: datetime) -> int | None:
    """Seconds until the first cited contest changes status (its start or end passes), so a
    cached answer never says "진행 중" of a contest that has ended; None when none will."""
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    ahead = [moment for h in hits if h.collection is Collection.CONTESTS
             for key in ("start_date", "end_date")
             if isinstance(moment := h.metadata.get(key), datetime)
             and (moment if moment.tzinfo else moment.replace(tzinfo=UTC)) > now]
    if not ahead:
        return None
    first = min(m if m.tzinfo else m.replace(tzinfo=UTC) for m in ahead)
    return max(0, int((first - now).total_seconds()))


def day(value: Any) -> str | None:
    """A stored timestamp as a Korean calendar day, e.g. 2026-08-31."""
    if not isinstance(value, datetime):
        return None
    aware = value if value.tzinfo else value.replace(tzinfo=UTC)
    return aware.astimezone(KST).date().isoformat()


def details(hit: SearchHit, korean: bool) -> list[str]:
    """Status, dates, source and memo lines of a hit, in the user's language."""
    m = hit.metadata
    lines: list[str] = []
    if m.get("status"):
        status = (STATUS_KO if korean else STATUS_EN).get(m["status"], m["status"])
        lines.append(("상태: " if korean else "Status: ") + status)
    start, end = day(m.get("start_date")), day(m.get("end_date"))
    if start or end:
        lines.append(("기간: " if korean else "Dates: ") + f"{start or '?'} ~ {end or '?'}")
    if day(m.get("published_at")):
        lines.append(("게시일: " if korean else "Published: ") + str(day(m.get("published_at"))))
    if m.get("source_name"):
        lines.append(("출처: " if korean else "Source: ") + str(m["source_name"]))
    if m.get("tag"):
        lines.append(("태그: " if korean else "Tag: ") + str(m["tag"]))
    if m.get("memo"):
        lines.append(("메모: " if korean else "Memo: ") + str(m["memo"]))
    return lines


def context_block(template: str, number: int, hit: SearchHit) -> str:
    """One numbered block of the context template (prompts/context_block_<v>.txt)."""
    return template.format(
        number=number, kind=KIND_EN[hit.collection], document_id=hit.document_id,
        title=hit.title, details="\n".join(details(hit, korean=False)) or "-",
        url=hit.url or "-", snippet=hit.snippet or "-",
    ).strip()


@dataclass(frozen=True)
class Budget:
    context_tokens: int = 3000
    prompt_tokens: int = 4000


@dataclass(frozen=True)
class FittedPrompt:
    turns: list[ChatTurn]
    hits: list[SearchHit]  # the hits whose blocks made it into the prompt: the sources to cite
    prompt_tokens: int


def fit_prompt(
    system: ChatTurn,
    history: Sequence[ChatTurn],
    hits: Sequence[SearchHit],
    question: ChatTurn,
    render_context: Callable[[Sequence[SearchHit]], ChatTurn | None],
    cost: Callable[[ChatTurn], int],
    budget: Budget,
    reply_priming: int = 3,
) -> FittedPrompt:
    """System, history, context, question within the budgets; TokenLimitExceeded if the question
    alone cannot fit.

    Context blocks are kept in rank order while they fit `context_tokens`; then the history is
    trimmed (oldest first) to what the whole prompt leaves, and only when no history is left are
    more context blocks dropped.
    """
    fixed = cost(system) + cost(question) + reply_priming
    if fixed > budget.prompt_tokens:
        raise TokenLimitExceeded(
            f"the question needs {fixed} prompt tokens; the budget is {budget.prompt_tokens}")
    kept = _blocks_within(hits, render_context, cost, budget.context_tokens)
    while True:
        context = render_context(kept)
        context_cost = cost(context) if context else 0
        room = budget.prompt_tokens - fixed - context_cost
        if room >= 0 or not kept:
            break
        kept = kept[:-1]
    trimmed = window_history(history, max(room, 0), cost)
    turns = [system, *trimmed, *([context] if context else []), question]
    used = fixed + context_cost + sum(cost(t) for t in trimmed)
    return FittedPrompt(turns, list(kept), used)


def _blocks_within(hits: Sequence[SearchHit], render: Callable[[Sequence[SearchHit]], ChatTurn | None],
                   cost: Callable[[ChatTurn], int], limit: int) -> list[SearchHit]:
    kept: list[SearchHit] = []
    for hit in hits:
        candidate = render([*kept, hit])
        if candidate is not None and cost(candidate) > limit:
            break
        kept.append(hit)
    return kept
