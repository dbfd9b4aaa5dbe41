"""The club's store: SQLite (db.py), the queries the reports read (queries.py), export, import and backup."""
