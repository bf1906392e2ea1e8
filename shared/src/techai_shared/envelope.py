"""The API envelope (docs/api.md) as pydantic models, and the base for camelCase bodies.

Every JSON response is `{"code", "messageCode": {"code", "text"}, "message", "data"}`:

- a success is `Envelope[T]`: code "2000", messageCode SUCCESS/성공, message "success", `data` a T;
- an error is `error_envelope(codes)`: the code of one of `codes`, `data` null or a
  field -> message map. The edge writes errors with `failure()`; the models say what it writes.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.alias_generators import to_camel

from techai_shared.errors import ErrorCode

T = TypeVar("T")

SUCCESS_CODE: Literal["2000"] = "2000"


class CamelModel(BaseModel):
    """Schemas serialised with camelCase names; input accepts either spelling."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class RequestBody(CamelModel):
    """A JSON request body, validated the way its JSON Schema reads: no coercion of "5" to 5, 1 to
    true or "0.5" to 0.5 (FastAPI validates the decoded body in pydantic's Python mode, whose lax
    rules would accept them). Enum fields opt back in with `Field(strict=False)`, so that their
    JSON string values are accepted; techai_shared.web.fields has the integer (7.0 is one), date and
    date-time types that read their JSON values as JSON Schema does."""

    model_config = ConfigDict(strict=True)


class SuccessCode(BaseModel):
    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    code: Literal["SUCCESS"] = "SUCCESS"
    text: Literal["성공"] = "성공"


class Envelope(CamelModel, Generic[T]):
    """The success envelope around `data`; `Envelope[SessionPublic]` is a route's response model."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    code: Literal["2000"] = SUCCESS_CODE
    message_code: SuccessCode = Field(default_factory=SuccessCode)
    message: Literal["success"] = "success"
    data: T


class ErrorMessageCode(BaseModel):
    code: str = Field(description="the error's name, e.g. INVALID_INPUT")
    text: str = Field(description="its Korean text, e.g. 잘못된 입력입니다")


class ErrorEnvelope(CamelModel):
    """The error envelope, any error code. Routes declare `error_envelope(...)` of their own codes."""

    code: str = Field(pattern=r"^[45][0-9]{3}$")
    message_code: ErrorMessageCode
    message: str
    data: dict[str, str] | None = Field(
        description="null, or each invalid field (camelCase, dotted when nested) -> its message")


@cache
def _error_model(codes: tuple[ErrorCode, ...]) -> type[ErrorEnvelope]:
    suffix = "_".join(c.code for c in codes)
    code_type: Any = Literal[tuple(c.code for c in codes)]
    model: type[ErrorEnvelope] = create_model(
        f"Error{suffix}",
        __base__=ErrorEnvelope,
        __doc__="The error envelope: " + ", ".join(f"{c.code} {c.name_code}" for c in codes),
        code=(code_type, ...),
    )
    return model


def error_envelope(*codes: ErrorCode) -> type[ErrorEnvelope]:
    """The error envelope whose `code` is one of `codes` (one model, and one OpenAPI component
    `Error<code>_<code>...`, per set of codes)."""
    return _error_model(tuple(sorted(set(codes), key=lambda c: c.code)))


def success(data: T) -> Envelope[T]:
    """The success envelope around `data` (a model, or data a route's response model validates)."""
    return Envelope(data=data)


def failure(error_code: ErrorCode, message: str, data: Any = None) -> dict[str, Any]:
    """The error envelope: same shape, data null or a field -> message map."""
    return {
        "code": error_code.code,
        "messageCode": {"code": error_code.name_code, "text": error_code.text},
        "message": message,
        "data": data,
    }
