"""Concrete adapters of chatbot-api: the model provider, the read model, the rate limiter."""
