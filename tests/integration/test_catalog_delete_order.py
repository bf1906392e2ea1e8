"""A deleted catalog item never becomes live again, neither in MongoDB nor in what chatbot-api's
in-memory index shows, whatever the order in which its events are applied or re-applied.

The catalog projector deletes an item in two writes (its tombstone, then the document), and
chatbot-api's index follows documents and tombstones by `projected_at` from a resume point with a
2-second overlap. So the read model is looked at between every two writes of the projector: the
projector's store runs the checks after each write while the projector waits for it. Between two
writes the clock moves on by more than the overlap (a loaded machine, a write retried after a
transient failure), and a chatbot-api process loads its index at each of those moments.

Rounds of creates, updates, deletes and re-creations of the same few items are applied as the
consumer applies them: several events of an item in one run, rounds split across batches,
re-deliveries (a suffix of the stream again, as after a restart; an old event again, as a relay
re-sends one; a round out of order), writes failing transiently and retried, and now and then a new
projector (a restarted worker). After every write: an item once gone from MongoDB with its tombstone
never comes back, and no index shows an item at a version its tombstone had deleted when the search
began. After every round: MongoDB holds exactly the newest state of each item, and every index
shows exactly what MongoDB holds. Another test makes two members race as in a rebalance, and the
last one does the rounds through the real worker on Tansu, restarted part-way.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from aiokafka import AIOKafkaProducer
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import AutoReconnect

from chatbot_api.adapters.catalog_index import CatalogIndex
from chatbot_api.retrieval.model import Collection, SearchFilters
from query_sync.adapters.catalog import TOMBSTONES, CatalogProjector
from query_sync.bootstrap import bootstrap
from query_sync.catalog_documents import CONTESTS
from query_sync.projection import Outcome
from query_sync.settings import SyncSettings
from techai_shared.clock import Clock, utcnow
from techai_shared.events import AggregateType, EventEnvelope
from techai_shared.kafka import ensure_topics
from techai_shared.mongo import make_mongo_client
from tests.conftest import eventually, unique
from tests.integration.ops_pipeline import FakeClock
from tests.integration.test_sync_consumer import _committed, _publish, _sync_settings
from tests.support.catalog import CountingEmbedder, deleted, seed_items, upserted

pytestmark = pytest.mark.integration

ROUNDS = 200
ITEMS = 3
STEP = timedelta(seconds=3)  # between two writes of the projector: more than the index's overlap
FAILURE_RATE = 0.03  # of a write, before or after it reached MongoDB
EVERYTHING = SearchFilters(include_ended_contests=True)

Versions = dict[str, int]  # document id -> version


class Item:
    """One contest's life: each event a new version; its title names the version, so a search hit
    says which version a user is shown."""

    def __init__(self, payload: dict[str, Any]) -> None:
        self.payload = payload
        self.id: str = payload["id"]
        self.events: list[EventEnvelope] = []
        self.live = False

    def advance(self, rng: random.Random) -> list[EventEnvelope]:
        """One to three more events: a create or re-create when gone, an update or a delete when
        live."""
        new = []
        for _ in range(rng.randint(1, 3)):
            version = len(self.events) + 1
            if self.live and rng.random() < 0.6:
                event = deleted(AggregateType.CONTEST, self.payload, version)
                self.live = False
            else:
                event = upserted(AggregateType.CONTEST, {**self.payload, "title": f"{self.id} v{version}"},
                                 version)
                self.live = True
            self.events.append(event)
            new.append(event)
        return new

    def expected(self) -> tuple[int | None, int | None]:
        """(the live document's version or None, the tombstone's version or None)."""
        deletions = [e.version for e in self.events if e.event_type is CONTESTS.deleted]
        return (len(self.events) if self.live else None), (max(deletions) if deletions else None)


class WatchedDatabase:
    """The projector's database, its collections watched: every write may fail transiently (before
    or after it reached MongoDB) and is followed by `after_write()`, which the projector waits for;
    `before_read(filter)`, if given, runs before each find_one (a member slowed down there)."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], after_write: Callable[[], Awaitable[None]],
                 rng: random.Random, *, failure_rate: float = FAILURE_RATE,
                 before_read: Callable[[dict[str, Any]], Awaitable[None]] | None = None) -> None:
        self.db = db
        self.after_write = after_write
        self.rng = rng
        self.failure_rate = failure_rate
        self.before_read = before_read

    def __getitem__(self, name: str) -> WatchedCollection:
        return WatchedCollection(self.db[name], self)


class WatchedCollection:
    def __init__(self, collection: Any, store: WatchedDatabase) -> None:
        self._collection = collection
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._collection, name)

    async def find_one(self, query: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        if self._store.before_read is not None:
            await self._store.before_read(query)
        return await self._collection.find_one(query, *args, **kwargs)

    async def update_one(self, *args: Any, **kwargs: Any) -> Any:
        return await self._write(lambda: self._collection.update_one(*args, **kwargs))

    async def delete_one(self, *args: Any, **kwargs: Any) -> Any:
        return await self._write(lambda: self._collection.delete_one(*args, **kwargs))

    async def _write(self, write: Callable[[], Awaitable[Any]]) -> Any:
        store = self._store
        if store.rng.random() < store.failure_rate:
            raise AutoReconnect("injected: the write did not reach MongoDB")
        try:
            result = await write()
        finally:
            await store.after_write()
        if store.rng.random() < store.failure_rate:
            raise AutoReconnect("injected: the write reached MongoDB, its reply did not")
        return result


class Gone:
    """Items seen gone from MongoDB with their tombstone, and the tombstone's version: none may be
    live again at that version or an older one."""

    def __init__(self) -> None:
        self.versions: Versions = {}

    def check(self, live: Versions, tombstones: Versions) -> None:
        for document_id, version in live.items():
            assert version > self.versions.get(document_id, 0), (
                f"{document_id} v{version} is live again after it was gone with its tombstone "
                f"v{self.versions[document_id]}")
        for document_id, deleted_at in tombstones.items():
            if document_id not in live:
                self.versions[document_id] = max(self.versions.get(document_id, 0), deleted_at)


def new_index(db: AsyncDatabase[dict[str, Any]], embedder: CountingEmbedder,
              clock: Clock = utcnow) -> CatalogIndex:
    """chatbot-api's index as a process holds it, refreshed before every search."""
    return CatalogIndex(db, embedder.model_name, dimensions=embedder.dimensions, refresh_seconds=0,
                        clock=clock)


def expected_read_model(items: list[Item]) -> tuple[Versions, Versions]:
    """(live contests, contest tombstones) as the newest events of the items leave them."""
    live: Versions = {}
    tombstones: Versions = {}
    for item in items:
        version, deleted_at = item.expected()
        if version is not None:
            live[item.id] = version
        if deleted_at is not None:
            tombstones[item.id] = deleted_at
    return live, tombstones


async def read_to_the_end(settings: SyncSettings) -> bool:
    """The group committed every partition of the contest topic up to its end (an empty one, which
    no item's key chose, has nothing to commit)."""
    offsets = await _committed(settings, settings.topic("contest"))
    return bool(offsets) and all(committed == end for committed, end in offsets.values() if end)


async def read_model(db: AsyncDatabase[dict[str, Any]]) -> tuple[Versions, Versions]:
    """(live contests, contest tombstones). The tombstones are read first: a document read next to
    a tombstone of its version or a newer one was still there after the deletion was recorded."""
    tombstones = {d["document_id"]: d["version"]
                  async for d in db[TOMBSTONES].find({"collection": CONTESTS.collection})}
    live = {d["document_id"]: d["version"]
            async for d in db[CONTESTS.collection].find({}, {"document_id": 1, "version": 1})}
    return live, tombstones


async def shown(index: CatalogIndex, embedder: CountingEmbedder) -> Versions:
    """What a search of chatbot-api shows (after its refresh, or its load when new): every contest,
    with the version its title names."""
    hits = await index.search(Collection.CONTESTS, embedder.vector("공모전"), "공모전", "1001", 1000,
                              0.0, EVERYTHING)
    return {h.document_id: int(h.title.rsplit(" v", 1)[1]) for h in hits}


class Watch:
    """The checks between two writes, and after a round."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], embedder: CountingEmbedder,
                 clock: FakeClock, *, one_member: bool = True) -> None:
        self.db = db
        self.embedder = embedder
        self.clock = clock
        # With one member at a time MongoDB never shows a deleted item again. Two members racing
        # (a rebalance) may: the slow one's write is there until its own check after it removes it.
        self.gone = Gone() if one_member else None
        self.long_lived = self.new_index()  # a chatbot-api process up all along
        self.started: list[CatalogIndex] = []  # processes started during this round
        self.checks = 0

    def new_index(self) -> CatalogIndex:
        return new_index(self.db, self.embedder, self.clock)

    async def between_writes(self) -> None:
        self.clock.set(self.clock() + STEP)
        self.checks += 1
        live, tombstones = await read_model(self.db)
        if self.gone is not None:
            self.gone.check(live, tombstones)
        newcomer = self.new_index()  # a chatbot-api process starting now
        self.started.append(newcomer)
        for index in (self.long_lived, newcomer):
            for document_id, version in (await shown(index, self.embedder)).items():
                assert version > tombstones.get(document_id, 0), (
                    f"a search shows {document_id} v{version}, deleted at "
                    f"v{tombstones[document_id]} before the search began")

    async def after_round(self, items: list[Item]) -> None:
        live, tombstones = await read_model(self.db)
        assert (live, tombstones) == expected_read_model(items)
        for index in (self.long_lived, *self.started):
            assert await shown(index, self.embedder) == live
        self.started = []


async def consume(projector: CatalogProjector, run: list[EventEnvelope]) -> None:
    """As the consumer does: the run at once, and if that fails, event by event, each retried in
    place until it is applied (the failures here are transient)."""
    try:
        await projector.apply_many(run)
        return
    except AutoReconnect:
        pass
    for event in run:
        while True:
            try:
                await projector.apply(event)
                break
            except AutoReconnect:
                continue


def deliveries(rng: random.Random, items: list[Item]) -> list[EventEnvelope]:
    """A round's new events of every item, each item's in order, the items interleaved; then, at
    times, a suffix delivered again (a restart replays from the last commit), an old event of an
    item again (a relay re-sends one), or the whole round out of order."""
    queues = [item.advance(rng) for item in items]
    stream: list[EventEnvelope] = []
    while any(queues):
        queue = rng.choice([q for q in queues if q])
        stream.append(queue.pop(0))
    if rng.random() < 0.3:
        stream += stream[rng.randrange(len(stream)):]
    if rng.random() < 0.3:
        stream.append(rng.choice(rng.choice(items).events))
    if rng.random() < 0.15:
        rng.shuffle(stream)
    return stream


def batches(rng: random.Random, stream: list[EventEnvelope]) -> list[list[EventEnvelope]]:
    """The whole round in one batch, or split across several."""
    if rng.random() < 0.4:
        return [stream]
    cuts = sorted(rng.sample(range(1, len(stream)), k=min(len(stream) - 1, rng.randint(1, 3))))
    return [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)]


@pytest.fixture
async def mongo_db(mongo_server) -> AsyncIterator[AsyncDatabase[dict[str, Any]]]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_server.url)
    db = client[unique("delete_order_")]
    yield db
    await client.drop_database(db.name)
    await client.close()


def _items() -> list[Item]:
    return [Item({**payload, "id": unique("c-")})
            for payload in seed_items(AggregateType.CONTEST)[:ITEMS]]


async def test_a_deleted_item_never_comes_back_between_any_two_writes_over_200_rounds(mongo_db):
    rng = random.Random(32)
    embedder = CountingEmbedder()
    clock = FakeClock(datetime.now(UTC).replace(microsecond=0))
    watch = Watch(mongo_db, embedder, clock)
    store = WatchedDatabase(mongo_db, watch.between_writes, rng)
    items = _items()
    projector = CatalogProjector(store, CONTESTS, embedder, clock=clock)
    await projector.prepare()
    await shown(watch.long_lived, embedder)  # loaded before the first event

    for round_number in range(ROUNDS):
        if round_number % 20 == 19:  # the worker restarted: a projector with nothing in memory
            projector = CatalogProjector(store, CONTESTS, embedder, clock=clock)
        for batch in batches(rng, deliveries(rng, items)):
            await consume(projector, batch)
        await watch.after_round(items)

    deletions = sum(e.event_type is CONTESTS.deleted for item in items for e in item.events)
    assert deletions >= ROUNDS  # the rounds did delete, again and again
    assert watch.checks >= 10 * ROUNDS


async def test_a_slow_member_writing_after_the_deletion_never_shows_the_item_again(mongo_db):
    """Two members during a rebalance: the old one has checked for a tombstone and waits (a loaded
    machine) while the new owner projects the item's create and delete. When the old one writes,
    its document is back, stamped after the tombstone, until its own check after the write removes
    it again, with no new tombstone. No index that has read the tombstone shows it, then or later."""
    embedder = CountingEmbedder()
    clock = FakeClock(datetime.now(UTC).replace(microsecond=0))
    watch = Watch(mongo_db, embedder, clock, one_member=False)
    payload = {**seed_items(AggregateType.CONTEST)[0], "id": unique("c-")}
    create = upserted(AggregateType.CONTEST, {**payload, "title": f"{payload['id']} v1"}, 1)
    delete = deleted(AggregateType.CONTEST, payload, 2)
    checked, go_on = asyncio.Event(), asyncio.Event()

    async def slow_after_the_tombstone_check(query: dict[str, Any]) -> None:
        if isinstance(query.get("version"), dict):  # has_version(): after the check, before the write
            checked.set()
            await go_on.wait()

    old = CatalogProjector(WatchedDatabase(mongo_db, watch.between_writes, random.Random(1), failure_rate=0,
                                           before_read=slow_after_the_tombstone_check),
                           CONTESTS, embedder, clock=clock)
    new = CatalogProjector(WatchedDatabase(mongo_db, watch.between_writes, random.Random(2), failure_rate=0),
                           CONTESTS, embedder, clock=clock)
    await new.prepare()
    await shown(watch.long_lived, embedder)

    late = asyncio.create_task(old.apply(create))
    await asyncio.wait_for(checked.wait(), timeout=10)
    assert await new.apply_many([create, delete]) == [Outcome.APPLIED, Outcome.APPLIED]
    go_on.set()
    assert await asyncio.wait_for(late, timeout=10) is Outcome.APPLIED  # written, then taken back

    assert await read_model(mongo_db) == ({}, {payload["id"]: 2})
    for index in (watch.long_lived, *watch.started):
        assert await shown(index, embedder) == {}


async def test_through_the_worker_restarted_part_way_no_deleted_item_comes_back(settings):
    """Rounds published to Tansu (each item its own key, so its partition keeps its order), with
    old events published again. A worker projects the first half and is stopped part-way (once it
    has deleted something); a new one projects the rest and what the first left uncommitted; then a
    worker of a new group reads
    the whole log again, as one whose position was lost does. All along MongoDB is watched and
    chatbot-api processes load their index at any moment; at the end each shows what MongoDB holds."""
    sync = _sync_settings(settings, sync_catalog_run_records=8)
    await ensure_topics(sync)
    rng, moments = random.Random(3200), random.Random(3201)
    embedder = CountingEmbedder()
    client = make_mongo_client(sync)
    db = client[sync.mongodb_database]
    items = _items()
    indexes = [new_index(db, embedder)]
    gone = Gone()
    producer = AIOKafkaProducer(bootstrap_servers=sync.kafka_bootstrap_servers, enable_idempotence=False)
    await producer.start()
    observing = True

    async def observe() -> None:
        while observing:
            gone.check(*await read_model(db))
            if moments.random() < 0.2:
                indexes.append(new_index(db, embedder))  # a chatbot-api process starting now
            await shown(moments.choice(indexes), embedder)
            await asyncio.sleep(0)

    async def publish(rounds: int) -> None:
        for _ in range(rounds):
            stream = [event for item in items for event in item.advance(rng)]
            if rng.random() < 0.3:  # a relay sent an older event again
                stream.append(rng.choice(rng.choice(items).events))
            await _publish(producer, sync.topic("contest"), stream)

    async def project(worker_settings: SyncSettings, until: Callable[[], Awaitable[bool]]) -> None:
        async def until_or_observer_failed() -> bool:
            return observer.done() or await until()

        worker = bootstrap(worker_settings, embedder=embedder)
        await worker.start()
        try:
            await eventually(until_or_observer_failed, within=60)
        finally:
            await worker.stop()
        if observer.done():
            observer.result()  # raises what it found

    async def some_deleted() -> bool:
        return await db[TOMBSTONES].count_documents({}) > 0

    async def caught_up() -> bool:
        return await read_model(db) == expected_read_model(items)

    observer = asyncio.create_task(observe())
    try:
        try:
            await publish(20)
            await project(sync, some_deleted)  # stopped part-way, or soon after the end
            await publish(20)
            await project(sync, caught_up)  # the same group: from the first one's last commit
            replay = sync.model_copy(update={"sync_consumer_group": unique("replay-")})
            await project(replay, lambda: read_to_the_end(replay))
        finally:
            observing = False
            await asyncio.wait([observer])
            await producer.stop()
        observer.result()  # raises what it found
        assert await read_model(db) == expected_read_model(items)
        live, _ = await read_model(db)
        for index in indexes:
            assert await shown(index, embedder) == live
    finally:
        await client.drop_database(db.name)
        await client.close()
