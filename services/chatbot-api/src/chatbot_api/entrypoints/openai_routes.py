"""/v1: the chat use case in OpenAI's Chat Completions API, for clients that speak only that
(OpenAI's SDKs, LangChain's ChatOpenAI, Open WebUI, LibreChat). docs/openai-compatible.md.

The same ChatService as POST /api/v1/chatbot answers: authentication (the API key is the user's
JWT), ownership, rate limit, cache, relevance gate, verified answers, retrieval, model or
retrieval-only answer, storage with its events, titles and usage. What differs is the edge: the
question is the last user message, the conversation is named by `conversation_id` (body or
X-Conversation-Id) or found from the messages the client resends (domain.thread), and the answer's
text ends with the list of the items it cites, since these clients show only the text.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request, Response
from sse_starlette import EventSourceResponse, ServerSentEvent

from chatbot_api.domain.conversation import ChatTurn, normalize_message
from chatbot_api.entrypoints.deps import ChatServiceDep, CurrentUser
from chatbot_api.entrypoints.openai_schemas import (
    AssistantReply,
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionRequest,
    Choice,
    CompletionUsage,
    ErrorBody,
    ModelCard,
    ModelList,
    StreamError,
    TextPart,
    UserMessage,
    error_detail,
    openai_error_responses,
)
from chatbot_api.entrypoints.schemas import SourcePublic
from chatbot_api.service_layer.chat import ChatOptions, Transcript
from chatbot_api.service_layer.ports import StreamEvent
from chatbot_api.settings import ChatbotSettings
from techai_shared.clock import utcnow
from techai_shared.errors import AppError, ErrorCode, InvalidInput
from techai_shared.ids import new_id
from techai_shared.web.openapi import inline_schema

PREFIX = "/v1"
OWNER = "techai"
MODEL_CREATED = 1_795_000_000  # when this endpoint's model id was first served (2026-11-18)
CONVERSATION_HEADER = "X-Conversation-Id"

router = APIRouter(prefix=PREFIX, tags=["openai-compatible"],
                   responses=openai_error_responses(401, 500, 503))

_CONVERSATION = {CONVERSATION_HEADER: {"description": "The conversation the answer belongs to",
                                       "schema": {"type": "string"}}}
_CHUNK_EVENT = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "event": {"const": "message"},
        "data": {"type": "string", "anyOf": [
            {"const": "[DONE]"},
            {"contentMediaType": "application/json",
             "contentSchema": {"oneOf": [inline_schema(ChatCompletionChunk),
                                         inline_schema(StreamError)]}}]},
    },
}


def _served(request: Request) -> str:
    settings: ChatbotSettings = request.app.state.settings
    return settings.chatbot_openai_model


@router.get("/models", response_model=ModelList)
async def list_models(request: Request, user: CurrentUser) -> ModelList:
    """The models this endpoint serves, in OpenAI's list shape: one, the chatbot itself."""
    return ModelList(data=[ModelCard(id=_served(request), created=MODEL_CREATED, owned_by=OWNER)])


@router.post("/chat/completions", response_model=ChatCompletion, responses={
    200: {"description": "chat.completion; with `stream: true`, chat.completion.chunk events "
                         "over Server-Sent Events ending with `data: [DONE]`",
          "headers": _CONVERSATION,
          "content": {"text/event-stream": {"schema": _CHUNK_EVENT}}},
    **openai_error_responses(400, 403, 404, 413, 429, 504)})
async def create_chat_completion(
    body: ChatCompletionRequest,
    request: Request,
    response: Response,
    user: CurrentUser,
    chat: ChatServiceDep,
    conversation_header: Annotated[str | None, Header(
        alias=CONVERSATION_HEADER, min_length=1, max_length=64,
        description="A conversation of the caller to continue (the body's conversation_id wins)")
    ] = None,
) -> Any:
    """Answer the last user message, as POST /api/v1/chatbot does, in OpenAI's shapes."""
    model = _served(request)
    if body.model != model:
        raise AppError(f"The model `{body.model}` does not exist; GET /v1/models lists `{model}`",
                       error_code=ErrorCode.NOT_FOUND, data={"model": "not served here"})
    question, transcript = _question_and_transcript(body)
    conversation = body.conversation_id or conversation_header
    options = ChatOptions(sources_in_text=True)
    prepared = await chat.prepare(user, question, conversation, options, transcript)
    headers = {CONVERSATION_HEADER: prepared.session_id,
               **(prepared.quota.headers() if prepared.quota else {})}
    completion_id, created = f"chatcmpl-{new_id()}", int(utcnow().timestamp())
    if body.stream:
        include_usage = bool(body.stream_options and body.stream_options.include_usage)
        chunks = _chunks(chat.stream(prepared), completion_id, created, model, include_usage)
        return EventSourceResponse(chunks, headers={"Cache-Control": "no-cache",
                                                    "X-Accel-Buffering": "no", **headers},
                                   sep="\n", ping=chat.stream_keepalive_seconds)
    result = await chat.answer(prepared, streaming=False, on_delta=_ignore)
    response.headers.update(headers)
    return ChatCompletion(
        id=completion_id, created=created, model=model,
        choices=[Choice(message=AssistantReply(content=result.answer))],
        usage=CompletionUsage(prompt_tokens=result.usage.input_tokens,
                              completion_tokens=result.usage.output_tokens,
                              total_tokens=result.usage.total_tokens),
        conversation_id=result.session.session_id,
        message_id=result.message.message_id,
        mode=result.mode, sources=[SourcePublic.model_validate(s) for s in result.sources])


async def _ignore(_: str) -> None:
    return None


def _text(content: str | list[TextPart] | None) -> str:
    if content is None:
        return ""
    return content if isinstance(content, str) else " ".join(p.text for p in content)


def _question_and_transcript(body: ChatCompletionRequest) -> tuple[str, Transcript]:
    """The last user message (cleaned and held to the message rules), and what came before it."""
    last = max((i for i, m in enumerate(body.messages) if isinstance(m, UserMessage)), default=None)
    if last is None:
        raise InvalidInput("invalid request", data={"messages": "must hold a user message"})
    try:
        question = normalize_message(_text(body.messages[last].content))
    except InvalidInput as exc:
        text = next(iter(exc.data.values())) if isinstance(exc.data, dict) else exc.message
        raise InvalidInput("invalid request", data={f"messages.{last}.content": text}) from exc
    earlier = [ChatTurn(m.role, _text(m.content)) for m in body.messages[:last]]
    return question, Transcript.of([t for t in earlier if t.content.strip()])


async def _chunks(events: AsyncIterator[StreamEvent], completion_id: str,
                  created: int, model: str, include_usage: bool) -> AsyncIterator[ServerSentEvent]:
    """ChatService.stream's events as chat.completion.chunk events, then [DONE]; an error after the
    start ends the stream with an `error` event (OpenAI's SDK raises it as an APIError)."""
    conversation = ""

    def chunk(delta: dict[str, Any], **extra: Any) -> ServerSentEvent:
        choices = extra.pop("choices", [{"index": 0, "delta": delta, "finish_reason":
                                         extra.pop("finish_reason", None)}])
        body = {"id": completion_id, "object": "chat.completion.chunk", "created": created,
                "model": model, "choices": choices, "conversation_id": conversation, **extra}
        if include_usage:
            body.setdefault("usage", None)
        return _event(body)

    async for _, name, data in events:
        if name == "metadata":
            conversation = data["conversationId"]
            yield chunk({"role": "assistant", "content": ""}, mode=data["mode"])
        elif name == "delta":
            yield chunk({"content": data["text"]})
        elif name == "sources":
            yield chunk({}, sources=data["sources"])
        elif name == "done":
            yield chunk({}, finish_reason="stop", message_id=data["messageId"], mode=data["mode"])
            if include_usage:
                usage = data["tokenUsage"]
                yield chunk({}, choices=[], usage={
                    "prompt_tokens": usage["inputTokens"], "completion_tokens": usage["outputTokens"],
                    "total_tokens": usage["totalTokens"]})
            yield ServerSentEvent("[DONE]", sep="\n")
        elif name == "error":
            code = next((c for c in ErrorCode if c.code == data["code"]), ErrorCode.INTERNAL_SERVER_ERROR)
            yield _event(ErrorBody(error=error_detail(code, data["message"])).model_dump())
            return


def _event(body: dict[str, Any]) -> ServerSentEvent:
    return ServerSentEvent(json.dumps(body, ensure_ascii=False), sep="\n")
