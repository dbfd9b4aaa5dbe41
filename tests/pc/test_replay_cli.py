"""`scorebox replay`: the board in the terminal, --json, and clear errors (exit 2, FILE:LINE)."""

import json
import os
import subprocess
import sys

import pytest
from mpy import ROOT

SEED = os.path.join(ROOT, "docs", "samples", "seed-example.ttb")
FULL = os.path.join(ROOT, "docs", "samples", "full-game.ttb")


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=60)


def test_seed_example_json():
    p = scorebox("replay", SEED, "--json")
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert s["winner"] is None
    assert s["next"]["side"] == "A" and s["next"]["arrow"] == 1
    sq = s["squares"]
    assert [x["square"] for x in sq] == list(range(1, 10))
    assert sq[4]["need"] == {"A": 7, "B": 3}  # TTB-5, TTB-6: the seed's example
    assert sq[4]["owner"] is None and sq[4]["flipped"] is False
    assert all(x["need"] == {"A": 5, "B": 5} for i, x in enumerate(sq) if i != 4)


def test_full_game_json_and_board():
    s = json.loads(scorebox("replay", FULL, "--json").stdout)
    assert s["winner"] == "B" and s["next"] is None
    assert s["squares"][4] == {
        "square": 5,
        "owner": "B",
        "flipped": True,
        "locked": True,
        "need": None,
    }
    board = scorebox("replay", FULL)
    assert board.returncode == 0
    assert "[B]" in board.stdout and "locked" in board.stdout
    assert "Game over: B (Ben) wins (line)" in board.stdout  # the side by name where named


def test_board_shows_needs():
    out = scorebox("replay", SEED).stdout
    assert "A7  B3" in out
    assert "Next: A (A), arrow 1 of 3" in out


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("A: 5:2 5:1 5:1\nB: 5:3 5:2 5:X\n", 2, "5:X refused: square 5 is open"),  # TTB-9
        ("# c\nA: 5:2 5:1\nB: 1:1 1:1 1:1\n", 3, "the turn on line 2 is short"),
        ("options: mode=soft\n", 1, "mode must be net or hard5"),
        ("A: 10:1\n", 1, "bad arrow '10:1'"),
        ("B: 1:1\n", 1, "A shoots this turn, not B"),
        ("A: 1:1 1:1 1:1 1:1\n", 1, "too many arrows"),
        ("hello\n", 1, "expected `A:`"),
    ],
)
def test_errors_name_the_line(tmp_path, text, line, message):
    f = tmp_path / "bad.ttb"
    f.write_text(text)
    p = scorebox("replay", str(f))
    assert p.returncode == 2
    assert p.stdout == ""
    err = p.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith("%s:%d: " % (f, line)), err
    assert message in err


def test_missing_and_binary_files(tmp_path):
    p = scorebox("replay", str(tmp_path / "nope.ttb"))
    assert p.returncode == 2 and "cannot read" in p.stderr and "Traceback" not in p.stderr
    b = tmp_path / "bin.ttb"
    b.write_bytes(b"\xff\xfe\x00\x01")
    p = scorebox("replay", str(b))
    assert p.returncode == 2 and "not a text file" in p.stderr
