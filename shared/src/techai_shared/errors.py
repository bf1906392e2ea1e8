"""The error codes of the API envelope and the one exception base every package raises from."""

from __future__ import annotations

from enum import Enum
from typing import Any


class ErrorCode(Enum):
    """HTTP status, envelope code, message code and its Korean text (docs/api.md)."""

    INVALID_INPUT = (400, "4001", "INVALID_INPUT", "잘못된 입력입니다")
    TOKEN_LIMIT_EXCEEDED = (400, "4002", "TOKEN_LIMIT_EXCEEDED", "입력 토큰 한도를 초과했습니다")
    UNAUTHENTICATED = (401, "4011", "UNAUTHENTICATED", "인증이 필요합니다")
    FORBIDDEN = (403, "4031", "FORBIDDEN", "접근 권한이 없습니다")
    SESSION_NOT_FOUND = (404, "4041", "SESSION_NOT_FOUND", "세션을 찾을 수 없습니다")
    NOT_FOUND = (404, "4040", "NOT_FOUND", "리소스를 찾을 수 없습니다")
    BOOKMARK_NOT_FOUND = (404, "4042", "BOOKMARK_NOT_FOUND", "북마크를 찾을 수 없습니다")
    ITEM_NOT_FOUND = (404, "4043", "ITEM_NOT_FOUND", "항목을 찾을 수 없습니다")
    MESSAGE_NOT_FOUND = (404, "4044", "MESSAGE_NOT_FOUND", "메시지를 찾을 수 없습니다")
    FEEDBACK_NOT_FOUND = (404, "4045", "FEEDBACK_NOT_FOUND", "피드백을 찾을 수 없습니다")
    VERIFIED_ANSWER_NOT_FOUND = (404, "4046", "VERIFIED_ANSWER_NOT_FOUND",
                                 "검증된 답변을 찾을 수 없습니다")
    METHOD_NOT_ALLOWED = (405, "4051", "METHOD_NOT_ALLOWED", "허용되지 않는 메서드입니다")
    CONFLICT = (409, "4091", "CONFLICT", "이미 존재합니다")
    PAYLOAD_TOO_LARGE = (413, "4131", "PAYLOAD_TOO_LARGE", "요청 본문이 너무 큽니다")
    RATE_LIMITED = (429, "4291", "RATE_LIMITED", "요청 한도를 초과했습니다")
    TOKEN_BUDGET_EXCEEDED = (429, "4292", "TOKEN_BUDGET_EXCEEDED", "오늘의 토큰 예산을 모두 사용했습니다")
    INTERNAL_SERVER_ERROR = (500, "5000", "INTERNAL_SERVER_ERROR", "서버 내부 오류입니다")
    LLM_UNAVAILABLE = (503, "5031", "LLM_UNAVAILABLE", "언어 모델을 사용할 수 없습니다")
    SERVICE_UNAVAILABLE = (503, "5032", "SERVICE_UNAVAILABLE", "의존 서비스를 사용할 수 없습니다")
    LLM_TIMEOUT = (504, "5041", "LLM_TIMEOUT", "언어 모델 응답 시간이 초과되었습니다")

    @property
    def status(self) -> int:
        return self.value[0]

    @property
    def code(self) -> str:
        return self.value[1]

    @property
    def name_code(self) -> str:
        return self.value[2]

    @property
    def text(self) -> str:
        return self.value[3]


class AppError(Exception):
    """Base of every error that maps to an envelope response; domain code raises subclasses."""

    error_code: ErrorCode = ErrorCode.INTERNAL_SERVER_ERROR

    def __init__(
        self,
        message: str,
        *,
        data: Any = None,
        headers: dict[str, str] | None = None,
        error_code: ErrorCode | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.data = data
        self.headers = headers or {}
        if error_code is not None:
            self.error_code = error_code


class InvalidInput(AppError):
    error_code = ErrorCode.INVALID_INPUT


class Unauthenticated(AppError):
    error_code = ErrorCode.UNAUTHENTICATED


class Forbidden(AppError):
    error_code = ErrorCode.FORBIDDEN


class SessionNotFound(AppError):
    error_code = ErrorCode.SESSION_NOT_FOUND


class BookmarkNotFound(AppError):
    error_code = ErrorCode.BOOKMARK_NOT_FOUND


class ItemNotFound(AppError):
    """A contest or news article that does not exist or was deleted."""

    error_code = ErrorCode.ITEM_NOT_FOUND


class MessageNotFound(AppError):
    error_code = ErrorCode.MESSAGE_NOT_FOUND


class FeedbackNotFound(AppError):
    error_code = ErrorCode.FEEDBACK_NOT_FOUND


class VerifiedAnswerNotFound(AppError):
    error_code = ErrorCode.VERIFIED_ANSWER_NOT_FOUND


class Conflict(AppError):
    """The write would duplicate something that must be unique (an id, a user's bookmark of an item)."""

    error_code = ErrorCode.CONFLICT


class RateLimited(AppError):
    error_code = ErrorCode.RATE_LIMITED


class TokenBudgetExceeded(AppError):
    """The user's daily model-token budget is spent (or held by turns in flight) until midnight
    Asia/Seoul."""

    error_code = ErrorCode.TOKEN_BUDGET_EXCEEDED


class LlmUnavailable(AppError):
    error_code = ErrorCode.LLM_UNAVAILABLE


class LlmTimeout(AppError):
    error_code = ErrorCode.LLM_TIMEOUT


class TokenLimitExceeded(AppError):
    error_code = ErrorCode.TOKEN_LIMIT_EXCEEDED
