"""The sync baseline: an aiokafka consumer making query-sync's writes with PyMongo, no framework.

The same collections and indexes as query-sync's conversation projector, and the same store calls
per fetched batch, for each partition's records in turn: one read of their sessions (the versions),
one bulk write of conditional session upserts (the newest version of each), one bulk write of
message inserts ($setOnInsert on message_id), both unordered; then the offsets committed. No
envelope model, no validation, no DLQ, no metrics, no retries: what query-sync adds is what the
sync ratio measures; a ratio near 1 means the store is the limit.
`python -m devstack.bench.bare_sync --bootstrap H:P --topic T --group G --mongo URL --db NAME`;
runs until killed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
from datetime import datetime
from typing import Any

from aiokafka import AIOKafkaConsumer
from pymongo import AsyncMongoClient, UpdateOne
from pymongo.errors import BulkWriteError

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_DATES = {"createdAt", "lastMessageAt", "deletedAt"}
_TTL = {"expireAfterSeconds": 90 * 86400}
# query-sync's indexes on the two collections (query_sync.adapters.conversations): each write
# maintains them, so the baseline's writes must too
INDEXES: dict[str, list[tuple[str, list[tuple[str, int]], dict[str, Any]]]] = {
    "sessions": [("uq_session_id", [("session_id", 1)], {"unique": True}),
                 ("ix_user_active_last_message",
                  [("user_id", 1), ("is_active", 1), ("last_message_at", -1)], {}),
                 ("ttl_last_message_at", [("last_message_at", 1)], _TTL)],
    "messages": [("uq_message_id", [("message_id", 1)], {"unique": True}),
                 ("ix_session_sequence", [("session_id", 1), ("sequence_number", 1)], {}),
                 ("ix_session_parent", [("session_id", 1), ("parent_message_id", 1)], {}),
                 ("ttl_created_at", [("created_at", 1)], _TTL)],
}


def document(payload: dict[str, Any]) -> dict[str, Any]:
    return {_CAMEL.sub("_", key).lower(): (datetime.fromisoformat(value) if key in _DATES and value
                                           else value)
            for key, value in payload.items()}


async def run(args: argparse.Namespace) -> None:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(args.mongo)
    db = client[args.db]
    sessions, messages = db["conversation_sessions"], db["conversation_messages"]
    for name, keys, options in INDEXES["sessions"]:
        await sessions.create_index(keys, name=name, **options)
    for name, keys, options in INDEXES["messages"]:
        await messages.create_index(keys, name=name, **options)
    consumer = AIOKafkaConsumer(args.topic, bootstrap_servers=args.bootstrap, group_id=args.group,
                                auto_offset_reset="earliest", enable_auto_commit=False)
    await consumer.start()
    try:
        while True:
            batch = await consumer.getmany(timeout_ms=500, max_records=500)
            for records in batch.values():  # one partition's records at a time, as query-sync
                await write(sessions, messages, [json.loads(record.value) for record in records])
            if batch:
                await consumer.commit()
    finally:
        await consumer.stop()


async def write(sessions: Any, messages: Any, events: list[dict[str, Any]]) -> None:
    if not events:
        return
    newest: dict[str, dict[str, Any]] = {}
    inserts = []
    for event in events:
        doc = document(event["payload"])
        if event["eventType"] == "ConversationMessageCreated":
            inserts.append(UpdateOne({"message_id": doc["message_id"]}, {"$setOnInsert": doc},
                                     upsert=True))
            continue
        doc["version"] = event["version"]
        held = newest.get(doc["session_id"])
        if held is None or held["version"] < doc["version"]:
            newest[doc["session_id"]] = doc
    await sessions.find({"session_id": {"$in": sorted(newest)}},
                        {"session_id": 1, "version": 1, "is_deleted": 1, "_id": 0}).to_list()
    if newest:
        # a stale version meets the unique key: nothing to write, as in query-sync
        with contextlib.suppress(BulkWriteError):
            await sessions.bulk_write([UpdateOne({"session_id": sid, "version": {"$lt": doc["version"]}},
                                                 {"$set": doc}, upsert=True)
                                       for sid, doc in newest.items()], ordered=False)
    if inserts:
        await messages.bulk_write(inserts, ordered=False)


def main() -> None:
    parser = argparse.ArgumentParser()
    for name in ("bootstrap", "topic", "group", "mongo", "db"):
        parser.add_argument(f"--{name}", required=True)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
