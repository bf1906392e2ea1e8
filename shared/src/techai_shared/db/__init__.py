"""The command store: schema, engine factory, migrations, transactional outbox and its relay."""
