"""HTTP edge of chatbot-api."""
