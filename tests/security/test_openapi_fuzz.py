"""schemathesis against each service's own OpenAPI document, over a real uvicorn on the real servers,
with a valid token (ADMIN for command-api, whose admin routes need it).

It runs the schemathesis CLI as a client would, `schemathesis run --checks all` (every phase:
examples, coverage, fuzzing, stateful), so every check applies: no 5xx, every status code, content
type, header and body (and SSE event) as documented, schema-valid requests accepted
(positive_data_acceptance), schema-violating ones refused (negative_data_rejection), 405 with
`Allow` for undocumented methods (unsupported_method), and the rest. The test fails on any failure or
error except those of ALLOWED: the rules between fields that JSON Schema cannot express, each listed
in docs/api.md ("Rules the schema cannot express").

FUZZ_MAX_EXAMPLES (cases per operation and phase) and FUZZ_SEED change the run; the report of the
last run is kept in the test's tmp_path (schemathesis.ndjson) with the CLI's output.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from devstack.servers import free_port
from fastapi import FastAPI

from chatbot_api.entrypoints.app import create_app as create_chatbot_app
from command_api.entrypoints.app import create_app as create_command_app
from command_api.settings import CommandSettings
from tests.conftest import eventually
from tests.security.conftest import bearer
from tests.support.chat import chat_settings, load_sample_catalog

pytestmark = [pytest.mark.integration, pytest.mark.slow]

MAX_EXAMPLES = os.environ.get("FUZZ_MAX_EXAMPLES")
SEED = os.environ.get("FUZZ_SEED", "20261123")
SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"


@dataclass(frozen=True)
class Allowed:
    """A failure that is expected: the operation (a regex on "METHOD /path"), the check, the status
    and envelope code the API answered with, and a regex matching the envelope's message or one of
    its field messages (`data`); `why` says which documented rule it is."""

    operation: str
    check: str
    message: str
    why: str
    status: int = 400
    code: str = "4001"

    def covers(self, failure: Failure) -> bool:
        return (re.fullmatch(self.operation, failure.operation) is not None
                and failure.check == self.check
                and (failure.status, failure.envelope_code) == (self.status, self.code)
                and any(re.search(self.message, text) for text in failure.envelope_texts))


# The rules of docs/api.md, "Rules the schema cannot express". Nothing else is allowed.
ALLOWED = [
    # Rules between two fields (or a field and a default): JSON Schema states each field alone, so a
    # request that is valid field by field can still break them; positive_data_acceptance reports
    # the 400 that follows.
    Allowed("GET /api/v1/chatbot/usage", "positive_data_acceptance", r"^from must not be after to$",
            "`from` after `to`"),
    Allowed("GET /api/v1/chatbot/usage", "positive_data_acceptance", r"^at most 366 days at once$",
            "more than 366 days from `from` to `to` (`to` defaults to today, `from` to 29 days "
            "before `to`)"),
    Allowed(r"(POST /api/v1/admin/contests|PUT /api/v1/admin/contests/\{contest_id\})",
            "positive_data_acceptance", r"endDate must not be before startDate",
            "`endDate` before `startDate`"),
    Allowed("GET /api/v1/admin/feedback", "positive_data_acceptance", r"^from must not be after to$",
            "`from` after `to`"),
    Allowed(r"(POST /api/v1/admin/verified-answers|PUT /api/v1/admin/verified-answers/\{answer_id\})",
            "positive_data_acceptance", r"validUntil must be after validFrom",
            "`validUntil` not after `validFrom`"),
    # A rule against the command store: every source must be a live contest or news article.
    Allowed(r"(POST /api/v1/admin/verified-answers|PUT /api/v1/admin/verified-answers/\{answer_id\})",
            "positive_data_acceptance", r"^no such contest or news article",
            "a source that is not a live contest or news article"),
    # The body size limit counts bytes, JSON Schema counts characters: 200,000 characters of news
    # content can be over command-api's 1 MiB (up to 12 bytes a character, escaped), and
    # properties the schemas do not name may be any size. Such a body is refused with 413 before it
    # is read, whether or not it was valid.
    Allowed(r"(POST|PUT|PATCH) .*", "positive_data_acceptance", r"^request body", "body over the limit",
            status=413, code="4131"),
    Allowed(r"(POST|PUT|PATCH) .*", "negative_data_rejection", r"^request body",
            "an invalid body over the limit: refused, with 413 (not in schemathesis' list for this check)",
            status=413, code="4131"),
    # The same limit on the OpenAI-compatible routes, whose errors are OpenAI's (code in words).
    Allowed(r"POST /v1/.*", "positive_data_acceptance", r"^request body", "body over the limit",
            status=413, code="payload_too_large"),
    Allowed(r"POST /v1/.*", "negative_data_rejection", r"^request body",
            "an invalid body over the limit: refused, with 413", status=413, code="payload_too_large"),
    # The question's rules once its text parts are joined: 1..500 characters, one of them
    # visible (JSON Schema holds each part, not their concatenation).
    Allowed("POST /v1/chat/completions", "positive_data_acceptance", r"messages\.\d+\.content: ",
            "the last user message's text parts, joined, break the message rules",
            code="invalid_value"),
]


@dataclass(frozen=True)
class Failure:
    operation: str
    check: str
    code: str  # schemathesis' failure code, e.g. ST202
    title: str
    status: int | None
    envelope_code: str
    envelope_texts: tuple[str, ...]  # the message, then each field's message
    detail: str  # what to read when it is not allowed: the check's message, the request, the answer

    def __str__(self) -> str:
        return f"{self.operation} [{self.check} {self.code} {self.title}] {self.status}\n{self.detail}"


@contextlib.asynccontextmanager
async def served(app: FastAPI) -> AsyncIterator[str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())

    async def started() -> bool:
        return server.started

    await eventually(started, within=60, interval=0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


async def schemathesis_run(base_url: str, headers: dict[str, str], workdir: Path) -> list[Failure]:
    """`schemathesis run --checks all` against the served app; its failures and errors."""
    report = workdir / "schemathesis.ndjson"
    argv = [str(SCHEMATHESIS), "run", f"{base_url}/openapi.json", "--checks", "all",
            "--seed", SEED, "--report", "ndjson", "--report-ndjson-path", str(report),
            *[arg for name, value in headers.items() for arg in ("-H", f"{name}: {value}")]]
    if MAX_EXAMPLES:
        argv += ["--max-examples", MAX_EXAMPLES]
    process = await asyncio.create_subprocess_exec(  # in workdir: its crash cache stays there
        *argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, cwd=workdir,
        env={**os.environ, "NO_COLOR": "1"})
    output, _ = await process.communicate()
    (workdir / "schemathesis.txt").write_bytes(output)
    failures = list(_failures(report))
    assert report.exists() and (process.returncode == 0 or failures), output.decode()[-5000:]
    return failures


def _failures(report: Path) -> Iterator[Failure]:
    seen: set[tuple[Any, ...]] = set()
    for line in report.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        name, body = next(iter(event.items()))
        if "Error" in name:  # NonFatalError, FatalError: the run itself went wrong
            yield Failure(str(body.get("label", "")), name, "", "", None, "", (),
                          json.dumps(body, ensure_ascii=False)[:2000])
            continue
        if name != "ScenarioFinished":
            continue
        recorder = body["recorder"]
        for case_id, checks in recorder.get("checks", {}).items():
            for check in checks:
                if check["status"] != "failure":
                    continue
                failure = _failure(check, recorder.get("interactions", {}).get(case_id) or {})
                key = (failure.operation, failure.check, failure.code, failure.status,
                       failure.envelope_code, failure.envelope_texts)
                if key not in seen:
                    seen.add(key)
                    yield failure


def _failure(check: dict[str, Any], interaction: dict[str, Any]) -> Failure:
    info = check.get("failure_info", {}).get("failure", {})
    request, response = interaction.get("request") or {}, interaction.get("response") or {}
    text = _text(response.get("content"))
    try:
        envelope = json.loads(text)
    except ValueError:
        envelope = {}
    if not isinstance(envelope, dict):
        envelope = {}
    detail = (f"  {info.get('message', '')}\n  request: {request.get('method')} {request.get('uri')} "
              f"{_text(request.get('body'))[:500]}\n  response: {text[:500]}")
    data = envelope.get("data")
    texts = (str(envelope.get("message", "")), *map(str, data.values() if isinstance(data, dict) else ()))
    code = envelope.get("code", "")
    if isinstance(envelope.get("error"), dict):  # an OpenAI-shaped error (/v1)
        code, texts = envelope["error"].get("code"), (str(envelope["error"].get("message", "")),)
    return Failure(info.get("operation", ""), check["name"], info.get("code", ""),
                   info.get("title", ""), response.get("status_code"), str(code), texts, detail)


def _text(content: Any) -> str:
    if isinstance(content, dict) and "$base64" in content:
        return base64.b64decode(content["$base64"]).decode("utf-8", errors="replace")
    return "" if content is None else str(content)


def unexpected(failures: list[Failure]) -> list[Failure]:
    return [f for f in failures if not any(a.covers(f) for a in ALLOWED)]


async def test_chatbot_api_keeps_its_openapi_document(settings, llm, tmp_path):
    llm.mode, llm.delay, llm.reply, llm.chunk_delay = "ok", 0.0, None, 0.0
    cfg = chat_settings(settings, openai_api_key="test-key", openai_base_url=llm.base_url)
    await load_sample_catalog(cfg)
    async with served(create_chatbot_app(cfg)) as url:
        failures = await schemathesis_run(url, bearer(settings, "fuzz-user"), tmp_path)
    left = unexpected(failures)
    assert not left, "\n\n".join(map(str, left))


async def test_command_api_keeps_its_openapi_document(settings, tmp_path):
    cfg = CommandSettings(**settings.model_dump())
    async with served(create_command_app(cfg)) as url:
        failures = await schemathesis_run(url, bearer(settings, "fuzz-admin", "ADMIN"), tmp_path)
    left = unexpected(failures)
    assert not left, "\n\n".join(map(str, left))
