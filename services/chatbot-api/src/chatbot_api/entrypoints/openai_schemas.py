"""OpenAI's Chat Completions shapes, as far as this endpoint serves them (docs/openai-compatible.md).

Requests are read as OpenAI-compatible servers read them: fields the endpoint does not use
(`temperature`, `max_tokens`, `tools`, ...) are ignored, and the fields it uses are validated as
their JSON Schema reads (no coercion, as techai_shared.envelope.RequestBody). Responses carry the
answer in OpenAI's fields and, as extensions, what the envelope endpoint returns besides it:
`conversation_id`, `message_id`, `mode` and `sources`.

Errors are OpenAI's `{"error": {"message", "type", "code", "param"}}` with the envelope's status,
so OpenAI's SDKs raise their own exception for each (AuthenticationError for 401, and so on).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from chatbot_api.domain.conversation import CONTENT_CHARACTER, MAX_MESSAGE_CHARS
from chatbot_api.entrypoints.schemas import SourcePublic
from techai_shared.errors import ErrorCode

# -- requests --------------------------------------------------------------------------------------


class OpenAIBody(BaseModel):
    """A request object: its own fields validated strictly, any other field ignored."""

    model_config = ConfigDict(strict=True, extra="ignore")


class TextPart(OpenAIBody):
    type: Literal["text"]
    text: str


Parts = Annotated[list[TextPart], Field(min_length=1, max_length=100)]
AnyContent = str | Parts


class InstructionMessage(OpenAIBody):
    """A system or developer message: the client's instructions. The answer follows this service's
    own prompt, so they are accepted and not used."""

    role: Literal["system", "developer"]
    content: AnyContent
    name: str | None = None


class UserMessage(OpenAIBody):
    role: Literal["user"]
    content: Annotated[str, Field(min_length=1, max_length=MAX_MESSAGE_CHARS,
                                  pattern=CONTENT_CHARACTER)] | Parts = Field(
        description="1..500 characters with at least one letter, digit, mark, punctuation or "
                    "symbol (text parts are joined with a space and held to the same rule).")
    name: str | None = None


class AssistantMessage(OpenAIBody):
    role: Literal["assistant"]
    content: AnyContent | None = None
    name: str | None = None


class ToolMessage(OpenAIBody):
    """A tool's result: this endpoint calls no tools, so it is accepted and not used."""

    role: Literal["tool"]
    content: AnyContent
    tool_call_id: str


Message = Annotated[InstructionMessage | UserMessage | AssistantMessage | ToolMessage,
                    Field(discriminator="role")]


class StreamOptions(OpenAIBody):
    include_usage: bool = Field(default=False, description="Send a last chunk with the usage.")


class ChatCompletionRequest(OpenAIBody):
    model: str = Field(min_length=1, max_length=200,
                       description="One of the ids GET /v1/models lists (it selects nothing).")
    messages: list[Message] = Field(
        min_length=1, max_length=1000,
        json_schema_extra={"contains": {"type": "object", "required": ["role"],
                                        "properties": {"role": {"const": "user"}}}},
        description="The conversation; the question is the last `user` message. Earlier user "
                    "and assistant messages are the history when no conversation is named and "
                    "none of the caller's conversations ends with them (docs/openai-compatible.md).")
    stream: bool | None = Field(default=False, description="Answer as chat.completion.chunk events.")
    stream_options: StreamOptions | None = None
    n: Annotated[int, Field(ge=1, le=1)] | None = Field(
        default=None, description="Only one choice is served.")
    conversation_id: str | None = Field(
        default=None, min_length=1, max_length=64,
        description="A conversation of the caller to continue (an extension; the SDK sends it "
                    "through extra_body). The X-Conversation-Id header does the same; this wins.")


# -- responses -------------------------------------------------------------------------------------


class CompletionUsage(BaseModel):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class AssistantReply(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str


class Choice(BaseModel):
    index: int = 0
    message: AssistantReply
    finish_reason: Literal["stop"] = "stop"
    logprobs: None = None


class ChatCompletion(BaseModel):
    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str
    choices: list[Choice]
    usage: CompletionUsage
    system_fingerprint: None = None
    conversation_id: str = Field(description="The conversation to continue (extension).")
    message_id: str = Field(description="The answer's message id, to rate it (extension).")
    mode: str = Field(description="rag, retrieval-only, general or verified (extension).")
    sources: list[SourcePublic] = Field(description="The cited items, as in the envelope "
                                                    "endpoint (extension).")


class ChunkDelta(BaseModel):
    role: Literal["assistant"] | None = None
    content: str | None = None


class ChunkChoice(BaseModel):
    index: int = 0
    delta: ChunkDelta
    finish_reason: Literal["stop"] | None = None


class ChatCompletionChunk(BaseModel):
    """One event of a streamed answer. The first carries the role and the conversation id; the
    content follows in deltas; then a chunk with the `sources`, the last with `finish_reason`,
    `message_id` and `mode`; with `stream_options.include_usage`, a chunk with no choices and the
    usage; then `[DONE]`."""

    id: str
    object: Literal["chat.completion.chunk"] = "chat.completion.chunk"
    created: int
    model: str
    choices: list[ChunkChoice]
    usage: CompletionUsage | None = None
    conversation_id: str
    message_id: str | None = None
    mode: str | None = None
    sources: list[SourcePublic] | None = None


class ModelCard(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int
    owned_by: str


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelCard]


# -- errors ----------------------------------------------------------------------------------------


class ErrorDetail(BaseModel):
    message: str
    type: str
    code: str | None
    param: str | None


class ErrorBody(BaseModel):
    error: ErrorDetail


class StreamError(BaseModel):
    """The event that ends a stream whose answer failed after it started."""

    error: ErrorDetail


# OpenAI's own codes where it has one for the same error; else the envelope's, in lower case.
_CODES = {
    ErrorCode.UNAUTHENTICATED: "invalid_api_key",
    ErrorCode.TOKEN_LIMIT_EXCEEDED: "context_length_exceeded",
    ErrorCode.RATE_LIMITED: "rate_limit_exceeded",
    ErrorCode.TOKEN_BUDGET_EXCEEDED: "insufficient_quota",
    ErrorCode.INVALID_INPUT: "invalid_value",
}
_TYPES = {401: "authentication_error", 403: "permission_error", 429: "rate_limit_error"}


_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})
# What pydantic adds to an error's location inside a union: the member's type ("constrained-str",
# "list[TextPart]") or its discriminator value after a list index ("messages.0.user.content").
_UNION_MEMBER = re.compile(r"^(str|int|bool|float|constrained-\w+|[\w-]+\[.*\])$")


def param_name(field: str) -> str:
    """A field as OpenAI names a `param` (messages.0.content), without pydantic's union steps."""
    kept: list[str] = []
    for part in field.split("."):
        if _UNION_MEMBER.match(part) or (part in _ROLES and kept and kept[-1].isdigit()):
            continue
        kept.append(part)
    return ".".join(kept)


def error_detail(code: ErrorCode, message: str, data: Any = None) -> ErrorDetail:
    """An error of ours in OpenAI's shape. `data` (the invalid fields, name -> message) gives the
    `param` and completes the message; a 404 of the `model` field is OpenAI's model_not_found."""
    fields: dict[str, Any] = {}
    for name, text in (data.items() if isinstance(data, Mapping) else ()):
        fields.setdefault(param_name(str(name)), text)  # a union's members: the first one's
    param = next(iter(fields), None)
    if fields and code.status == 400:  # the invalid fields, each with what is wrong
        message = f"{message}: " + "; ".join(f"{name}: {text}" for name, text in fields.items())
    kind = _TYPES.get(code.status, "server_error" if code.status >= 500 else "invalid_request_error")
    name = ("model_not_found" if code.status == 404 and param == "model"
            else _CODES.get(code, code.name_code.lower()))
    return ErrorDetail(message=message, type=kind, code=name, param=param)


def openai_error(code: ErrorCode, message: str, data: Any,
                 headers: Mapping[str, str] | None) -> JSONResponse:
    """techai_shared.web.errors.ErrorShape of the /v1 routes."""
    body = ErrorBody(error=error_detail(code, message, data))
    return JSONResponse(body.model_dump(), status_code=code.status,
                        headers=dict(headers) if headers else None)


_STATUS_TEXT = {
    400: "Invalid request (`param` names the field)",
    401: "Missing, malformed or expired API key (the user's JWT)",
    403: "The conversation belongs to another user",
    404: "Unknown conversation, or a model GET /v1/models does not list",
    405: "Method not allowed",
    413: "Request body over the size limit",
    429: "Rate limited; Retry-After gives the seconds to wait",
    500: "Internal server error",
    503: "The model or a store is unavailable; retry later",
    504: "The model did not answer in time",
}


def openai_error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for OpenAI-shaped errors of these statuses."""
    return {status: {"model": ErrorBody, "description": _STATUS_TEXT[status]} for status in statuses}
