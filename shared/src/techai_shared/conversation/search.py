"""The conversation search index in MongoDB: its collection, its keys and what they hold.

query-sync writes it (query_sync.adapters.search_index), chatbot-api reads it
(chatbot_api.adapters.read_model). Posting documents are kept per user, bucket of sessions and
shard of words:

    {_id: "<user>|<bucket>|<shard>", user_id, bucket, shard,
     w: {<word>: {<session id>: [<message id>, ...]}},  # messages holding the word
     t: {<word>: {<session id>: true}},                  # sessions whose title held it
     updated_at}

- A bucket is the first five hex digits of the session id: session ids are UUIDv7, so a bucket is
  the sessions a user started in one stretch of about three days (2**28 ms). However many
  sessions a user has, a document holds a few days of them (SecantusDB rewrites a document on
  every update, so a document that grew without end would make each write slower than the last),
  and every posting of a session is in one bucket, so a deleted session is pruned from a handful
  of documents.
- A shard is one of SHARDS groups of words (by a CRC-32 of the word): a session's few hundred
  words land in at most SHARDS documents, not in one document each, which keeps the writes of a
  message and the documents of a catalog of millions of messages an order of magnitude fewer.
- A search reads, for each shard its words fall in, the user's documents of that shard (one per
  bucket): the cost grows with the buckets the user has and the words searched, not with the
  user's messages.

Words are field names: '%' and '.' (which MongoDB reads as a path) are percent-encoded.
"""

from __future__ import annotations

import zlib

POSTINGS = "conversation_search"
BUCKET_DIGITS = 5
SHARDS = 32


def bucket_of(session_id: str) -> str:
    return session_id[:BUCKET_DIGITS]


def shard_of(word: str) -> int:
    return zlib.crc32(word.encode()) % SHARDS


def posting_id(user_id: str, bucket: str, shard: int) -> str:
    return f"{user_id}|{bucket}|{shard:02d}"


def field_of(word: str) -> str:
    """The word as a field name."""
    return word.replace("%", "%25").replace(".", "%2E").replace("$", "%24")


def word_of(field: str) -> str:
    return field.replace("%2E", ".").replace("%24", "$").replace("%25", "%")
