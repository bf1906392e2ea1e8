"""Plain-Python rules of a conversation: input normalisation, languages, the history window."""
