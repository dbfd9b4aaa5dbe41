"""A club names its boxes (issue 12): `scorebox boxes list` / `name ID NAME`, kept in the
store; `matches`, `show` and the report say the name where one is set. And the counts in
words that read wrong before (issue 12, "1 flip a square"; issue 13 item 10)."""

import pytest
from handmatches import MATCH1, item

from scorebox import cli
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database


def store_one(db):
    s = open_store(db, create=True)
    assert s.add_matches("e6614c311b7d2a2f", [item(1, MATCH1)]) == [True]
    s.close()
    return db


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_club_names_its_box(store_at, capsys):
    db = store_one(store_at)
    code, out, _ = run(capsys, "boxes", "list", "--db", db)
    assert code == 0 and "e6614c311b7d2a2f" in out and "1 box" in out
    code, out, _ = run(capsys, "boxes", "name", "e6614c311b7d2a2f", "Range 1", "--db", db)
    assert code == 0 and "is now Range 1" in out
    assert "Range 1" in run(capsys, "boxes", "list", "--db", db)[1]
    assert "Range 1" in run(capsys, "matches", "--db", db)[1]
    assert "box Range 1" in run(capsys, "show", "1", "--db", db)[1]
    s = open_store(db)
    assert s.months([])[0]["boxes"] == "Range 1"  # the report's table by month
    assert s.matches()[0]["box_name"] == "Range 1"
    s.close()


@pytest.mark.parametrize(
    "box, name", [("nosuchbox", "Range 1"), ("e6614c311b7d2a2f", " "), ("e6614c311b7d2a2f", "a\x1bb")]
)
def test_a_bad_box_or_name_is_one_line(store_at, capsys, box, name):
    db = store_one(store_at)
    code, out, err = run(capsys, "boxes", "name", box, name, "--db", db)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "\x1b" not in err
    assert open_store(db).matches()[0]["box_name"] is None  # nothing changed


def test_flips_are_counted_per_square(store_at, capsys):
    db = store_one(store_at)  # MATCH1: flips=1 (TTB-8)
    out = run(capsys, "show", "1", "--db", db)[1]
    assert "1 flip per square" in out and "flip a square" not in out
