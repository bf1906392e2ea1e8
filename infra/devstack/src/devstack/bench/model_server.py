"""A stand-in chat model for the bench: answers after a set delay, on both providers' wires.

`POST /v1/chat/completions` speaks the OpenAI Chat Completions API and `POST /v1/messages` the
Anthropic Messages API, each as JSON or, for `"stream": true`, as their Server-Sent Events (with the
token usage). `python -m devstack.bench.model_server --port N`; POST /control {"delay": seconds}
changes the delay of the answers that follow (the bench uses 0 for throughput and 0.3 for latency).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse

# An answer of a typical length (about 120 tokens), so that the history of a session holds as many
# turns as it would with a real model: the 2,000-token window of a turn keeps about 14 messages.
ANSWER = (
    "네, 말씀하세요. 오늘도 개발자 포털의 공모전, 해커톤, 기술 뉴스에 대해 무엇이든 물어보세요. "
    "관심 있는 분야(예: AI, 클라우드, 보안, 모바일)나 참가 자격, 신청 마감일, 상금 규모를 알려 주시면 "
    "조건에 맞는 행사를 찾아 일정과 함께 정리해 드리고, 북마크한 항목 중에서 마감이 가까운 것도 "
    "먼저 알려 드릴게요. 최근 뉴스가 궁금하시면 주제를 말씀해 주세요. 무엇을 도와드릴까요?"
)
PIECES = [ANSWER[i:i + 24] for i in range(0, len(ANSWER), 24)]
OUTPUT_TOKENS = 124

state: dict[str, float] = {"delay": 0.0}
app = FastAPI()


@app.post("/control")
async def control(request: Request) -> dict[str, float]:
    state["delay"] = float((await request.json())["delay"])
    return state


@app.post("/v1/chat/completions")
async def chat_completions(request: Request) -> Any:
    body = await request.json()
    if state["delay"]:
        await asyncio.sleep(state["delay"])
    prompt = 11 * len(body["messages"])
    usage = {"prompt_tokens": prompt, "completion_tokens": OUTPUT_TOKENS,
             "total_tokens": prompt + OUTPUT_TOKENS}
    base = {"id": "chatcmpl-bench", "created": int(time.time()), "model": body.get("model", "bench")}
    if body.get("stream"):
        return StreamingResponse(_openai_stream(base, usage), media_type="text/event-stream")
    return {**base, "object": "chat.completion",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": ANSWER}}],
            "usage": usage}


async def _openai_stream(base: dict[str, Any], usage: dict[str, int]) -> AsyncIterator[bytes]:
    base = {**base, "object": "chat.completion.chunk"}
    for piece in PIECES:
        yield _data({**base, "choices": [{"index": 0, "delta": {"content": piece},
                                          "finish_reason": None}]})
    yield _data({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    yield _data({**base, "choices": [], "usage": usage})
    yield b"data: [DONE]\n\n"


@app.post("/v1/messages")
async def messages(request: Request) -> Any:
    body = await request.json()
    if state["delay"]:
        await asyncio.sleep(state["delay"])
    usage = {"input_tokens": 11 * (len(body["messages"]) + 1), "output_tokens": OUTPUT_TOKENS}
    message = {"id": "msg_bench", "type": "message", "role": "assistant",
               "model": body.get("model", "bench"), "stop_sequence": None}
    if body.get("stream"):
        return StreamingResponse(_anthropic_stream(message, usage), media_type="text/event-stream")
    return {**message, "content": [{"type": "text", "text": ANSWER}], "stop_reason": "end_turn",
            "usage": usage}


async def _anthropic_stream(message: dict[str, Any], usage: dict[str, int]) -> AsyncIterator[bytes]:
    start = {**message, "content": [], "stop_reason": None,
             "usage": {"input_tokens": usage["input_tokens"], "output_tokens": 1}}
    yield _event("message_start", {"type": "message_start", "message": start})
    yield _event("content_block_start", {"type": "content_block_start", "index": 0,
                                         "content_block": {"type": "text", "text": ""}})
    for piece in PIECES:
        yield _event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                             "delta": {"type": "text_delta", "text": piece}})
    yield _event("content_block_stop", {"type": "content_block_stop", "index": 0})
    yield _event("message_delta", {"type": "message_delta", "usage": usage,
                                   "delta": {"stop_reason": "end_turn", "stop_sequence": None}})
    yield _event("message_stop", {"type": "message_stop"})


def _data(chunk: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode()


def _event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def serve(asgi_app: Any) -> None:
    """Serve `asgi_app` on 127.0.0.1:--port, quietly: the bench's helper processes run this."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(asgi_app, host="127.0.0.1", port=args.port, log_level="warning", access_log=False)


def main() -> None:
    serve(app)


if __name__ == "__main__":
    main()
