"""chatbot-api: multi-turn chat and session management for the JWT's subject."""
