"""The Atlas strategy's $vectorSearch pipeline and vector index definition, checked against the
shape documented at https://www.mongodb.com/docs/atlas/atlas-vector-search/vector-search-stage/
(stage fields index, path, queryVector, numCandidates, limit, filter; score from
{$meta: "vectorSearchScore"}) and the vectorSearch index type (vector + filter fields)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chatbot_api.adapters.atlas_search import (
    fusion_candidates,
    merge_sides,
    num_candidates,
    text_filter,
    text_search_pipeline,
    vector_search_pipeline,
)
from chatbot_api.retrieval.model import Collection, RetrievalError, SearchFilters
from techai_shared.search_indexes import (
    text_index_definition,
    text_index_name,
    vector_index_definition,
    vector_index_name,
)

pytestmark = pytest.mark.unit

VECTOR = [0.1, -0.2, 0.3]
STAGE_FIELDS = {"index", "path", "queryVector", "numCandidates", "limit", "filter", "exact"}


def stage_of(pipeline: list[dict]) -> dict:
    assert list(pipeline[0]) == ["$vectorSearch"], "$vectorSearch must be the first stage"
    return pipeline[0]["$vectorSearch"]


def test_pipeline_has_the_documented_stage_fields_then_score_projection_and_floor():
    pipeline = vector_search_pipeline(Collection.NEWS, VECTOR, "1001", limit=5, min_score=0.8)
    stage = stage_of(pipeline)
    assert set(stage) <= STAGE_FIELDS
    assert stage == {"index": "news_articles_vector", "path": "embedding_vector",
                     "queryVector": VECTOR, "numCandidates": 100, "limit": 5}
    project = pipeline[1]["$project"]
    assert project["score"] == {"$meta": "vectorSearchScore"}
    assert project["_id"] == 0 and project["document_id"] == 1 and project["title"] == 1
    assert "embedding_vector" not in project and "embedding_text" not in project
    assert pipeline[2] == {"$match": {"score": {"$gte": 0.8}}}
    assert len(pipeline) == 3


@pytest.mark.parametrize(("limit", "expected"), [(1, 100), (5, 100), (6, 120), (50, 1000),
                                                 (500, 10_000), (10_000, 10_000)])
def test_num_candidates_is_twenty_times_the_limit_within_bounds(limit, expected):
    assert num_candidates(limit) == expected
    stage = stage_of(vector_search_pipeline(Collection.CONTESTS, VECTOR, "u", limit=limit))
    assert stage["numCandidates"] == expected and stage["limit"] == limit
    assert stage["numCandidates"] >= stage["limit"]


def test_ended_contests_are_searched_unless_a_caller_limits_contests_to_active_ones():
    every = stage_of(vector_search_pipeline(Collection.CONTESTS, VECTOR, "u", limit=5))
    assert "filter" not in every
    # active as of the question: not ended then, whatever status was stored
    now = datetime(2026, 11, 26, 3, 0, tzinfo=UTC)
    active = stage_of(vector_search_pipeline(Collection.CONTESTS, VECTOR, "u", limit=5,
                                             filters=SearchFilters(include_ended_contests=False,
                                                                   as_of=now)))
    assert active["filter"] == {"end_date": {"$gte": now}}


def test_news_are_prefiltered_by_the_publication_window_when_given():
    after, before = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 6, 30, tzinfo=UTC)
    both = stage_of(vector_search_pipeline(
        Collection.NEWS, VECTOR, "u", limit=5,
        filters=SearchFilters(published_after=after, published_before=before)))
    assert both["filter"] == {"published_at": {"$gte": after, "$lte": before}}
    since = stage_of(vector_search_pipeline(Collection.NEWS, VECTOR, "u", limit=5,
                                            filters=SearchFilters(published_after=after)))
    assert since["filter"] == {"published_at": {"$gte": after}}
    assert "filter" not in stage_of(vector_search_pipeline(Collection.NEWS, VECTOR, "u", limit=5))


@pytest.mark.parametrize("filters", [
    None,
    SearchFilters(),
    SearchFilters(include_ended_contests=True),
    SearchFilters(include_ended_contests=True, published_after=datetime(2020, 1, 1, tzinfo=UTC),
                  published_before=datetime(2030, 1, 1, tzinfo=UTC)),
])
def test_bookmarks_are_always_prefiltered_by_the_callers_user_id(filters):
    pipeline = vector_search_pipeline(Collection.BOOKMARKS, VECTOR, "1001", limit=5,
                                      filters=filters)
    assert stage_of(pipeline)["filter"] == {"user_id": {"$eq": "1001"}}
    assert pipeline[1]["$project"]["memo"] == 1


def test_every_prefiltered_field_is_a_filter_field_of_the_index():
    for collection in Collection:
        fields = vector_index_definition(collection, 384).document["definition"]["fields"]
        filterable = {f["path"] for f in fields if f["type"] == "filter"}
        stage = stage_of(vector_search_pipeline(
            collection, VECTOR, "u", limit=5,
            filters=SearchFilters(published_after=datetime(2026, 1, 1, tzinfo=UTC),
                                  bookmark_kind="CONTEST")))
        assert set(stage.get("filter", {})) <= filterable


def test_saved_items_of_one_kind_are_filtered_by_their_item_type_with_the_callers_id():
    filters = SearchFilters(bookmark_kind="NEWS_ARTICLE")
    stage = stage_of(vector_search_pipeline(Collection.BOOKMARKS, VECTOR, "1001", limit=5,
                                            filters=filters))
    assert stage["filter"] == {"user_id": {"$eq": "1001"}, "item_type": {"$eq": "NEWS_ARTICLE"}}
    clauses = text_filter(Collection.BOOKMARKS, "1001", filters)
    assert clauses == [{"equals": {"path": "user_id", "value": "1001"}},
                       {"equals": {"path": "item_type", "value": "NEWS_ARTICLE"}}]
    # a catalog collection ignores it
    assert "item_type" not in stage_of(vector_search_pipeline(Collection.NEWS, VECTOR, "1001",
                                                              limit=5, filters=filters)).get(
        "filter", {})


def test_index_definition_is_a_cosine_vector_index_with_the_filter_fields():
    model = vector_index_definition(Collection.BOOKMARKS, 384).document
    assert model == {
        "name": "bookmarks_vector",
        "type": "vectorSearch",
        "definition": {"fields": [
            {"type": "vector", "path": "embedding_vector", "numDimensions": 384,
             "similarity": "cosine"},
            {"type": "filter", "path": "status"},
            {"type": "filter", "path": "start_date"},
            {"type": "filter", "path": "end_date"},
            {"type": "filter", "path": "published_at"},
            {"type": "filter", "path": "user_id"},
            {"type": "filter", "path": "item_type"},
        ]},
    }
    assert vector_index_definition(Collection.NEWS, 1536).document["definition"]["fields"][0][
        "numDimensions"] == 1536


def test_index_names_differ_per_collection_and_match_the_pipeline():
    names = {vector_index_name(c) for c in Collection}
    assert names == {"contests_vector", "news_articles_vector", "bookmarks_vector"}
    for collection in Collection:
        stage = stage_of(vector_search_pipeline(collection, VECTOR, "u", limit=3))
        assert stage["index"] == vector_index_definition(collection, 3).document["name"]


def test_a_bookmarks_search_without_a_user_id_is_refused():
    with pytest.raises(RetrievalError):
        vector_search_pipeline(Collection.BOOKMARKS, VECTOR, " ", limit=5)


def test_news_project_only_the_start_of_their_content_for_the_snippet():
    project = vector_search_pipeline(Collection.NEWS, VECTOR, "u", limit=5)[1]["$project"]
    assert project["content"] == {"$substrCP": [{"$ifNull": ["$content", ""]}, 0, 300]}
    contests = vector_search_pipeline(Collection.CONTESTS, VECTOR, "u", limit=5)[1]["$project"]
    assert "content" not in contests and contests["description"] == 1


# -- the keyword side: $search on the text index, fused in this process ---------------------------

def test_text_pipeline_is_a_compound_search_with_the_expanded_question_then_limit_and_projection():
    pipeline = text_search_pipeline(Collection.NEWS, "쿠버네티스 보안", "1001", limit=20)
    assert list(pipeline[0]) == ["$search"], "$search must be the first stage"
    search = pipeline[0]["$search"]
    assert search["index"] == "news_articles_text" == text_index_name(Collection.NEWS)
    (clause,) = search["compound"]["must"]
    assert clause["text"]["path"] == "embedding_text"
    assert clause["text"]["query"].startswith("쿠버네티스 보안 ")
    assert "kubernetes" in clause["text"]["query"] and "security" in clause["text"]["query"]
    assert "filter" not in search["compound"]
    assert pipeline[1] == {"$limit": 20}
    project = pipeline[2]["$project"]
    assert project["keyword_score"] == {"$meta": "searchScore"}
    assert project["embedding_vector"] == 1 and "embedding_text" not in project


@pytest.mark.parametrize("filters", [None, SearchFilters(include_ended_contests=True)])
def test_text_search_of_bookmarks_is_always_filtered_by_the_callers_user_id(filters):
    search = text_search_pipeline(Collection.BOOKMARKS, "memo", "1001", 20, filters)[0]["$search"]
    assert search["compound"]["filter"] == [{"equals": {"path": "user_id", "value": "1001"}}]
    with pytest.raises(RetrievalError):
        text_search_pipeline(Collection.BOOKMARKS, "memo", "", 20)


def test_text_search_prefilters_contests_and_news_like_the_vector_side():
    now = datetime(2026, 11, 26, 3, 0, tzinfo=UTC)
    contests = text_search_pipeline(Collection.CONTESTS, "gpu", "u", 20, SearchFilters(
        include_ended_contests=False, as_of=now))[0]["$search"]["compound"]
    assert contests["filter"] == [{"range": {"path": "end_date", "gte": now}}]
    every = text_search_pipeline(Collection.CONTESTS, "gpu", "u", 20)[0]["$search"]["compound"]
    assert "filter" not in every
    after = datetime(2026, 1, 1, tzinfo=UTC)
    news = text_search_pipeline(Collection.NEWS, "gpu", "u", 20,
                                SearchFilters(published_after=after))[0]["$search"]["compound"]
    assert news["filter"] == [{"range": {"path": "published_at", "gte": after}}]


def test_text_index_maps_the_text_with_cjk_bigrams_and_every_filter_field():
    model = text_index_definition(Collection.CONTESTS).document
    assert model["name"] == "contests_text" and model["type"] == "search"
    fields = model["definition"]["mappings"]["fields"]
    assert model["definition"]["mappings"]["dynamic"] is False
    assert fields["embedding_text"] == {"type": "string", "analyzer": "lucene.cjk"}
    assert {"status", "user_id", "published_at", "end_date"} <= set(fields)
    for collection in Collection:
        clauses = text_search_pipeline(collection, "q", "u", 5, SearchFilters(
            published_after=datetime(2026, 1, 1, tzinfo=UTC)))[0]["$search"]["compound"]
        paths = {next(iter(c.values()))["path"] for c in clauses.get("filter", [])}
        assert paths <= set(fields)


def test_fusion_candidates_are_four_per_result_within_bounds():
    assert [fusion_candidates(n) for n in (1, 5, 6, 3000)] == [20, 20, 24, 10_000]


def test_merged_sides_give_keyword_only_candidates_their_similarity_from_the_stored_vector():
    query = [1.0, 0.0]
    vector_side = [{"document_id": "a", "title": "A", "score": 0.9},
                   {"document_id": "b", "title": "B", "score": 0.7}]
    keyword_side = [{"document_id": "c", "title": "C", "embedding_vector": [0.0, 1.0], "keyword_score": 3},
                    {"document_id": "b", "title": "B", "embedding_vector": [0.6, 0.8], "keyword_score": 2}]
    docs, similarities, keyword_ranks = merge_sides(vector_side, keyword_side, query)
    assert [d["document_id"] for d in docs] == ["a", "b", "c"]
    assert similarities == [0.9, 0.7, 0.5]  # c: cosine 0 -> (1 + 0) / 2
    assert keyword_ranks == [None, 2, 1]
    assert all("embedding_vector" not in d and "score" not in d for d in docs)
