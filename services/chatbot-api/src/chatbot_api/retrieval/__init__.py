"""Catalog search (docs/architecture.md, Retrieval): one interface, the Atlas and the exact strategies."""
