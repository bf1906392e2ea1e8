"""The API envelope (DESIGN.md section 4) and the pydantic base for camelCase response bodies."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from techai_shared.errors import ErrorCode

T = TypeVar("T")


class CamelModel(BaseModel):
    """Schemas serialised with camelCase names; input accepts either spelling."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class MessageCode(BaseModel):
    code: str
    text: str


class Envelope(BaseModel, Generic[T]):
    """{"code", "messageCode": {"code", "text"}, "message", "data"}."""

    code: str
    messageCode: MessageCode
    message: str
    data: T | None = None


def success(data: Any) -> dict[str, Any]:
    """The success envelope around already-serialisable data."""
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json", by_alias=True)
    return {
        "code": "2000",
        "messageCode": {"code": "SUCCESS", "text": "성공"},
        "message": "success",
        "data": data,
    }


def failure(error_code: ErrorCode, message: str, data: Any = None) -> dict[str, Any]:
    """The error envelope: same shape, data null or a field -> message map."""
    return {
        "code": error_code.code,
        "messageCode": {"code": error_code.name_code, "text": error_code.text},
        "message": message,
        "data": data,
    }
