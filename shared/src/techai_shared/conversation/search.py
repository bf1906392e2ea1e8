"""The conversation search index in MongoDB: its collection, its keys and what they hold.

query-sync writes it (query_sync.adapters.search_index), chatbot-api reads it
(chatbot_api.adapters.read_model). Posting documents are kept per user, bucket of sessions and
shard of words:

    {_id: "<user>|<bucket>|<shard>", user_id, bucket, shard,
     w: {<word>: "<session id>:<message id>,<message id>;<session id>:<message id>;..."},
     t: {<word>: "<session id>;<session id>;..."},   # sessions whose title held the word
     updated_at}

Each word's postings are one string, appended to (`$concat` in a pipeline update), not nested
documents: SecantusDB decodes every document a search reads whole, and a few hundred strings decode
five times faster than the same postings as documents of arrays (measured: 15 ms against 82 for
130 documents of 60 KB). An entry written twice (a batch indexed again after a crash) is read once.

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


def message_entries(sessions: dict[str, set[str]] | dict[str, list[str]]) -> str:
    """Sessions and the ids of their messages holding a word, as appended to its string."""
    return "".join(f"{sid}:{','.join(sorted(mids))};" for sid, mids in sorted(sessions.items()))


def title_entries(session_ids: set[str] | list[str]) -> str:
    return "".join(f"{sid};" for sid in sorted(session_ids))


def parse_messages(text: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for entry in text.split(";"):
        if entry:
            sid, _, mids = entry.partition(":")
            found.setdefault(sid, set()).update(m for m in mids.split(",") if m)
    return found


def parse_titles(text: str) -> set[str]:
    return {sid for sid in text.split(";") if sid}
