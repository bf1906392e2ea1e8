"""command-api's adapters: its unit of work and repositories on the command store (catalog,
bookmarks, job runs and leases; sessions are the shared repository), the outbox's maintenance
queries, and the read model on MongoDB."""
