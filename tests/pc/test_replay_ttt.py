"""`scorebox replay` on Try-Tac-Toe scripts: told from Tic Tac BOW's, the JSON of the issue,
the board as text, and errors as one line FILE:LINE (exit 2)."""

import json
import os
import subprocess
import sys

import pytest

from scorebox_core.games.ttt import board

# X makes the triangle 1, 12, 13, 14 (value 3) in match 1; O answers with misses and 2, 3.
GAME = """# a short game with a move limit
options: triangle=3 bar=1 chevron=1 moves=8
archers: X=Ann,Bob O=Cat,Dan
X: 1
O: 2
X: 12
O: 3
X: 13
O: -
X: 14
O: 40
match 2
O: 20
X: 21
undo
X: 22
"""


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def game_file(tmp_path):
    f = tmp_path / "game.ttt"
    f.write_text(GAME)
    return str(f)


def test_json_has_the_issue_keys(game_file):
    p = scorebox("replay", game_file, "--json")
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert s["game"] == "try-tac-toe"
    assert [c["id"] for c in s["cells"]] == list(range(1, 75))
    assert s["cells"][0]["vertices"] == [list(v) for v in board.CELLS[0]]
    # cells and tally are those of the current match (match 2): O's 20, X's 22 (21 undone)
    marks = {c["id"]: c["mark"] for c in s["cells"] if c["mark"]}
    assert marks == {20: "O", 22: "X"}
    assert s["shapes"] == {
        "triangle": {"value": 3, "placements": 52},
        "bar": {"value": 1, "placements": 156},
        "chevron": {"value": 1, "placements": 164},
    }
    assert s["tally"] == {"X": {"triangle": 0, "bar": 0, "chevron": 0}, "O": {"triangle": 0, "bar": 0, "chevron": 0}}
    assert s["matches"] == [{"X": 3, "O": 0}, {"X": 0, "O": 0}]  # TTT-6
    assert s["score"] == {"X": 3, "O": 0}
    assert s["winner"] is None
    assert s["next"] == {"side": "O", "player": "Dan", "move": 3, "match": 2}  # TTT-2: O1, X2, then O2
    assert s["options"] == {"triangle": 3, "bar": 1, "chevron": 1, "moves": 8}


def test_board_as_text(game_file):
    p = scorebox("replay", game_file)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].split() == [str(n) for n in range(1, 12)]
    assert lines[1].split() == [str(n) for n in range(12, 20)] + ["O", "21", "X", "23", "24"]
    assert "Match 2 of 2, 2 moves" in p.stdout
    assert "Next: O (Dan)" in p.stdout
    assert "Score: X 3 - O 0 (matches 3-0, 0-0)" in p.stdout


def test_finished_game_has_a_winner(tmp_path):
    f = tmp_path / "end.ttt"
    f.write_text(GAME.replace("X: 22\n", "X: 22\nend\n"))
    s = json.loads(scorebox("replay", str(f), "--json").stdout)
    assert s["winner"] == "X" and s["over"] is True and s["reason"] == "agreed"
    assert "Game over: X wins" in scorebox("replay", str(f)).stdout


def test_told_by_the_options_line(tmp_path):
    f = tmp_path / "empty.ttt"
    f.write_text("options: game=try-tac-toe\n")
    s = json.loads(scorebox("replay", str(f), "--json").stdout)
    assert s["game"] == "try-tac-toe" and s["next"]["side"] == "X"


def test_tic_tac_bow_still_replays(tmp_path):
    f = tmp_path / "ttb.ttb"
    f.write_text("A: 5:2 5:1 5:1\n")
    s = json.loads(scorebox("replay", str(f), "--json").stdout)
    assert s["game"] == 1 and s["squares"][4]["balance"] == 4


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("X: 1\nX: 2\n", 2, "O moves now, not X"),
        ("X: 1\nO: 1\n", 2, "triangle 1 is X's"),
        ("X: 80\n", 1, "bad move '80'"),
        ("options: moves=1\nX: 1\nO: 2\n", 3, "match 1 is over: start match 2"),
        ("options: game=try-tac-toe kites=2\n", 1, "unknown option 'kites'"),
    ],
)
def test_errors_name_the_line(tmp_path, text, line, message):
    f = tmp_path / "bad.ttt"
    f.write_text(text)
    p = scorebox("replay", str(f))
    assert p.returncode == 2 and p.stdout == ""
    err = p.stderr.strip()
    assert "\n" not in err and err.startswith("%s:%d: " % (f, line)) and message in err, err
