"""Use cases of command-api that go beyond one store call."""
