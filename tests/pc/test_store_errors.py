"""The store's errors by kind (issue 23): a caller tells them apart by class
(store/errors.py), never by their text. Each is a StoreError, so the CLI still prints
one line and exits with status 2. Every store here is a real SQLite file."""

import sqlite3

import pytest
from storegen import match_items
from storehelp import add_match

from scorebox import cli
from scorebox.errors import ScoreboxError
from scorebox.store import errors
from scorebox.store.access import open_store
from scorebox.store.sqlite import Store

pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database


def test_no_store(tmp_path):
    with pytest.raises(errors.NoStore, match="no store at"):
        open_store(str(tmp_path / "none.sqlite"))


def test_not_a_store(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("not a database, but notes\n" * 100)
    with pytest.raises(errors.NotAStore, match="not a Scorebox store"):
        Store(str(path))


def test_a_newer_schema(tmp_path):
    path = str(tmp_path / "new.sqlite")
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE scorebox_version SET version_num = 'store_9_0'")  # a later scorebox's
    db.commit()
    db.close()
    with pytest.raises(errors.SchemaMismatch, match="newer than this scorebox"):
        Store(path)


def test_a_full_disk(tmp_path):
    s = Store(str(tmp_path / "club.sqlite"))
    by_box = {}
    for uid, item in match_items(60):
        by_box.setdefault(uid, []).append(item)
    uid, items = next(iter(by_box.items()))
    s.db.execute("PRAGMA max_page_count = %d" % (s.db.execute("PRAGMA page_count").fetchone()[0] + 3))
    with pytest.raises(errors.StoreFull, match="nothing was stored"):
        s.add_matches(uid, items)
    assert s.count() == 0


def test_refused_and_not_found(store_at):
    s = open_store(store_at, create=True)
    uid, (number, header, log, extras) = next(iter(match_items(1)))
    with pytest.raises(errors.Refused, match="the rules refuse"):
        add_match(s, uid, number, header, log + [9999], extras)
    with pytest.raises(errors.NotFound, match="no box"):
        s.name_box("nobody", "Red")


def test_every_kind_is_one_line_from_the_cli(tmp_path, capsys):
    kinds = [errors.NoStore, errors.NotAStore, errors.SchemaMismatch, errors.StoreLocked, errors.StoreFull]
    assert all(issubclass(k, errors.StoreError) and issubclass(k, ScoreboxError) for k in kinds)
    assert cli.main(["matches", "--db", str(tmp_path / "none.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no store at" in err
