"""Alembic scripts: store/migrate.py runs them."""
