"""The club's store: the Store in SQLite (sqlite.py, its schema in schema.py), the queries the
reports read (queries.py), export, import and backup."""
