"""Searching one's conversations, on the real servers: the command store (MariaDB), the projector
and the search indexer writing SecantusDB, and the read model's search reading it."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import select

from chatbot_api.adapters.read_model import MongoReadModel
from chatbot_api.bootstrap import unit_of_work
from chatbot_api.service_layer.sessions import SessionService
from query_sync.adapters.conversations import ConversationProjector
from query_sync.adapters.search_index import SearchIndexer
from techai_shared import korean
from techai_shared.clock import utcnow
from techai_shared.conversation.model import NewMessage
from techai_shared.conversation.search import POSTINGS
from techai_shared.db.schema import outbox_events
from techai_shared.events import EventEnvelope
from techai_shared.mongo import make_mongo_client
from tests.support.conversations import Conversations

pytestmark = pytest.mark.integration


class World:
    def __init__(self, engine: Any, db: Any) -> None:
        self.engine = engine
        self.db = db
        self.store = Conversations(engine)
        self.projector = ConversationProjector(db)
        self.indexer = SearchIndexer(db, ttl_seconds=3600, batch_size=7)
        self.search = SessionService(unit_of_work(engine), MongoReadModel(db), utcnow).search
        self._published = 0

    async def chat(self, user: str, question: str, answer: str, session_id: str | None = None) -> str:
        result = await self.store.append_exchange(user, session_id, NewMessage("user", question, 5),
                                                  NewMessage("assistant", answer, 9), utcnow())
        return result.session.session_id

    async def sync(self) -> None:
        """Project every new event, then index until nothing is marked."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(outbox_events.c.id, outbox_events.c.body)
                                       .where(outbox_events.c.id > self._published)
                                       .order_by(outbox_events.c.id))).all()
        for row in rows:
            await self.projector.apply(EventEnvelope.from_json(row.body))
            self._published = row.id
        while await self.indexer.run_once():
            pass

    async def found(self, user: str, query: str) -> list[str]:
        hits, total = await self.search(user, query, offset=0, limit=50)
        assert total >= len(hits)
        return [h.session.session_id for h in hits]


@pytest.fixture
async def world(settings, engine):
    mongo = make_mongo_client(settings)
    db = mongo[settings.mongodb_database]
    w = World(engine, db)
    await w.projector.prepare()
    await w.indexer.prepare()
    try:
        yield w
    finally:
        await mongo.close()


async def test_a_korean_word_is_found_inside_longer_eojeol_and_an_english_one_in_any_case(world):
    me, other = uuid.uuid4().hex, uuid.uuid4().hex
    ai = await world.chat(me, "AI해커톤 일정 알려줘", "다음 주에 열리는 대회 두 개를 찾았어요.")
    plain = await world.chat(me, "대학생 대회 있어?", "해커톤은 12월 5일에 시작합니다.")
    ctf = await world.chat(me, "보안 대회 목록", "Here are the Security CTFs in December: Blue Harbor.")
    unrelated = await world.chat(me, "오늘 IT 뉴스", "클라우드 요금 인하 소식이 있어요.")
    theirs = await world.chat(other, "해커톤 추천해줘", "AI해커톤과 CTF가 있어요.")
    await world.sync()

    found = await world.found(me, "해커톤")
    assert set(found) == {ai, plain}
    assert unrelated not in found and theirs not in found
    assert await world.found(me, "ctf") == [ctf]
    assert await world.found(me, "SECURITY ctfs") == [ctf]
    assert await world.found(other, "해커톤") == [theirs]
    assert await world.found(me, "해커톤 CTF") == []  # every word, in one session

    hits, total = await world.search(me, "ctf", offset=0, limit=10)
    assert total == 1
    hit = hits[0]
    assert len(hit.message_ids) == 1 and hit.snippet.message_id == hit.message_ids[0]
    start, length = hit.snippet.highlights[0]
    assert hit.snippet.text[start:start + length] == "CTF"


async def test_deleted_sessions_are_never_found_and_leave_the_index(world):
    me = uuid.uuid4().hex
    kept = await world.chat(me, "블록체인 해커톤 알려줘", "블록체인 해커톤이 하나 있어요.")
    gone = await world.chat(me, "블록체인 공모전", "블록체인 해커톤 공모전을 찾았어요.")
    await world.sync()
    assert set(await world.found(me, "블록체인")) == {kept, gone}

    await world.store.delete(gone, me, utcnow())
    await world.sync()
    assert await world.found(me, "블록체인") == [kept]
    postings = [d async for d in world.db[POSTINGS].find({"user_id": me})]
    assert postings and all(gone not in text for d in postings
                            for part in ("w", "t") for text in d.get(part, {}).values())
    assert any(kept in text for d in postings for text in d.get("w", {}).values())


async def test_titles_count_first_then_messages_then_the_newer_session(world):
    me = uuid.uuid4().hex
    many = await world.chat(me, "대회 정리", "Kaggle competition list.")
    await world.chat(me, "더 있어?", "Kaggle 대회가 하나 더 있어요.", many)
    newer = await world.chat(me, "질문 하나", "Kaggle 소식입니다.")
    newest = await world.chat(me, "질문 둘", "Kaggle 소식 없음.")
    titled = await world.chat(me, "새 질문", "Kaggle 뉴스.")
    await world.store.rename(titled, me, "Kaggle 모음")
    await world.sync()
    assert await world.found(me, "kaggle") == [titled, many, newest, newer]
    page, total = await world.search(me, "kaggle", offset=1, limit=2)
    assert total == 4 and [h.session.session_id for h in page] == [many, newest]


async def test_a_search_with_no_searchable_word_finds_nothing(world):
    me = uuid.uuid4().hex
    await world.chat(me, "the and of", "은는이가")
    await world.sync()
    assert await world.search(me, "the ?", offset=0, limit=10) == ([], 0)


async def test_bulk_loaded_postings_are_the_documents_the_indexer_writes(world):
    """The bench loads Postings.documents(); they must be what the upserts make."""
    from query_sync.adapters.search_index import Postings

    me = uuid.uuid4().hex
    sid = await world.chat(me, "node.js 해커톤 있어?", "Node.js 해커톤 두 개와 AI해커톤 하나가 있어요.")
    await world.chat(me, "상금은?", "해커톤 상금은 300만 원이에요.", sid)
    await world.sync()
    stored = [d async for d in world.db[POSTINGS].find({"user_id": me}, sort=[("_id", 1)])]
    expected = Postings(utcnow())
    async for m in world.db["conversation_messages"].find({"session_id": sid}):
        expected.message(me, sid, m["message_id"], korean.index_terms(m["content"]))
    title = (await world.db["conversation_sessions"].find_one({"session_id": sid}))["title"]
    expected.title(me, sid, korean.index_terms(title))
    assert [_parsed(d) for d in stored] == [_parsed(d) for d in expected.documents()]


def _parsed(doc):
    """A posting document with its strings read (the order of appended entries may differ)."""
    from techai_shared.conversation.search import parse_messages, parse_titles

    return {**{k: v for k, v in doc.items() if k not in ("updated_at", "w", "t")},
            "w": {f: parse_messages(text) for f, text in doc.get("w", {}).items()},
            "t": {f: parse_titles(text) for f, text in doc.get("t", {}).items()}}
