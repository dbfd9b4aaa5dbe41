"""How a command gets its store: the one place that picks the implementation (SQLite's,
store/sqlite.py, today) for a command's --db, so that another can sit beside it."""

from scorebox.paths import data_path
from scorebox.store.sqlite import Store


def default_path():
    """The store in the user's data folder."""
    return data_path("scorebox.sqlite")


def open_store(path=None, create=False):
    """The store at path (a command's --db), or the user's own. Only a command that writes
    makes a new one: one that reads refuses a mistyped --db (NoStore) rather than read an
    empty store."""
    return Store(path or default_path(), create=create)
