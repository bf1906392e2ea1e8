"""Routes of /api/v1/chatbot: chat and the caller's sessions."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from datetime import date, timedelta
from typing import Annotated, Any

from fastapi import Header, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import WithJsonSchema
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.convertors import Convertor, register_url_convertor

from chatbot_api.domain.context import KST
from chatbot_api.domain.conversation import CONTENT_CHARACTER, clean_text, normalize_title
from chatbot_api.entrypoints import export
from chatbot_api.entrypoints.deps import (
    ChatServiceDep,
    CurrentUser,
    FeedbackServiceDep,
    SessionServiceDep,
)
from chatbot_api.entrypoints.export import ExportFormat
from chatbot_api.entrypoints.schemas import (
    STREAM_EVENTS,
    ChatPublic,
    ChatRequest,
    ConversationExport,
    EditRequest,
    FeedbackPublic,
    FeedbackRequest,
    LeafUpdate,
    MessagePage,
    RegenerateRequest,
    SessionInfo,
    SessionPage,
    SessionPublic,
    SessionSearchPage,
    TitleUpdate,
    TokenUsagePublic,
    UsageDayPublic,
    UsagePublic,
)
from chatbot_api.service_layer.chat import (
    EVENT_ID_PATTERN,
    Branch,
    ChatOptions,
    ChatResult,
    ChatService,
    Prepared,
    suggestions_public,
)
from chatbot_api.service_layer.chat import (
    deliver_nothing as _ignore,
)
from chatbot_api.service_layer.ports import StreamEvent
from techai_shared.clock import utcnow
from techai_shared.envelope import Envelope, success
from techai_shared.errors import ErrorCode, InvalidInput
from techai_shared.web import api_router, error_responses, event_stream_response
from techai_shared.web.fields import IsoDate

logger = logging.getLogger(__name__)


class SessionIdConvertor(Convertor[str]):
    """A session id in a path: any segment but `search`, so that /sessions/search is only the
    search (GET); without it DELETE /sessions/search would reach delete_session and 405's `Allow`
    would name DELETE for a path that has only GET."""

    regex = "(?!search(?:/|$))[^/]+"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("session_id", SessionIdConvertor())

MAX_USAGE_DAYS = 366
MAX_SEARCH_CHARS = 200

# Every route needs the bearer token and reads or writes the command store.
router = api_router("/api/v1/chatbot", ["chatbot"], ErrorCode.UNAUTHENTICATED,
                    ErrorCode.INTERNAL_SERVER_ERROR, ErrorCode.SERVICE_UNAVAILABLE)
# What a question can be refused with before its answer starts (the stream's too).
_ASKING = (ErrorCode.INVALID_INPUT, ErrorCode.TOKEN_LIMIT_EXCEEDED, ErrorCode.FORBIDDEN,
           ErrorCode.SESSION_NOT_FOUND, ErrorCode.PAYLOAD_TOO_LARGE, ErrorCode.RATE_LIMITED,
           ErrorCode.TOKEN_BUDGET_EXCEEDED, ErrorCode.SERVICE_UNAVAILABLE)
_SESSION = (ErrorCode.FORBIDDEN, ErrorCode.SESSION_NOT_FOUND)


def _session_links(session_id: str) -> dict[str, Any]:
    """OpenAPI links from a response naming a session (`session_id`, a runtime expression) to the
    routes of that session; clients and schemathesis' stateful phase follow them."""
    return {
        name: {"operationId": f"{operation}_api_v1_chatbot_sessions__session_id_{suffix}",
               "parameters": {"session_id": session_id}}
        for name, operation, suffix in [
            ("ReadSession", "read_session", "_get"), ("ReadMessages", "read_messages", "_messages_get"),
            ("PutTitle", "update_title", "_title_put"), ("PatchTitle", "update_title", "_title_patch"),
            ("DeleteSession", "delete_session", "_delete")]
    }


@router.post("", response_model=Envelope[ChatPublic], responses={
    200: {"links": _session_links("$response.body#/data/conversationId")},
    **error_responses(*_ASKING, ErrorCode.LLM_UNAVAILABLE, ErrorCode.LLM_TIMEOUT)})
async def create_chat(body: ChatRequest, user: CurrentUser, chat: ChatServiceDep, response: Response
                      ) -> Envelope[ChatPublic]:
    result = await chat.chat(user, body.message, body.conversation_id, _options(body))
    return _answered(result, response)


def _answered(result: ChatResult, response: Response) -> Envelope[ChatPublic]:
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
        message_id=result.message.message_id,
        suggestions=suggestions_public(result.suggestions),
    )
    return success(data)


def _options(body: ChatRequest | RegenerateRequest | EditRequest) -> ChatOptions:
    o = body.options
    return ChatOptions(o.include_contests, o.include_news, o.include_bookmarks, o.max_results,
                       o.min_similarity_score)


@router.post("/stream", response_class=StreamingResponse, responses={
    200: event_stream_response(
        "Server-Sent Events: metadata, delta (one or more), sources, done; or error instead of "
        "the rest once the answer has started", STREAM_EVENTS),
    **error_responses(*_ASKING)})
async def create_chat_stream(body: ChatRequest, user: CurrentUser, chat: ChatServiceDep
                             ) -> EventSourceResponse:
    """The answer as Server-Sent Events: metadata, delta..., sources, done (or error).

    Everything that can refuse the request happens before the first byte, so those refusals are
    ordinary envelope responses; a failure after that is an `error` event. While the model thinks
    (a reasoning model can be silent for tens of seconds) a `: ping` comment goes out every
    CHATBOT_STREAM_KEEPALIVE_SECONDS, before and between the deltas, so proxies keep the stream
    open; the headers stop them buffering it.
    """
    prepared = await chat.prepare(user, body.message, body.conversation_id, _options(body))
    return _streamed(chat, prepared)


def _streamed(chat: ChatService, prepared: Prepared) -> EventSourceResponse:
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no",
               **(prepared.quota.headers() if prepared.quota else {})}
    return EventSourceResponse(_sse(chat.stream(prepared)), headers=headers, sep="\n",
                               ping=chat.stream_keepalive_seconds)


async def _sse(events: AsyncIterator[StreamEvent]) -> AsyncIterator[ServerSentEvent]:
    """The stream's events, framed by sse-starlette (one JSON `data` line each, with its `id`)."""
    try:
        async for event in events:
            yield ServerSentEvent(json.dumps(event.data, ensure_ascii=False), event=event.name,
                                  id=event.id, sep="\n")
    except Exception:  # a resumed stream whose log failed mid-way: end it the way an answer fails
        logger.exception("stream failed")
        yield ServerSentEvent(json.dumps(_stream_error(), ensure_ascii=False), event="error",
                              sep="\n")


def _stream_error() -> dict[str, Any]:
    code = ErrorCode.SERVICE_UNAVAILABLE
    return {"code": code.code, "messageCode": {"code": code.name_code, "text": code.text},
            "message": "the stream could not be read to its end; resume it again", "data": None}


def _wants_stream(request: Request) -> bool:
    return "text/event-stream" in request.headers.get("accept", "")


_BRANCHING = (*_ASKING, ErrorCode.MESSAGE_NOT_FOUND, ErrorCode.LLM_UNAVAILABLE, ErrorCode.LLM_TIMEOUT)
_ANSWER_OR_STREAM: dict[int | str, dict[str, Any]] = {200: {
    "description": "The new answer (JSON); with `Accept: text/event-stream`, its Server-Sent "
                   "Events as POST /stream sends them",
    "content": event_stream_response("", STREAM_EVENTS)["content"]}}


@router.post("/sessions/{session_id:session_id}/messages/{message_id}/regenerate",
             response_model=Envelope[ChatPublic],
             responses={**_ANSWER_OR_STREAM, **error_responses(*_BRANCHING)})
async def regenerate(session_id: str, message_id: str, request: Request, response: Response,
                     user: CurrentUser, chat: ChatServiceDep,
                     body: RegenerateRequest | None = None) -> Envelope[ChatPublic] | EventSourceResponse:
    """Answer the question of the answer `message_id` again, as a new version beside it.

    The history is the conversation up to that question; retrieval runs again (the answer cache is
    not read); the rate limit and usage count it. The new answer becomes the current leaf; the
    earlier ones stay (`siblingIds` in history, `PUT .../leaf` to go back to one). 400 when
    `message_id` is a question, 404 MESSAGE_NOT_FOUND when the session has no such message.
    """
    prepared = await chat.prepare_branch(user, session_id, Branch("regenerate", message_id), None,
                                         _options(body or RegenerateRequest()))
    if _wants_stream(request):
        return _streamed(chat, prepared)
    return _answered(await chat.answer(prepared, streaming=False, on_delta=_ignore), response)


@router.put("/sessions/{session_id:session_id}/messages/{message_id}", response_model=Envelope[ChatPublic],
            responses={**_ANSWER_OR_STREAM, **error_responses(*_BRANCHING)})
async def edit_message(session_id: str, message_id: str, body: EditRequest, request: Request,
                       response: Response, user: CurrentUser, chat: ChatServiceDep
                       ) -> Envelope[ChatPublic] | EventSourceResponse:
    """Ask a new version of the question `message_id` and answer it.

    The new question is a sibling of the old one (the old branch and its answers stay readable:
    `PUT .../leaf` with the old question's id shows it again); the history is the conversation
    before the old question; the new answer becomes the current leaf. 400 when `message_id` is an
    answer. JSON, or Server-Sent Events with `Accept: text/event-stream`.
    """
    prepared = await chat.prepare_branch(user, session_id, Branch("edit", message_id), body.message,
                                         _options(body))
    if _wants_stream(request):
        return _streamed(chat, prepared)
    return _answered(await chat.answer(prepared, streaming=False, on_delta=_ignore), response)


@router.put("/sessions/{session_id:session_id}/leaf", response_model=Envelope[SessionPublic],
            responses=error_responses(ErrorCode.INVALID_INPUT, ErrorCode.MESSAGE_NOT_FOUND,
                                      ErrorCode.PAYLOAD_TOO_LARGE, *_SESSION))
async def switch_leaf(session_id: str, body: LeafUpdate, user: CurrentUser,
                      sessions: SessionServiceDep) -> Envelope[SessionPublic]:
    """Make the branch through `messageId` current: history then shows the path from the first
    question to its deepest descendant along the latest versions, and the next question follows
    it. Switching to the branch already current changes nothing."""
    return success(SessionPublic.of(await sessions.switch(session_id, user.user_id, body.message_id)))


@router.get("/sessions/{session_id:session_id}/messages/{message_id}/stream",
            response_class=StreamingResponse, responses={200: event_stream_response(
                "The events of the answer after Last-Event-ID (all of them without it), ending "
                "with done or error", STREAM_EVENTS),
                **error_responses(ErrorCode.INVALID_INPUT, ErrorCode.MESSAGE_NOT_FOUND, *_SESSION)})
async def resume_stream(
    session_id: str, message_id: str, user: CurrentUser, chat: ChatServiceDep,
    last_event_id: Annotated[str | None, Header(
        alias="Last-Event-ID", description="The `id` of the last event received, e.g. 3.120"),
        # a header is a string or absent, never null; the service checks the pattern (400)
        WithJsonSchema({"type": "string", "pattern": EVENT_ID_PATTERN})] = None,
) -> EventSourceResponse:
    """Resume a streamed answer whose connection dropped: the events after `Last-Event-ID`, from
    the generation still running (followed live) or from the finished answer, for at least
    CHATBOT_STREAM_RESUME_SECONDS (10 minutes) after its last event, and from the stored answer
    after that (then as one delta with the rest of the text). The deltas received before and after
    join into exactly the stored answer.
    """
    events = await chat.resume(user, session_id, message_id, last_event_id)
    return EventSourceResponse(_sse(events), headers={"Cache-Control": "no-cache",
                                                      "X-Accel-Buffering": "no"},
                               sep="\n", ping=chat.stream_keepalive_seconds)


@router.get("/usage", response_model=Envelope[UsagePublic],
            responses=error_responses(ErrorCode.INVALID_INPUT))
async def read_usage(
    user: CurrentUser,
    sessions: SessionServiceDep,
    first: Annotated[IsoDate | None, Query(alias="from", description="first day, YYYY-MM-DD; "
                                           "default 29 days before `to`")] = None,
    last: Annotated[IsoDate | None, Query(alias="to", description="last day, YYYY-MM-DD; "
                                          "default today (Asia/Seoul)")] = None,
) -> Envelope[UsagePublic]:
    """The caller's daily token usage and estimated cost (Asia/Seoul days, both ends included),
    and today's token budget: the daily budget, what is spent and left, when it resets.

    400 also when `from` is after `to`, or when they span more than 366 days (rules between two
    parameters, which the schema cannot state).
    """
    last = last or utcnow().astimezone(KST).date()
    # the 30 days up to `to` (from year 1 at the least: 0001-01-01 minus a day does not exist)
    first = first or max(date.min, last - timedelta(days=min(29, (last - date.min).days)))
    if first > last:
        raise InvalidInput("from must not be after to", data={"from": "must not be after to"})
    if (last - first).days + 1 > MAX_USAGE_DAYS:
        raise InvalidInput(f"at most {MAX_USAGE_DAYS} days at once",
                           data={"to": f"at most {MAX_USAGE_DAYS} days after from"})
    rows = await sessions.usage(user.user_id, first, last)
    budget = await sessions.budget(user.user_id)
    return success(UsagePublic.of(first, last, [UsageDayPublic.of(r) for r in rows], budget))


@router.get("/sessions", response_model=Envelope[SessionPage],
            responses=error_responses(ErrorCode.INVALID_INPUT))
async def read_sessions(
    user: CurrentUser,
    sessions: SessionServiceDep,
    page: Annotated[int, Query(ge=0, le=100_000)] = 0,
    size: Annotated[int, Query(ge=1, le=100)] = 20,
    is_active: Annotated[bool | None, Query(alias="isActive")] = None,
) -> Envelope[SessionPage]:
    found, total = await sessions.list_sessions(user.user_id, is_active=is_active, offset=page * size,
                                       limit=size)
    return success(SessionPage.of(found, total, page, size))


@router.get("/sessions/search", response_model=Envelope[SessionSearchPage],
            responses=error_responses(ErrorCode.INVALID_INPUT))
async def search_sessions(
    user: CurrentUser,
    sessions: SessionServiceDep,
    q: Annotated[str, Query(min_length=1, max_length=MAX_SEARCH_CHARS, pattern=CONTENT_CHARACTER,
                            description="The words to find, Korean or English")],
    page: Annotated[int, Query(ge=0, le=100_000)] = 0,
    size: Annotated[int, Query(ge=1, le=50)] = 10,
) -> Envelope[SessionSearchPage]:
    """The caller's sessions whose messages or title hold every word of `q`, best first.

    Korean is matched by its morphemes, so "해커톤" finds "해커톤은" and "AI해커톤"; Latin words
    in any case, a plural -s aside ("ctf" finds "CTFs"). Best first: more words in the title, then
    more messages holding every word, then the newer session. Each result has the ids of the
    messages holding the words and a snippet with the words' places in it. Deleted sessions and
    other users' are never found. A new message is found about a second after it is written.
    """
    found, total = await sessions.search(user.user_id, q, offset=page * size, limit=size)
    return success(SessionSearchPage.of(q, found, total, page, size))


@router.get("/sessions/{session_id:session_id}/export", response_class=Response, responses={
    200: {"description": "The conversation as a download (Content-Disposition: attachment)",
          "model": ConversationExport,
          "content": {"text/markdown": {"schema": {"type": "string"}}}},
    **error_responses(ErrorCode.INVALID_INPUT, *_SESSION)})
async def export_session(
    session_id: str, user: CurrentUser, sessions: SessionServiceDep,
    fmt: Annotated[ExportFormat, Query(alias="format")] = "json",
) -> Response:
    """The whole conversation (its current path) as a file: `json` (the session and its messages as
    the API shows them: sources and ratings included) or `markdown` (to read; times in
    Asia/Seoul). 403 for another user's session, 404 for a deleted or unknown one."""
    session, views = await sessions.export(session_id, user.user_id)
    render = export.as_json if fmt == "json" else export.as_markdown
    name = export.filename(session, fmt)
    return Response(render(session, views, utcnow()), media_type=export.MEDIA_TYPES[fmt], headers={
        "Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


@router.get("/sessions/{session_id:session_id}", response_model=Envelope[SessionPublic],
            responses=error_responses(*_SESSION))
async def read_session(session_id: str, user: CurrentUser, sessions: SessionServiceDep
                       ) -> Envelope[SessionPublic]:
    session = await sessions.get(session_id, user.user_id)
    return success(SessionPublic.of(session))


@router.get("/sessions/{session_id:session_id}/messages", response_model=Envelope[MessagePage],
            responses=error_responses(ErrorCode.INVALID_INPUT, *_SESSION))
async def read_messages(
    session_id: str,
    user: CurrentUser,
    sessions: SessionServiceDep,
    page: Annotated[int, Query(ge=0, le=100_000)] = 0,
    size: Annotated[int, Query(ge=1, le=100)] = 50,
) -> Envelope[MessagePage]:
    first = page * size + 1
    session, messages = await sessions.messages(session_id, user.user_id, first, first + size - 1)
    return success(MessagePage.of(messages, session.message_count, page, size))


_RENAMING = error_responses(ErrorCode.INVALID_INPUT, ErrorCode.PAYLOAD_TOO_LARGE, *_SESSION)


@router.put("/sessions/{session_id:session_id}/title", response_model=Envelope[SessionPublic],
            responses=_RENAMING)
@router.patch("/sessions/{session_id:session_id}/title", response_model=Envelope[SessionPublic],
              responses=_RENAMING)
async def update_title(session_id: str, body: TitleUpdate, user: CurrentUser,
                       sessions: SessionServiceDep) -> Envelope[SessionPublic]:
    session = await sessions.rename(session_id, user.user_id, normalize_title(body.title))
    return success(SessionPublic.of(session))


@router.delete("/sessions/{session_id:session_id}", response_model=Envelope[None],
               responses=error_responses(*_SESSION))
async def delete_session(session_id: str, user: CurrentUser, sessions: SessionServiceDep
                         ) -> Envelope[None]:
    await sessions.delete(session_id, user.user_id)
    return success(None)


_RATING = (ErrorCode.MESSAGE_NOT_FOUND, *_SESSION)


@router.put("/sessions/{session_id:session_id}/messages/{message_id}/feedback",
            response_model=Envelope[FeedbackPublic],
            responses=error_responses(ErrorCode.INVALID_INPUT, ErrorCode.PAYLOAD_TOO_LARGE, *_RATING))
async def put_feedback(session_id: str, message_id: str, body: FeedbackRequest, user: CurrentUser,
                       feedback: FeedbackServiceDep) -> Envelope[FeedbackPublic]:
    """Rate an answer of the caller's session: `up` or `down`, with reasons and a comment.

    A second rating of the same answer replaces the first. Only answers (assistant messages) can be
    rated: a question gets 400. History (`GET .../messages`) shows the rating on the message once
    the read model has it, normally within a second.
    """
    comment = clean_text(body.comment) if body.comment is not None else None
    state = await feedback.rate(session_id, message_id, user.user_id, body.rating, body.reasons,
                                comment or None)
    return success(FeedbackPublic.of_state(state))


@router.delete("/sessions/{session_id:session_id}/messages/{message_id}/feedback",
               response_model=Envelope[None], responses=error_responses(*_RATING))
async def delete_feedback(session_id: str, message_id: str, user: CurrentUser,
                          feedback: FeedbackServiceDep) -> Envelope[None]:
    """Remove the caller's rating of an answer; removing a rating that is not there changes
    nothing and succeeds too."""
    await feedback.remove(session_id, message_id, user.user_id)
    return success(None)
