"""The games database: the one place that opens it (database), its schema and
migrations (schema)."""
