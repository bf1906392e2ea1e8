"""Session search on MongoDB Atlas Local (TEST_INFRA=containers only): query-sync creates the Nori
search indexes of messages and titles, and the read model finds the same sessions through
`$search` as the posting index does on SecantusDB (tests/integration/test_session_search.py).

SecantusDB has no search indexes, so this module is skipped there."""

from __future__ import annotations

import uuid

import pytest

from chatbot_api.adapters.read_model import MongoReadModel
from query_sync.adapters.search_indexes import ensure_conversation_indexes
from techai_shared.korean import query_terms
from tests.conftest import CONTAINERS, eventually
from tests.integration import test_session_search
from tests.integration.test_session_search import World

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not CONTAINERS, reason="needs Atlas Local: run with TEST_INFRA=containers"),
]

world = test_session_search.world  # the same stores, projector and indexer


async def test_atlas_search_finds_korean_inside_eojeol_and_english_in_any_case(world: World):
    assert await ensure_conversation_indexes(world.db, timeout_seconds=240) is True
    me, other = uuid.uuid4().hex, uuid.uuid4().hex
    ai = await world.chat(me, "AI해커톤 일정 알려줘", "다음 주에 열리는 대회 두 개를 찾았어요.")
    plain = await world.chat(me, "대학생 대회 있어?", "해커톤은 12월 5일에 시작합니다.")
    ctf = await world.chat(me, "보안 대회 목록", "Here are the Security CTFs in December.")
    await world.chat(other, "해커톤 추천해줘", "AI해커톤이 있어요.")
    await world.sync()
    read_model = MongoReadModel(world.db, atlas=True)

    async def sessions(user: str, q: str, expected: set[str]) -> bool | None:
        found, _ = await read_model.search_sessions(user, query_terms(q), 0, 10)
        return {m.session.session_id for m in found} == expected or None

    await eventually(lambda: sessions(me, "해커톤", {ai, plain}), within=60)
    await eventually(lambda: sessions(me, "ctf", {ctf}), within=60)
