"""The conversation aggregate (sessions and their messages), shared by chatbot-api, which appends
exchanges, and command-api, whose lifecycle jobs deactivate and expire sessions and whose repair
tools republish them: `model` (the rules), `repository` (the command store), `events` (the wire)."""
