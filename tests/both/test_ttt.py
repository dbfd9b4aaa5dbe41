"""Try-Tac-Toe (TTT-1 to TTT-6) on CPython and on MicroPython: the checks of
tests/mpy/ttt_checks.py run under both, and a played game's snapshot is the same on both.

Cited rules: TTT-1 (board_cells, board_fits_screen, no_dead_corner), TTT-2 and TTT-6
(full_game_rotation), TTT-3 (placements, one_mark_two_shapes, shared_triangles,
scoring_random), TTT-4 (values), TTT-5 (blocking_and_dead, move_limit, scoring_random).
"""

import json

import pytest
import ttt_checks
from mpy import run

from scorebox_core.games.ttt.snapshot import snapshot

NAMES = [f.__name__[6:] for f in ttt_checks.CHECKS]


@pytest.fixture(scope="module")
def mpy_results():
    """Every check once in one MicroPython process: {name: (status, detail)}."""
    p = run(["tests/mpy/ttt_checks.py"])
    out = {}
    for line in p.stdout.splitlines():
        status, name, rest = (line.split(" ", 2) + [""])[:3]
        out[name] = (status, rest)
    if len(out) != len(NAMES):
        pytest.fail("MicroPython ran %d of %d checks:\n%s%s" % (len(out), len(NAMES), p.stdout, p.stderr))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_cpython(name):
    assert getattr(ttt_checks, "check_" + name)() > 0


@pytest.mark.micropython
@pytest.mark.parametrize("name", NAMES)
def test_micropython(name, mpy_results):
    status, detail = mpy_results[name]
    assert status == "PASS", detail
    assert int(detail) > 0


@pytest.mark.micropython
def test_snapshot_same_on_both():
    """TTT-6: two full random matches, scored the same by both interpreters."""
    p = run(["tests/mpy/ttt_checks.py", "snapshot", "9"])
    assert p.returncode == 0, p.stderr
    here = snapshot(ttt_checks.random_game(9))
    assert here["winner"] in ("X", "O", "draw") and len(here["matches"]) == 2
    assert json.loads(p.stdout) == json.loads(json.dumps(here))


def test_checks_fail_on_a_wrong_board(monkeypatch):
    """The checks compare with geometry and brute force, not with the tables under test:
    a neighbour table with one edge lost fails them."""
    nb = list(ttt_checks.board.NEIGHBOURS)
    nb[12] = nb[12][:-1]
    monkeypatch.setattr(ttt_checks.board, "NEIGHBOURS", tuple(nb))
    with pytest.raises(ttt_checks.Mismatch):
        ttt_checks.check_board_cells()
