"""Alembic's environment: the migrations run on the connection store/migrate.py's Schema.upgrade
gives, in its write transaction."""

from scorebox.store.migrate import run_env

run_env()
