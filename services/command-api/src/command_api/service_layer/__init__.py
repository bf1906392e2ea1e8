"""command-api's use cases: the catalog and bookmark writes, the bulk import, the operations jobs
and the projection repairs; what they need from the outside is named in `ports`."""
