"""The store: schema, engine selection, the idempotent loader and read helpers."""
