"""`scorebox restore` takes only the project's own schema (issue 13, High 4): a backup with a
trigger that rewrites every arrow a later sync stores, one that empties the quarantine, a
view, an extra table or index, a table with other columns: refused with one line, the store
untouched. Before, each was restored and reported "checked"."""

import sqlite3

import pytest
from handmatches import fill

from scorebox import cli
from scorebox.store import backup
from scorebox.store.schema import schema_problems
from scorebox.store.sqlite import Store

TAMPERS = {
    "arrow trigger": "CREATE TRIGGER t AFTER INSERT ON arrows BEGIN UPDATE arrows SET value = 0; END",
    "quarantine trigger": "CREATE TRIGGER q AFTER INSERT ON quarantine BEGIN DELETE FROM quarantine; END",
    "view": "CREATE VIEW v AS SELECT * FROM matches",
    "extra table": "CREATE TABLE notes (x)",
    "extra index": "CREATE INDEX by_winner ON matches(winner)",
    "extra column": "ALTER TABLE games ADD COLUMN spare TEXT",
}


def make(tmp_path, name):
    path = str(tmp_path / name)
    fill(Store(path)).close()
    return path


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_restore_refuses_a_schema_not_ours(tmp_path, capsys, name):
    club = make(tmp_path, "club.sqlite")
    before = open(club, "rb").read()
    bad = make(tmp_path, "bad.sqlite")
    db = sqlite3.connect(bad)
    db.execute(TAMPERS[name])
    db.commit()
    db.close()
    assert backup.problems(bad)
    assert cli.main(["restore", bad, "--db", club]) == 2
    err = capsys.readouterr().err
    assert "nothing restored" in err and "schema" in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1
    assert open(club, "rb").read() == before


def test_a_table_rebuilt_with_other_columns_is_refused(tmp_path):
    bad = make(tmp_path, "bad.sqlite")
    db = sqlite3.connect(bad)
    db.executescript(
        "PRAGMA foreign_keys = OFF; DROP TABLE quarantine; CREATE TABLE quarantine (id INTEGER PRIMARY KEY, data);"
    )
    db.close()
    got = backup.problems(bad)
    assert got and "quarantine" in got[0], got


def test_our_own_store_passes(tmp_path):
    path = make(tmp_path, "club.sqlite")
    db = sqlite3.connect(path)
    assert schema_problems(db) == []
    db.close()
    assert backup.problems(path) == []
