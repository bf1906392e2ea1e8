"""command-api's adapters: job runs and leases on the command store, the read model on MongoDB."""
