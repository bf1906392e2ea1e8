"""command-api: the catalog's write API and the outbox relay of its writes."""
