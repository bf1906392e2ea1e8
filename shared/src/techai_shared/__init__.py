"""Contracts and cross-cutting adapters shared by chatbot-api, command-api and query-sync."""
