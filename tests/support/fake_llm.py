"""A local model server for tests, speaking both wire formats chatbot-api's providers use: the OpenAI
Chat Completions API (`POST /v1/chat/completions`, JSON or SSE chunks ending in a usage chunk and
`[DONE]`) and the Anthropic Messages API (`POST /v1/messages`, JSON or SSE with message_start,
content_block_start/delta/stop, message_delta with the usage, message_stop). It records the
requests, answers, fails, throttles, hangs or drops the stream on demand.

It is the one stand-in allowed at a process boundary (the real providers cannot be reached here).
It runs uvicorn in a thread so that both in-process apps and child processes can call it.
`DroppingServer` is the other fault: it accepts a connection, reads the request and resets it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from devstack.servers import free_port, port_open, wait_until
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

OPENAI, ANTHROPIC = "openai", "anthropic"


class Dropped(Exception):
    """Raised inside a streamed answer: uvicorn then closes the connection mid-body."""


def openai_usage(messages: list[dict[str, Any]]) -> dict[str, int]:
    """What the fake reports on the OpenAI wire: 11 prompt tokens a message, 7 completion tokens."""
    prompt = 11 * len(messages)
    return {"prompt_tokens": prompt, "completion_tokens": 7, "total_tokens": prompt + 7}


def anthropic_usage(body: dict[str, Any]) -> dict[str, int]:
    """What it reports on the Anthropic wire: 17 input tokens a message (the system prompt counting
    as one), 5 output tokens; numbers of its own, so a test can tell which wire answered."""
    return {"input_tokens": 17 * (len(body["messages"]) + (1 if body.get("system") else 0)),
            "output_tokens": 5}


def text_of(content: Any) -> str:
    """A message's content as text: a string, or the Messages API's list of blocks."""
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content if isinstance(b, dict))


def as_chat_messages(body: dict[str, Any]) -> list[dict[str, str]]:
    """Either wire's messages as [{role, content}], system first (the Messages API's `system`)."""
    messages = [{"role": m["role"], "content": text_of(m["content"])} for m in body["messages"]]
    if "system" in body:
        messages.insert(0, {"role": "system", "content": text_of(body["system"])})
    return messages


@dataclass
class FakeLlm:
    """mode: "ok" answers (after `delay` seconds), "error" answers 500, "hang" never answers.

    `reply(body)` chooses the answer text (default "echo: <last message>"); it is given the request
    in the Chat Completions shape (`messages` with the system prompt first) whichever wire it came
    on. A streamed request gets the text in `chunks` pieces, `chunk_delay` seconds apart, then the
    usage. `fail_next(...)` scripts the next requests before `mode` applies again: "500",
    "429:<seconds>" (with Retry-After), "hang", or "drop-after-first" (a stream that sends its first
    piece, then loses its connection).
    """

    mode: str = "ok"
    delay: float = 0.0
    reply: Callable[[dict[str, Any]], str] | None = None
    chunks: int = 4
    chunk_delay: float = 0.0
    requests: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)  # wire, path, headers, at
    script: list[str] = field(default_factory=list)
    port: int = 0
    _server: uvicorn.Server | None = None
    _thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """OPENAI_BASE_URL: the Chat Completions API is under /v1."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def anthropic_base_url(self) -> str:
        """ANTHROPIC_BASE_URL: the SDK adds /v1/messages itself."""
        return f"http://127.0.0.1:{self.port}"

    def prompts(self) -> list[list[dict[str, str]]]:
        return [as_chat_messages(r) for r in self.requests]

    def fail_next(self, *faults: str) -> None:
        self.script.extend(faults)

    def reset(self) -> None:
        """Back to answering at once, with nothing scripted."""
        self.mode, self.delay, self.reply, self.chunks, self.chunk_delay = "ok", 0.0, None, 4, 0.0
        self.script.clear()

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def chat_completions(request: Request) -> Any:
            return await self._serve(request, OPENAI)

        @app.post("/v1/messages")
        async def messages(request: Request) -> Any:
            return await self._serve(request, ANTHROPIC)

        return app

    async def _serve(self, request: Request, wire: str) -> Any:
        body = await request.json()
        self.requests.append(body)
        self.calls.append({"wire": wire, "path": request.url.path, "headers": dict(request.headers),
                           "at": time.monotonic()})
        fault = self.script.pop(0) if self.script else self.mode
        if fault in ("error", "500"):
            return _error(wire, 500, "api_error", "boom")
        if fault.startswith("429"):
            retry_after = fault.partition(":")[2] or "1"
            return _error(wire, 429, "rate_limit_error", "slow down", {"Retry-After": retry_after})
        if fault == "hang":
            await asyncio.sleep(3600)
        if self.delay:
            await asyncio.sleep(self.delay)
        text = self.answer(body, wire)
        drop = fault == "drop-after-first"
        if wire == OPENAI:
            if body.get("stream"):
                return StreamingResponse(self._openai_stream(body, text, drop),
                                         media_type="text/event-stream")
            return JSONResponse(_openai_completion(body, text, len(self.requests)))
        if body.get("stream"):
            return StreamingResponse(self._anthropic_stream(body, text, drop),
                                     media_type="text/event-stream")
        return JSONResponse(_anthropic_message(body, text, len(self.requests)))

    def answer(self, body: dict[str, Any], wire: str = OPENAI) -> str:
        view = {**body, "messages": as_chat_messages(body)} if wire == ANTHROPIC else body
        if self.reply is not None:
            return self.reply(view)
        return f"echo: {text_of(view['messages'][-1]['content'])}"

    def _pieces(self, text: str) -> list[str]:
        size = max(1, -(-len(text) // self.chunks))
        return [text[start:start + size] for start in range(0, len(text), size)]

    async def _openai_stream(self, body: dict[str, Any], text: str, drop: bool) -> AsyncIterator[bytes]:
        base = {"id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": body.get("model", "fake")}
        first = {"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}
        yield _data({**base, "choices": [first]})
        for i, piece in enumerate(self._pieces(text)):
            if self.chunk_delay:
                await asyncio.sleep(self.chunk_delay)
            if drop and i == 1:
                raise Dropped("the connection is lost mid-stream")
            delta = {"index": 0, "delta": {"content": piece}, "finish_reason": None}
            yield _data({**base, "choices": [delta]})
        end = {"index": 0, "delta": {}, "finish_reason": "stop"}
        yield _data({**base, "choices": [end]})
        if (body.get("stream_options") or {}).get("include_usage"):
            yield _data({**base, "choices": [], "usage": openai_usage(body["messages"])})
        yield b"data: [DONE]\n\n"

    async def _anthropic_stream(self, body: dict[str, Any], text: str, drop: bool
                                ) -> AsyncIterator[bytes]:
        usage = anthropic_usage(body)
        message = {"id": f"msg_{len(self.requests)}", "type": "message", "role": "assistant",
                   "model": body.get("model", "fake"), "content": [], "stop_reason": None,
                   "stop_sequence": None, "usage": {"input_tokens": usage["input_tokens"],
                                                    "output_tokens": 1}}
        yield _event("message_start", {"type": "message_start", "message": message})
        yield _event("content_block_start", {"type": "content_block_start", "index": 0,
                                             "content_block": {"type": "text", "text": ""}})
        yield _event("ping", {"type": "ping"})
        for i, piece in enumerate(self._pieces(text)):
            if self.chunk_delay:
                await asyncio.sleep(self.chunk_delay)
            if drop and i == 1:
                raise Dropped("the connection is lost mid-stream")
            yield _event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                 "delta": {"type": "text_delta", "text": piece}})
        yield _event("content_block_stop", {"type": "content_block_stop", "index": 0})
        yield _event("message_delta", {"type": "message_delta",
                                       "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                       "usage": usage})
        yield _event("message_stop", {"type": "message_stop"})

    def start(self) -> FakeLlm:
        self.port = free_port()
        config = uvicorn.Config(self.app(), host="127.0.0.1", port=self.port, log_level="critical",
                                lifespan="off", timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        wait_until(lambda: port_open(self.port), 10, "fake LLM server")
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
            self._server.force_exit = True
        if self._thread is not None:
            self._thread.join(5)


def _openai_completion(body: dict[str, Any], text: str, n: int) -> dict[str, Any]:
    return {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": openai_usage(body["messages"])}


def _anthropic_message(body: dict[str, Any], text: str, n: int) -> dict[str, Any]:
    return {"id": f"msg_{n}", "type": "message", "role": "assistant",
            "model": body.get("model", "fake"), "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn", "stop_sequence": None, "usage": anthropic_usage(body)}


def _error(wire: str, status: int, kind: str, message: str, headers: dict[str, str] | None = None
           ) -> JSONResponse:
    if wire == ANTHROPIC:
        body: dict[str, Any] = {"type": "error", "error": {"type": kind, "message": message}}
    else:
        body = {"error": {"message": message, "type": kind, "code": None}}
    return JSONResponse(body, status, headers=headers)


def _data(chunk: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode()


def _event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


class DroppingServer:
    """A "model server" that reads each request and resets the connection without an answer."""

    def __init__(self) -> None:
        self.accepted = 0
        self._server: asyncio.Server | None = None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        with contextlib.suppress(Exception):
            await asyncio.wait_for(reader.read(65536), 1)
        writer.transport.abort()  # RST, not even an HTTP status line

    async def __aenter__(self) -> DroppingServer:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.close()

    @property
    def anthropic_base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    @property
    def base_url(self) -> str:
        return self.anthropic_base_url + "/v1"
