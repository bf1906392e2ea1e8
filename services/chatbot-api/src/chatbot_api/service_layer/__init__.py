"""Use cases of chatbot-api."""
