"""`scorebox show N --names` with a typo (#21 item 10): a name that is not on the roster is
refused in one line with the nearest roster names, and nothing changes; `--add` adds it as a
new archer. On both games: a Tic Tac BOW match shot as A v B and a Try-Tac-Toe game shot as
X v O, stored in a real SQLite store and named through the real command line."""

import pytest
from handmatches import MATCH1, item
from storehelp import add_match
from ttt_history import full_game, ttt_header

from scorebox import cli
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database
BOX = "e6614103e7a1b2c3"


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def ttb(store):
    _, h, log, extras = item(1, MATCH1)
    assert store.add_matches(BOX, [(1, dict(h, archers=[["A"], ["B"]]), log, extras)]) == [True]
    return "Ann,Bob", "Anm,Bob", "Anm", "Ann"  # the names, with a typo, the typo, the name meant


def ttt(store):
    g = full_game(players=(("X",), ("O",)))
    assert add_match(store, BOX, 1, ttt_header(g), g.log) is True
    return "Ann,Bob", "Ann,Bbo", "Bbo", "Bob"


@pytest.fixture(params=[ttb, ttt], ids=["tictacbow", "trytactoe"])
def club(store_at, request):
    db = store_at
    s = open_store(db, create=True)
    for name in ("Ann", "Bob", "Annabel", "Cat"):
        s.add_archer(name)
    names = request.param(s)
    s.close()
    return db, names


def on_roster(db):
    s = open_store(db)
    try:
        return sorted(r[0] for r in s.archers() if r[0] not in ("X", "O"))  # a game's unnamed sides
    finally:
        s.close()


def test_a_typo_is_refused_with_the_nearest_names(club, capsys):
    db, (good, typo, wrong, meant) = club
    code, out, err = run(capsys, "show", "1", "--names", typo, "--db", db)
    assert (code, out) == (2, ""), out
    assert len(err.splitlines()) == 1 and "not on the roster: %r (nearest: " % wrong in err, err
    assert meant in err.split("nearest: ")[1].split(")")[0].split(", ") and "--add" in err
    assert on_roster(db) == ["Ann", "Annabel", "Bob", "Cat"]  # no new archer, to be sent to every box
    code, out, err = run(capsys, "show", "1", "--names", good, "--db", db)
    assert code == 0 and out.startswith("match %s/1: " % BOX) and "Ann" in out.splitlines()[0], err


def test_a_name_far_from_any_says_so(club, capsys):
    db, _ = club
    code, _, err = run(capsys, "show", "1", "--names", "Zzyzx,Bob", "--db", db)
    assert code == 2 and "'Zzyzx' (no name near it)" in err, err


def test_add_adds_a_new_archer(club, capsys):
    db, _ = club
    code, out, err = run(capsys, "show", "1", "--names", "Dee,Bob", "--add", "--db", db)
    assert code == 0 and out.startswith("match %s/1: " % BOX) and "Dee" in out.splitlines()[0], err
    assert on_roster(db) == ["Ann", "Annabel", "Bob", "Cat", "Dee"]
