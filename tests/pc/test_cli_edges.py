"""The PC tool's rough edges a newcomer's review found, each on a real SQLite store through
the real command line: names a match has are not replaced without --force; a store that is
not there is refused by every command that reads (none made), made only by those that write
and not left behind empty by a sync no box answered; bare `archers` and `boxes` list; the
files written get the mode open() gives; counts read "1 row", not "1 rows"."""

import os
import pty
import re
import stat

import pytest
from handmatches import DEVICE, MATCH1, MATCH3, fill, item
from ttt_game import Rand, pick

from scorebox import cli
from scorebox.games.ttt import board as ttt_board
from scorebox.store.access import default_path
from scorebox.store.sqlite import Store
from scorebox.sync.summary import Summary
from scorebox_core.games.ttt.rules import Game, Options

NO_STORE = "no store at %s: check --db, or run scorebox sync first\n"


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def club(tmp_path):
    """The hand matches (Ann v Ben, Cat v Ann, Ben v Cat) and one keyed as A v B (number 4)."""
    db = str(tmp_path / "club.sqlite")
    s = fill(Store(db))
    _, h, log, extras = item(4, MATCH1)
    assert s.add_matches(DEVICE, [(4, dict(h, archers=[["A"], ["B"]]), log, extras)]) == [True]
    s.close()
    return db


# --- 1. show --names ----------------------------------------------------------------------
def test_names_a_match_has_are_replaced_only_with_force(club, capsys):
    code, out, err = run(capsys, "show", "1", "--names", "Eve,Robert", "--db", club)
    assert (code, out) == (2, "")
    assert err == "match hand/1 has its archers' names already (A Ann, B Ben): --force replaces them\n"
    assert "A: Ann   B: Ben" in run(capsys, "show", "1", "--db", club)[1]  # nothing changed
    code, out, _ = run(capsys, "show", "1", "--names", "ann,BEN", "--db", club)  # the same archers: none replaced
    assert code == 0 and "A: Ann   B: Ben" in out
    code, out, err = run(capsys, "show", "1", "--names", "Eve,Robert", "--force", "--add", "--db", club)
    assert code == 0, err
    assert out.startswith("match hand/1: A Eve, B Robert\n") and "A: Eve   B: Robert" in out


def test_a_match_keyed_as_a_v_b_is_named_without_more(club, capsys):
    code, out, err = run(capsys, "show", "%s/4" % DEVICE, "--names", "Eve,Robert", "--add", "--db", club)
    assert code == 0, err
    assert out.startswith("match hand/4: A Eve, B Robert\n")


# --- 2. a store that is not there -----------------------------------------------------------
READERS = [
    ("matches",),
    ("show", "1"),
    ("stats",),
    ("stats", "Ann"),
    ("report", "--out", "{tmp}/r.html"),
    ("export", "--out", "{tmp}/x"),
    ("backup", "{tmp}/b.sqlite"),
    ("archers",),
    ("archers", "list"),
    ("archers", "rename", "Ann", "Anne"),
    ("archers", "retire", "Ann"),
    ("boxes",),
    ("boxes", "list"),
    ("boxes", "name", DEVICE, "Range 1"),  # naming needs the store that met the box
]


@pytest.mark.parametrize("argv", READERS, ids=" ".join)
def test_a_mistyped_db_is_refused_and_not_made(tmp_path, capsys, argv):
    db = tmp_path / "typo" / "nothere.sqlite"
    code, out, err = run(capsys, *[a.format(tmp=tmp_path) for a in argv], "--db", db)
    assert (code, out, err) == (2, "", NO_STORE % db)
    assert os.listdir(tmp_path) == []  # no store, no folder, no report or export


def test_a_fresh_pc_says_there_is_no_store_yet(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home" / "data"))
    path = default_path()
    if not path.startswith(str(tmp_path)):
        pytest.skip("the user data folder here does not follow HOME / XDG_DATA_HOME")
    for argv in (["matches"], ["stats"], ["archers"], ["boxes"], ["show", "1"]):
        assert run(capsys, *argv) == (2, "", NO_STORE % path)
    assert not os.path.exists(tmp_path / "home")


def test_commands_that_write_make_the_store(club, tmp_path, capsys):
    new = tmp_path / "a" / "new.sqlite"
    code, out, err = run(capsys, "archers", "add", "Ann", "--db", new)
    assert code == 0 and "added Ann" in out, err
    names = tmp_path / "names.csv"
    names.write_text("name\nBen\n")
    assert run(capsys, "archers", "import", names, "--db", tmp_path / "b.sqlite")[0] == 0
    assert run(capsys, "export", "--format", "json", "--out", tmp_path / "x", "--db", club)[0] == 0
    code, out, err = run(capsys, "import", tmp_path / "x", "--db", tmp_path / "c.sqlite")
    assert code == 0 and "4 matches imported" in out, err
    for db in (new, tmp_path / "b.sqlite", tmp_path / "c.sqlite"):
        assert db.exists()
        s = Store(str(db))
        assert s.count() == (4 if db.name == "c.sqlite" else 0) and s.check() == []
        s.close()


def test_a_sync_no_box_answered_leaves_no_new_store(tmp_path, capsys):
    db = tmp_path / "new" / "club.sqlite"
    code, _, err = run(capsys, "sync", "--port", tmp_path / "ttyACM9", "--db", db)
    assert code == 2 and "does not exist" in err
    master, slave = pty.openpty()  # a port nobody answers on
    try:
        code, _, err = run(capsys, "sync", "--port", os.ttyname(slave), "--timeout", "0.2", "--db", db)
    finally:
        os.close(slave)
        os.close(master)
    assert code == 2 and err.count("\n") == 1, err
    assert os.listdir(tmp_path) == []  # neither the store nor the folder made for it


def test_a_failed_sync_leaves_a_store_that_was_there(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    Store(db).close()  # empty, but not the sync's to remove
    assert run(capsys, "sync", "--port", tmp_path / "ttyACM9", "--db", db)[0] == 2
    assert os.path.exists(db) and Store(db).count() == 0


# --- 3. archers and boxes -----------------------------------------------------------------
def test_bare_archers_and_boxes_list_and_take_db_before_the_action(club, capsys):
    code, out, _ = run(capsys, "archers", "--db", club)
    assert code == 0 and out == run(capsys, "archers", "list", "--db", club)[1] and "Ann" in out
    assert run(capsys, "archers", "--db", club, "list")[1] == out
    assert run(capsys, "archers", "--db", club, "add", "Dee")[0] == 0  # into club, not the default store
    assert run(capsys, "archers", "--db", club, "retire", "Cat")[0] == 0
    listed = run(capsys, "archers", "--db", club)[1]
    assert "Dee" in listed and "Cat" not in listed
    assert "Cat" in run(capsys, "archers", "--db", club, "--retired")[1]
    assert "Cat" in run(capsys, "archers", "--db", club, "list", "--retired")[1]
    code, out, _ = run(capsys, "boxes", "--db", club)
    assert code == 0 and DEVICE in out and out == run(capsys, "boxes", "list", "--db", club)[1]
    assert run(capsys, "boxes", "--db", club, "name", DEVICE, "Range 1")[0] == 0
    assert "Range 1" in run(capsys, "boxes", "--db", club)[1]


def test_every_argument_of_archers_and_boxes_is_explained():
    top = cli.parser()._subparsers._group_actions[0].choices
    for group in ("archers", "boxes"):
        for name, p in top[group]._subparsers._group_actions[0].choices.items():
            for a in p._actions:
                assert a.help, "%s %s: %s has no help" % (group, name, a.dest)


# --- 4. the mode of the files written ---------------------------------------------------------
@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_written_files_have_the_mode_open_gives(club, tmp_path, capsys, umask):
    old = os.umask(umask)
    try:
        assert run(capsys, "report", "--db", club, "--out", tmp_path / "r.html")[0] == 0
        assert run(capsys, "export", "--db", club, "--out", tmp_path / "x")[0] == 0
        assert run(capsys, "backup", tmp_path / "b.sqlite", "--db", club)[0] == 0
        assert run(capsys, "face", "tictacbow", "--size", "200", "--no-pdf", "--out", tmp_path / "f.svg")[0] == 0
    finally:
        os.umask(old)
    written = ["r.html", "x/matches.csv", "x/arrows.csv", "b.sqlite", "f.svg"]
    for name in written:
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o666 & ~umask, name


# --- 5. counts in words -----------------------------------------------------------------------
def test_one_of_a_thing_is_said_in_the_singular(tmp_path, capsys):
    db = str(tmp_path / "one.sqlite")
    s = Store(db)
    assert s.add_matches(DEVICE, [item(1, MATCH3)]) == [True]  # rounds=1: one round, a draw (TTB-13)
    s.close()
    said = run(capsys, "show", "1", "--db", db)[1]
    said += run(capsys, "export", "--format", "json", "--db", db, "--out", tmp_path / "x")[1]
    said += run(capsys, "backup", tmp_path / "b.sqlite", "--db", db)[1]
    said += run(capsys, "import", tmp_path / "x", "--db", tmp_path / "new.sqlite")[1]
    script = tmp_path / "m3.ttb"
    script.write_text(MATCH3)
    said += run(capsys, "replay", script)[1]
    summary = Summary()
    summary.device, summary.quarantined = DEVICE, 1
    summary.add_new(1, {}, 1)
    summary.damaged.append((2, "torn", 1))
    said += "\n".join(summary.lines())
    g = Game(Options(), (("Ann",), ("Bo",)))
    g.apply(pick(g.match, Rand(3)))
    said += ttt_board.status(g)
    for phrase in ("1 round,", "matches.json: 1 row", "(1 match,", "1 match imported", "(1 match)"):
        assert phrase in said, phrase
    for phrase in ("(1 event)", "its 1 byte kept", "1 piece of damaged", "Match 1 of 2, 1 move -"):
        assert phrase in said, phrase
    assert not re.search(r"\b1 (rows|matches|rounds|events|bytes|pieces|moves|points)\b", said), said


# --- 6. stats of an archer the store does not know ---------------------------------------------
def test_stats_of_an_unknown_archer_says_where_to_look(club, capsys):
    code, out, err = run(capsys, "stats", "Zed", "--db", club)
    assert (code, out) == (2, "")
    assert err == "no archer called 'Zed' in %s: `scorebox archers list --db %s` shows who is there\n" % (club, club)


@pytest.mark.parametrize("argv", [["add", "A"], ["import", "/nonexistent/members.csv"]])
def test_a_refused_archers_add_or_import_leaves_no_store_behind(tmp_path, capsys, argv):
    db = tmp_path / "club" / "store.sqlite"
    code, _, err = run(capsys, "archers", "--db", db, *argv)
    assert code == 2 and err.count("\n") == 1, err
    assert not db.exists() and not (tmp_path / "club").exists()
