"""Routes of /api/v1/chatbot: chat and the caller's sessions."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import date, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import StreamingResponse

from chatbot_api.adapters.usage import usage_between
from chatbot_api.domain.context import KST
from chatbot_api.domain.conversation import normalize_title
from chatbot_api.entrypoints.deps import ContainerDep, CurrentUser
from chatbot_api.entrypoints.schemas import (
    ChatPublic,
    ChatRequest,
    MessagePublic,
    Page,
    SessionInfo,
    SessionPublic,
    TitleUpdate,
    TokenUsagePublic,
    UsageDayPublic,
)
from chatbot_api.service_layer.chat import ChatOptions
from techai_shared.clock import utcnow
from techai_shared.envelope import success
from techai_shared.errors import InvalidInput

MAX_USAGE_DAYS = 366

router = APIRouter(prefix="/api/v1/chatbot", tags=["chatbot"])



@router.post("")
async def create_chat(body: ChatRequest, user: CurrentUser, c: ContainerDep, response: Response
                      ) -> dict[str, Any]:
    result = await c.chat.chat(user, body.message, body.conversation_id, _options(body))
    if result.quota is not None:
        response.headers.update(result.quota.headers())
    session = result.session
    data = ChatPublic(
        response=result.answer,
        conversation_id=session.session_id,
        sources=result.sources,
        session_info=SessionInfo(title=session.title, created_at=session.created_at,
                                 message_count=session.message_count),
        token_usage=TokenUsagePublic(
            input_tokens=result.usage.input_tokens, output_tokens=result.usage.output_tokens,
            total_tokens=result.usage.total_tokens, estimated_cost=result.usage.estimated_cost,
        ),
        mode=result.mode,
    )
    return success(data)


def _options(body: ChatRequest) -> ChatOptions:
    o = body.options
    return ChatOptions(o.include_contests, o.include_news, o.include_bookmarks, o.max_results,
                       o.min_similarity_score)


@router.post("/stream", response_class=StreamingResponse, responses={
    200: {"description": "Server-Sent Events", "content": {"text/event-stream": {"schema": {
        "type": "object", "required": ["event", "data"],
        "properties": {"event": {"enum": ["metadata", "delta", "sources", "done", "error"]},
                       "data": {"type": "string", "description": "a JSON object"}}}}}}})
async def create_chat_stream(body: ChatRequest, user: CurrentUser, c: ContainerDep) -> StreamingResponse:
    """The answer as Server-Sent Events: metadata, delta..., sources, done (or error).

    Everything that can refuse the request happens before the first byte, so those refusals are
    ordinary envelope responses; a failure after that is an `error` event.
    """
    prepared = await c.chat.prepare(user, body.message, body.conversation_id, _options(body))
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no",
               **(prepared.quota.headers() if prepared.quota else {})}
    return StreamingResponse(_sse(c.chat.stream(prepared)), media_type="text/event-stream",
                             headers=headers)


async def _sse(events: AsyncIterator[tuple[str, dict[str, Any]]]) -> AsyncIterator[bytes]:
    async for name, data in events:
        yield f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


@router.get("/usage")
async def read_usage(
    user: CurrentUser,
    c: ContainerDep,
    first: Annotated[date | None, Query(alias="from")] = None,
    last: Annotated[date | None, Query(alias="to")] = None,
) -> dict[str, Any]:
    """The caller's daily token usage and estimated cost (Asia/Seoul days, both ends included)."""
    last = last or utcnow().astimezone(KST).date()
    # the 30 days up to `to` (from year 1 at the least: 0001-01-01 minus a day does not exist)
    first = first or max(date.min, last - timedelta(days=min(29, (last - date.min).days)))
    if first > last:
        raise InvalidInput("from must not be after to", data={"from": "must not be after to"})
    if (last - first).days + 1 > MAX_USAGE_DAYS:
        raise InvalidInput(f"at most {MAX_USAGE_DAYS} days at once",
                           data={"to": f"at most {MAX_USAGE_DAYS} days after from"})
    rows = await usage_between(c.engine, user.user_id, first, last)
    days = [UsageDayPublic.of(r) for r in rows]
    return success({
        "from": first.isoformat(), "to": last.isoformat(),
        "days": [d.model_dump(mode="json", by_alias=True) for d in days],
        "total": {
            "requests": sum(d.requests for d in days),
            "inputTokens": sum(d.input_tokens for d in days),
            "outputTokens": sum(d.output_tokens for d in days),
            "totalTokens": sum(d.total_tokens for d in days),
            "estimatedCost": round(sum(d.estimated_cost for d in days), 8),
        },
    })


@router.get("/sessions")
async def read_sessions(
    user: CurrentUser,
    c: ContainerDep,
    page: Annotated[int, Query(ge=0, le=100_000)] = 0,
    size: Annotated[int, Query(ge=1, le=100)] = 20,
    is_active: Annotated[bool | None, Query(alias="isActive")] = None,
) -> dict[str, Any]:
    sessions, total = await c.reader.list_sessions(
        user.user_id, is_active=is_active, offset=page * size, limit=size
    )
    return success({
        "sessions": [SessionPublic.of(s).model_dump(mode="json", by_alias=True) for s in sessions],
        **Page.numbers(total, page, size),
    })


@router.get("/sessions/{session_id}")
async def read_session(session_id: str, user: CurrentUser, c: ContainerDep) -> dict[str, Any]:
    session = await c.store.get_owned(session_id, user.user_id)
    return success(SessionPublic.of(session))


@router.get("/sessions/{session_id}/messages")
async def read_messages(
    session_id: str,
    user: CurrentUser,
    c: ContainerDep,
    page: Annotated[int, Query(ge=0, le=100_000)] = 0,
    size: Annotated[int, Query(ge=1, le=100)] = 50,
) -> dict[str, Any]:
    session = await c.store.get_owned(session_id, user.user_id)
    first = page * size + 1
    messages = await c.reader.messages_range(session, first, first + size - 1)
    return success({
        "messages": [MessagePublic.of(m).model_dump(mode="json", by_alias=True) for m in messages],
        **Page.numbers(session.message_count, page, size),
    })


@router.put("/sessions/{session_id}/title")
@router.patch("/sessions/{session_id}/title")
async def update_title(session_id: str, body: TitleUpdate, user: CurrentUser,
                       c: ContainerDep) -> dict[str, Any]:
    session = await c.store.rename(session_id, user.user_id, normalize_title(body.title))
    return success(SessionPublic.of(session))


@router.delete("/sessions/{session_id}")
async def delete_session(session_id: str, user: CurrentUser, c: ContainerDep
                         ) -> dict[str, Any]:
    await c.store.delete(session_id, user.user_id, c.clock())
    return success(None)
