"""The sync baseline: an aiokafka consumer upserting the same documents with PyMongo, no framework.

No envelope model, no validation, no version checks, no DLQ, no metrics: json.loads, a camelCase
to snake_case copy of the payload (datetimes parsed), one upsert per event, offsets committed per
fetched batch. `python -m devstack.bench.bare_sync --bootstrap H:P --topic T --group G --mongo URL
--db NAME`; runs until killed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from datetime import datetime
from typing import Any

from aiokafka import AIOKafkaConsumer
from pymongo import AsyncMongoClient

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_DATES = {"createdAt", "lastMessageAt", "deletedAt"}


def document(payload: dict[str, Any]) -> dict[str, Any]:
    return {_CAMEL.sub("_", key).lower(): (datetime.fromisoformat(value) if key in _DATES and value
                                           else value)
            for key, value in payload.items()}


async def run(args: argparse.Namespace) -> None:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(args.mongo)
    db = client[args.db]
    sessions, messages = db["conversation_sessions"], db["conversation_messages"]
    await sessions.create_index("session_id", unique=True)
    await messages.create_index("message_id", unique=True)
    consumer = AIOKafkaConsumer(args.topic, bootstrap_servers=args.bootstrap, group_id=args.group,
                                auto_offset_reset="earliest", enable_auto_commit=False)
    await consumer.start()
    try:
        while True:
            batch = await consumer.getmany(timeout_ms=500, max_records=500)
            for records in batch.values():
                for record in records:
                    event = json.loads(record.value)
                    doc = document(event["payload"])
                    if event["eventType"] == "ConversationMessageCreated":
                        await messages.update_one({"message_id": doc["message_id"]},
                                                  {"$setOnInsert": doc}, upsert=True)
                    else:
                        doc["version"] = event["version"]
                        await sessions.update_one({"session_id": doc["session_id"]}, {"$set": doc},
                                                  upsert=True)
            if batch:
                await consumer.commit()
    finally:
        await consumer.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    for name in ("bootstrap", "topic", "group", "mongo", "db"):
        parser.add_argument(f"--{name}", required=True)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
