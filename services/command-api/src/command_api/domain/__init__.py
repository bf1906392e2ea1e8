"""command-api's domain: what a catalog write produces and how catalog items are identified."""
