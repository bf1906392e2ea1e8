"""Routes of the answer-improvement loop for the ADMIN role: users' ratings and verified answers."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from fastapi import Path, Query, status

from command_api.entrypoints.deps import AdminUser, VerifiedAnswerServiceDep
from command_api.entrypoints.schemas import (
    AnswerUsePage,
    FeedbackPage,
    VerifiedAnswerPage,
    VerifiedAnswerPublic,
    VerifiedAnswerWrite,
)
from techai_shared.clock import day_window
from techai_shared.envelope import Envelope, success
from techai_shared.errors import ErrorCode, InvalidInput
from techai_shared.web import api_router, error_responses
from techai_shared.web.fields import IsoDate

router = api_router("/api/v1/admin", ["admin"], ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN,
                    ErrorCode.INTERNAL_SERVER_ERROR, ErrorCode.SERVICE_UNAVAILABLE)

AnswerId = Annotated[str, Path(min_length=3, max_length=24, pattern=r"^v-[0-9]+$",
                               description="a public id, v-0001")]
FeedbackId = Annotated[str, Path(min_length=1, max_length=36, pattern=r"^[A-Za-z0-9-]+$")]
# A malformed id (the path's pattern) is 400, a well-formed one that does not exist 404.
NOT_FOUND = error_responses(ErrorCode.INVALID_INPUT, ErrorCode.VERIFIED_ANSWER_NOT_FOUND)
WRITE = error_responses(ErrorCode.INVALID_INPUT, ErrorCode.PAYLOAD_TOO_LARGE)


def _paging(total: int, page: int, size: int) -> dict[str, int]:
    return {"totalElements": total, "totalPages": math.ceil(total / size), "currentPage": page,
            "pageSize": size}


@router.get("/feedback", response_model=Envelope[FeedbackPage],
            responses=error_responses(ErrorCode.INVALID_INPUT))
async def read_feedback(
    _: AdminUser,
    answers: VerifiedAnswerServiceDep,
    rating: Literal["up", "down"] | None = None,
    first: Annotated[IsoDate | None, Query(alias="from", description="first day (Asia/Seoul), "
                                           "YYYY-MM-DD")] = None,
    last: Annotated[IsoDate | None, Query(alias="to", description="last day, included")] = None,
    page: Annotated[int, Query(ge=0, le=100_000)] = 0,
    size: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Envelope[dict[str, Any]]:
    """Users' ratings of answers, newest change first, each with its question, answer and sources
    (read from the read model: a rating shows here within about a second of being given)."""
    if first and last and first > last:
        raise InvalidInput("from must not be after to", data={"from": "must not be after to"})
    entries, total = await answers.feedback(rating, *day_window(first, last), page * size, size)
    return success({"feedback": [e.public() for e in entries], **_paging(total, page, size)})


@router.post("/feedback/{feedback_id}/verified-answer", status_code=status.HTTP_201_CREATED,
             response_model=Envelope[VerifiedAnswerPublic],
             responses=error_responses(ErrorCode.FEEDBACK_NOT_FOUND, ErrorCode.INVALID_INPUT))
async def draft_verified_answer(feedback_id: FeedbackId, admin: AdminUser,
                                answers: VerifiedAnswerServiceDep) -> Envelope[dict[str, Any]]:
    """A draft verified answer from a rated exchange: its question as the first phrasing, its
    answer as the text, its catalog sources. Edit it and publish it with a PUT (`status`)."""
    return success((await answers.draft_from_feedback(feedback_id, admin.user_id)).public())


@router.post("/verified-answers", status_code=status.HTTP_201_CREATED,
             response_model=Envelope[VerifiedAnswerPublic], responses=WRITE)
async def create_verified_answer(body: VerifiedAnswerWrite, admin: AdminUser,
                                 answers: VerifiedAnswerServiceDep) -> Envelope[dict[str, Any]]:
    """A verified answer; chatbot-api serves a published one within about two seconds."""
    return success((await answers.create(_fields(body), admin.user_id)).public())


@router.get("/verified-answers", response_model=Envelope[VerifiedAnswerPage],
            responses=error_responses(ErrorCode.INVALID_INPUT))
async def read_verified_answers(
    _: AdminUser,
    answers: VerifiedAnswerServiceDep,
    status_: Annotated[Literal["draft", "published"] | None, Query(alias="status")] = None,
    page: Annotated[int, Query(ge=0, le=100_000)] = 0,
    size: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Envelope[dict[str, Any]]:
    found, total = await answers.page(status_, page * size, size)
    return success({"verifiedAnswers": [a.public() for a in found], **_paging(total, page, size)})


@router.get("/verified-answers/{answer_id}", response_model=Envelope[VerifiedAnswerPublic],
            responses=NOT_FOUND)
async def read_verified_answer(answer_id: AnswerId, _: AdminUser,
                               answers: VerifiedAnswerServiceDep) -> Envelope[dict[str, Any]]:
    return success((await answers.get(answer_id)).public())


@router.get("/verified-answers/{answer_id}/uses", response_model=Envelope[AnswerUsePage],
            responses=NOT_FOUND)
async def read_verified_answer_uses(
    answer_id: AnswerId,
    _: AdminUser,
    answers: VerifiedAnswerServiceDep,
    kind: Literal["served", "suggested"] | None = None,
    page: Annotated[int, Query(ge=0, le=100_000)] = 0,
    size: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Envelope[dict[str, Any]]:
    """The questions the answer was served or suggested for, newest first, as users asked them:
    an answer suggested more than served needs the wordings of its suggested questions."""
    found, total = await answers.uses(answer_id, kind, page * size, size)
    return success({"uses": [u.public() for u in found], **_paging(total, page, size)})


@router.put("/verified-answers/{answer_id}", response_model=Envelope[VerifiedAnswerPublic],
            responses={**WRITE, **NOT_FOUND})
async def update_verified_answer(answer_id: AnswerId, body: VerifiedAnswerWrite, _: AdminUser,
                                 answers: VerifiedAnswerServiceDep) -> Envelope[dict[str, Any]]:
    """Replace every field (publish a draft with `"status": "published"`)."""
    return success((await answers.replace(answer_id, _fields(body))).public())


@router.delete("/verified-answers/{answer_id}", response_model=Envelope[VerifiedAnswerPublic],
               responses=NOT_FOUND)
async def delete_verified_answer(answer_id: AnswerId, _: AdminUser,
                                 answers: VerifiedAnswerServiceDep) -> Envelope[dict[str, Any]]:
    """Stop serving it (within about two seconds) and delete it."""
    return success((await answers.delete(answer_id)).public())


def _fields(body: VerifiedAnswerWrite) -> dict[str, Any]:
    questions = list(dict.fromkeys(" ".join(q.split()) for q in body.questions))
    return {"status": body.status, "questions": questions, "answer": body.answer.strip(),
            "sources": list(dict.fromkeys(body.sources)), "valid_from": body.valid_from,
            "valid_until": body.valid_until}
