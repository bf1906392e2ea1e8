"""A local OpenAI-compatible chat server for tests: records prompts, answers, fails or hangs on demand.

It is the one stand-in allowed at a process boundary (the real provider cannot be reached here).
It runs uvicorn in a thread so that both in-process apps and child processes can call it.
"""

from __future__ import annotations

import asyncio
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


@dataclass
class FakeLlm:
    """mode: "ok" answers at once (after `delay` seconds), "error" answers 500, "hang" never answers.

    `reply(body)` chooses the answer text (default "echo: <last message>"); a streamed request
    (`"stream": true`) gets it in `chunks` pieces, `chunk_delay` seconds apart, then the usage.
    """

    mode: str = "ok"
    delay: float = 0.0
    reply: Callable[[dict[str, Any]], str] | None = None
    chunks: int = 4
    chunk_delay: float = 0.0
    requests: list[dict[str, Any]] = field(default_factory=list)
    port: int = 0
    _server: uvicorn.Server | None = None
    _thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def prompts(self) -> list[list[dict[str, str]]]:
        return [r["messages"] for r in self.requests]

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def complete(request: Request) -> JSONResponse:
            body = await request.json()
            self.requests.append(body)
            if self.mode == "error":
                return JSONResponse({"error": {"message": "boom", "type": "server_error"}}, 500)
            if self.mode == "hang":
                await asyncio.sleep(3600)
            if self.delay:
                await asyncio.sleep(self.delay)
            text = self.answer(body)
            if body.get("stream"):
                return StreamingResponse(self._stream(body, text), media_type="text/event-stream")
            return JSONResponse({
                "id": f"chatcmpl-{len(self.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "fake"),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": text}}],
                "usage": {"prompt_tokens": 11 * len(body["messages"]), "completion_tokens": 7,
                          "total_tokens": 11 * len(body["messages"]) + 7},
            })

        return app

    def answer(self, body: dict[str, Any]) -> str:
        if self.reply is not None:
            return self.reply(body)
        return f"echo: {body['messages'][-1]['content']}"

    async def _stream(self, body: dict[str, Any], text: str) -> AsyncIterator[bytes]:
        size = max(1, -(-len(text) // self.chunks))
        base = {"id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": body.get("model", "fake")}
        for start in range(0, len(text), size):
            if self.chunk_delay:
                await asyncio.sleep(self.chunk_delay)
            delta = {"index": 0, "delta": {"content": text[start:start + size]}, "finish_reason": None}
            yield f"data: {json.dumps({**base, 'choices': [delta]})}\n\n".encode()
        end = {"index": 0, "delta": {}, "finish_reason": "stop"}
        yield f"data: {json.dumps({**base, 'choices': [end]})}\n\n".encode()
        usage = {"prompt_tokens": 11 * len(body["messages"]), "completion_tokens": 7,
                 "total_tokens": 11 * len(body["messages"]) + 7}
        yield f"data: {json.dumps({**base, 'choices': [], 'usage': usage})}\n\n".encode()
        yield b"data: [DONE]\n\n"

    def start(self) -> FakeLlm:
        self.port = free_port()
        config = uvicorn.Config(self.app(), host="127.0.0.1", port=self.port, log_level="warning",
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
