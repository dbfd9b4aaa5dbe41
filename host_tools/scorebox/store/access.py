"""How a command gets its store: the one place that picks the implementation for a command's
--db, or SCOREBOX_DB when it gives none: a postgresql:// URL is a store on a PostgreSQL
server (store/postgres.py, docs/postgres.md), anything else a file of SQLite's
(store/sqlite.py), the default."""

import os

from scorebox.paths import data_path
from scorebox.store.errors import StoreError
from scorebox.store.sqlite import Store
from scorebox.store.urls import is_url

ENV = "SCOREBOX_DB"  # the store when a command is given no --db


def default_path():
    """SCOREBOX_DB, or the store in the user's data folder."""
    return os.environ.get(ENV) or data_path("scorebox.sqlite")


def open_store(path=None, create=False):
    """The store at path (a command's --db), or the default one. Only a command that writes
    makes a new one: one that reads refuses a mistyped --db (NoStore) rather than read an
    empty store."""
    path = path or default_path()
    if is_url(path):
        try:
            from scorebox.store import postgres
        except ImportError as e:  # psycopg, or the libpq it runs on
            raise StoreError("a PostgreSQL store needs psycopg 3 (pip install 'psycopg[binary]'): %s" % e)
        return postgres.Store(path, create=create)
    return Store(path, create=create)
