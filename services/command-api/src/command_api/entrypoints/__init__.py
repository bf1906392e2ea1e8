"""The edge of command-api: the FastAPI application and its routes."""
