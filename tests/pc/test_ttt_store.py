"""Try-Tac-Toe games in the store: replayed with their own rules (never Tic Tac BOW's, TTT-1
to TTT-6), listed with their game, shown move by move, exported and imported back exactly."""

import json

import pytest
from storehelp import add_match
from ttt_history import full_game, ttt_header

from scorebox import cli
from scorebox.report.show import show_lines
from scorebox.store import export
from scorebox.store.access import open_store
from scorebox.store.errors import StoreError
from scorebox.sync.storing import prepare, store_batch
from scorebox.sync.summary import Progress, Summary
from scorebox_core import records as R
from scorebox_core.games.ttb.rules import Face
from scorebox_core.games.ttb.rules import Options as TtbOptions
from scorebox_core.games.ttt.game import ID as TTT
from scorebox_core.match import header, result

BOX = "e6614103e7a1b2c3"


def ttb_header():
    return header(TtbOptions(), (("Dee",), ("Eve",)), (18, 18), "m", (0, 0), Face())


pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database


@pytest.fixture
def store(store_at):
    s = open_store(store_at, create=True)
    yield s
    s.close()


def test_stored_with_its_own_rules(store):
    g = full_game()
    assert add_match(store, BOX, 1, ttt_header(g), g.log) is True
    assert add_match(store, BOX, 2, ttb_header(), [5, 9]) is True  # a Tic Tac BOW match beside it
    assert add_match(store, BOX, 1, ttt_header(g), g.log) is False  # a second sync adds nothing
    ttt, ttb = store.matches()
    x, o = g.score()
    scores = [(m.score(0), m.score(1)) for m in g.matches]
    wins = (sum(a > b for a, b in scores), sum(b > a for a, b in scores))
    assert ttt["game"] == TTT and ttb["game"] == "tictacbow"
    assert ttt["winner"] == ("X" if x > o else "O" if o > x else "draw")  # TTT-6: game score = both matches
    assert (ttt["wins_a"], ttt["wins_b"], ttt["finished"]) == (wins[0], wins[1], 1)
    assert (ttt["side_a"], ttt["side_b"]) == ("Ann,Cy", "Bo")
    assert ttt["moves"] == sum(len(m.moves) for m in g.matches)
    assert (ttt["games"], ttt["arrows"]) == (0, 0)  # no Tic Tac BOW rows: stats stay Tic Tac BOW's
    assert store.db.execute("SELECT DISTINCT side FROM match_archers ORDER BY side").fetchall() == [
        ("A",),
        ("B",),
        ("O",),
        ("X",),
    ]
    assert store.check() == []


def test_refused_by_the_ttt_rules(store):
    g = full_game()
    h = ttt_header(g)
    # Triangle 75 is no triangle (TTT-1), though 75 is an arrow event to Tic Tac BOW.
    with pytest.raises(StoreError, match="rules refuse"):
        add_match(store, BOX, 3, h, [1, 75])
    # A marked triangle takes no second mark (TTT-2): the box keys a miss.
    with pytest.raises(StoreError, match="triangle 1 is X's"):
        add_match(store, BOX, 4, h, [1, 1])
    with pytest.raises(StoreError, match="bad match header"):
        add_match(store, BOX, 5, dict(h, options={"triangle": 500}), [1])
    assert store.count() == 0


def test_show_move_by_move(store):
    g = full_game()
    add_match(store, BOX, 7, ttt_header(g), g.log)
    text = "\n".join(show_lines(store.load_match(BOX + "/7")))
    assert "X: Ann, Cy   O: Bo" in text
    assert "-- match 1: X starts --" in text and "-- match 2: O starts --" in text  # TTT-6
    assert "  1. X (Ann): " in text and "  2. O (Bo): " in text and "  3. X (Cy): " in text  # TTT-2 rotation
    assert "Match 2 over (grid full)" in text  # TTT-5
    x, o = g.score()
    assert "Score: X %d - O %d" % (x, o) in text
    assert "Game over: " in text


def test_matches_command_lists_the_game(store, capsys):
    g = full_game()
    add_match(store, BOX, 1, ttt_header(g), g.log)
    add_match(store, BOX, 2, ttb_header(), [5, 9])
    assert cli.main(["matches", "--db", store.path]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "game" in lines[0] and "A/X" in lines[0]
    moves = sum(len(m.moves) for m in g.matches)
    assert " Ann,Cy " in lines[1] and lines[1].endswith(" TTT  %6d" % moves)
    assert " Dee " in lines[2] and " TTB " in lines[2]
    assert cli.main(["show", "--db", store.path, "1"]) == 0
    assert "-- match 2: O starts --" in capsys.readouterr().out
    # Named afterwards: X's members then O's (store/roster.py), the moves follow TTT-2's rotation.
    assert cli.main(["show", "--db", store.path, "1", "--names", "Zed,Yan,Xi", "--force", "--add"]) == 0  # Ann, Cy v Bo
    out = capsys.readouterr().out
    assert out.startswith("match %s/1: X Zed, Yan, O Xi\n" % BOX)
    assert "  1. X (Zed): " in out and "  2. O (Xi): " in out and "  3. X (Yan): " in out
    assert cli.main(["show", "--db", store.path, "1", "--names", "Zed,Yan"]) == 2
    assert "give 3 names, side X's then side O's" in capsys.readouterr().err


def test_export_import_round_trip(store, tmp_path):
    g = full_game()
    add_match(store, BOX, 1, ttt_header(g), g.log)
    add_match(store, BOX, 2, ttb_header(), [5, 9])
    out = tmp_path / "x"
    assert cli.main(["export", "--db", store.path, "--format", "json", "--out", str(out)]) == 0
    assert cli.main(["export", "--db", store.path, "--format", "csv", "--out", str(out)]) == 0
    fresh = str(tmp_path / "fresh.sqlite")
    assert cli.main(["import", str(out), "--db", fresh]) == 0
    again = tmp_path / "y"
    assert cli.main(["export", "--db", fresh, "--format", "json", "--out", str(again)]) == 0
    assert cli.main(["export", "--db", fresh, "--format", "csv", "--out", str(again)]) == 0
    first = json.loads((out / "matches.json").read_text())
    assert json.loads((again / "matches.json").read_text()) == first
    m = first["matches"][0]
    assert (m["game"], m["log"], m["side_a"]) == (TTT, g.log, "Ann,Cy")
    csv = (out / "matches.csv").read_text().splitlines()
    assert csv[0].endswith(",game") and csv[1].endswith("," + TTT) and csv[2].endswith(",tictacbow")
    assert (out / "arrows.csv").read_text().count("\n") == 1 + 2  # the header and the TTB match's arrows
    assert (again / "matches.csv").read_text().splitlines() == csv
    assert export.MATCH_COLUMNS[-1] == "game"


def test_a_lost_header_keeps_the_ttt_rules(store):
    """A Try-Tac-Toe game whose header record is damaged: its result record says which game
    it is, so sync stores it replayed with the TTT rules, flagged, with X? and O?."""
    g = full_game()
    data = bytearray(R.group_record(1) + R.match_record(1, ttt_header(g)))
    for ev in g.log:
        data += R.event_record(ev)
    data += R.value_record(R.RESULT, result(g)) + R.confirm_record(0) + R.confirm_record(1)
    head = next(off for off, _, t, _ in R.scan_bytes(bytes(data)) if t == R.MATCH)
    data[head + 4] ^= 0x10  # a worn flash cell in the header
    done = store_batch(store, BOX, [prepare(1, "g000001.tbj", bytes(data), {1})], Summary(), Progress(0))
    assert done == [1]
    (row,) = store.matches()
    assert (row["game"], row["side_a"], row["side_b"], row["finished"]) == (TTT, "X?", "O?", 1)
    assert row["winner"] == {0: "X", 1: "O"}.get(g.winner(), "draw")
