"""A stand-in OpenAI-compatible chat model for the bench: answers after a set delay, nothing else.

`python -m devstack.bench.model_server --port N`; POST /control {"delay": seconds} changes the
delay of the answers that follow (the bench uses 0 for throughput and 0.3 for latency).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

import uvicorn
from fastapi import FastAPI, Request

state: dict[str, float] = {"delay": 0.0}
app = FastAPI()


@app.post("/control")
async def control(request: Request) -> dict[str, float]:
    state["delay"] = float((await request.json())["delay"])
    return state


@app.post("/v1/chat/completions")
async def complete(request: Request) -> dict[str, Any]:
    body = await request.json()
    if state["delay"]:
        await asyncio.sleep(state["delay"])
    prompt = 11 * len(body["messages"])
    return {
        "id": "chatcmpl-bench", "object": "chat.completion", "created": int(time.time()),
        "model": body.get("model", "bench"),
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": "네, 말씀하세요. 무엇을 도와드릴까요?"}}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": 9, "total_tokens": prompt + 9},
    }


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
