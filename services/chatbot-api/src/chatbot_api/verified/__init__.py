"""Verified answers: operators' curated answers, served before retrieval to questions that match
one of their phrasings (docs/architecture.md, Verified answers)."""
