"""Routes of /api/v1/chatbot: chat and the caller's sessions."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

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
)
from techai_shared.envelope import success

router = APIRouter(prefix="/api/v1/chatbot", tags=["chatbot"])



@router.post("")
async def create_chat(body: ChatRequest, user: CurrentUser, c: ContainerDep, response: Response
                      ) -> dict[str, Any]:
    result = await c.chat.chat(user, body.message, body.conversation_id)
    if result.quota is not None:
        response.headers.update(result.quota.headers())
    session = result.session
    data = ChatPublic(
        response=result.answer,
        conversation_id=session.session_id,
        sources=[],
        session_info=SessionInfo(title=session.title, created_at=session.created_at,
                                 message_count=session.message_count),
        token_usage=TokenUsagePublic(
            input_tokens=result.usage.input_tokens, output_tokens=result.usage.output_tokens,
            total_tokens=result.usage.total_tokens, estimated_cost=result.usage.estimated_cost,
        ),
        mode=result.mode,
    )
    return success(data)


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
