"""schemathesis against each service's own OpenAPI document, over a real uvicorn on the real servers,
with a valid token (ADMIN for command-api, whose admin routes need it): no 5xx, every status code and
content type documented, every body (and SSE event) in its documented schema."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

import hypothesis
import pytest
import schemathesis
import uvicorn
from devstack.servers import free_port
from fastapi import FastAPI
from schemathesis import GenerationMode
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi import checks as openapi_checks

from chatbot_api.entrypoints.app import create_app as create_chatbot_app
from command_api.entrypoints.app import create_app as create_command_app
from command_api.settings import CommandSettings
from tests.conftest import eventually
from tests.security.conftest import bearer
from tests.support.chat import chat_settings, load_sample_catalog

pytestmark = [pytest.mark.integration, pytest.mark.slow]

MAX_EXAMPLES = int(os.environ.get("FUZZ_MAX_EXAMPLES", "25"))
CHECKS = [schemathesis.checks.not_a_server_error, openapi_checks.status_code_conformance,
          openapi_checks.content_type_conformance, openapi_checks.response_schema_conformance]
# Not negative_data_rejection: FastAPI ignores query parameters it does not know (as most HTTP APIs
# do), which that check counts as accepting invalid data. Negative cases still run every check above.


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


def fuzz(base_url: str, headers: dict[str, str]) -> list[str]:
    """Every operation in positive and negative mode; the failures, one line each."""
    schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json")
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            fuzz_operation(operation, mode, base_url, headers, failures)
    return failures


def fuzz_operation(operation: Any, mode: GenerationMode, base_url: str, headers: dict[str, str],
                   failures: list[str]) -> None:
    """Run the generated cases of one operation in one mode (hypothesis's @given takes no defaults,
    so the loop's values are bound by this function's arguments)."""
    label = operation.label

    @hypothesis.settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True,
                         database=None, suppress_health_check=list(hypothesis.HealthCheck),
                         phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate])
    @hypothesis.given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        response = case.call(base_url=base_url, headers=headers, timeout=60)
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except (AssertionError, FailureGroup) as exc:
            reason = [x for x in str(exc).splitlines() if x.strip()][0:5]
            failures.append(f"{label} [{mode.value}] {response.status_code}: {reason} "
                            f"body={response.text[:200]!r} request={case.path_parameters} "
                            f"{case.query} {str(case.body)[:200]}")

    run()


async def test_chatbot_api_keeps_its_openapi_document(settings, llm):
    llm.mode, llm.delay, llm.reply, llm.chunk_delay = "ok", 0.0, None, 0.0
    cfg = chat_settings(settings, openai_api_key="test-key", openai_base_url=llm.base_url)
    await load_sample_catalog(cfg)
    async with served(create_chatbot_app(cfg)) as url:
        failures = await asyncio.to_thread(fuzz, url, bearer(settings, "fuzz-user"))
    assert not failures, "\n".join(failures)


async def test_command_api_keeps_its_openapi_document(settings):
    cfg = CommandSettings(**settings.model_dump())
    async with served(create_command_app(cfg)) as url:
        failures = await asyncio.to_thread(fuzz, url, bearer(settings, "fuzz-admin", "ADMIN"))
    assert not failures, "\n".join(failures)
