"""Catalog search (DESIGN.md section 6): one interface, the Atlas and the exact strategies."""
