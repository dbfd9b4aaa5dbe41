"""Try-Tac-Toe on the box (TTT-1 to TTT-6): the firmware on the virtual Pico, as deployed .mpy.

- golden screenshots of its screens (tests/golden/ttt_*.png; SCOREBOX_UPDATE_GOLDEN=1
  rewrites them after a deliberate change);
- whole two-match games keyed on the keypad and with the six buttons, each game's journal
  record replayed here by the rules core;
- power cuts while a move is committed, and reboots at a match's end and at the result;
  an undo of match 2's start, and the move limit (TTT-5);
- the buttons' cursor: every step goes to a triangle sharing an edge or a corner.
"""

import json
import os
import subprocess
import sys

import mpy
import pngread
import pytest

from scorebox.device import mpy_build
from scorebox.sim import png
from scorebox_core.games.ttt import board
from scorebox_core.games.ttt.rules import MISS, NEXT_MATCH, Game, O, X
from scorebox_core.match import from_header, result

# The golden screens and the whole-game checks run on a roomy heap (the harness keeps every
# frame); test_ttt_game_on_a_pico_sized_heap plays on the app's Pico-sized one.
HEAP = "320k"
GOLDEN = os.path.join(mpy.TESTS, "golden")

if mpy.FIRMWARE not in sys.path:
    sys.path.append(mpy.FIRMWARE)  # box/games/ttt/play.py's cursor, on CPython


@pytest.fixture(scope="module")
def built():
    """The firmware compiled by mpy-cross (cached by content)."""
    return mpy_build.build()


def run(built, args, heapsize, timeout=300):
    r = mpy.run(args, heapsize=heapsize, paths=(built,), timeout=timeout)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    return r.stdout


@pytest.mark.micropython
def test_ttt_golden_screens(built, tmp_path):
    out = run(built, ["tests/mpy/app_ttt_screens.py", str(tmp_path / "flash.img")], HEAP)
    got = dict(line.split() for line in out.splitlines())
    assert len(got) >= 18
    update = os.environ.get("SCOREBOX_UPDATE_GOLDEN") == "1"
    missing, differ = [], []
    for name, hexdata in got.items():
        assert name.startswith("ttt_")  # Tic Tac BOW's pictures are test_app.py's
        frame = bytes.fromhex(hexdata)
        p = os.path.join(GOLDEN, name + ".png")
        if update:
            with open(p, "wb") as f:
                f.write(png.encode_1bit(png.pixels(frame)))
        if not os.path.exists(p):
            missing.append(name)
            continue
        with open(p, "rb") as f:
            if pngread.frame_from_pixels(pngread.decode_1bit(f.read())) != frame:
                differ.append(name)
    assert not missing, "no golden picture for %s (SCOREBOX_UPDATE_GOLDEN=1 makes them)" % missing
    assert not differ, "screens differ from tests/golden: %s" % differ


def play(built, tmp_path, layout, games, seed, heap=HEAP):
    cmd = [mpy.micropython(), "-X", "heapsize=" + heap, "tests/mpy/app_ttt_play.py"]
    cmd += [str(tmp_path / (layout + ".img")), layout, str(games), str(seed)]
    return subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=mpy.env(built), cwd=mpy.ROOT
    )


@pytest.mark.micropython
def test_ttt_whole_games_keypad_and_buttons(built, tmp_path):
    """TTT-2, TTT-5, TTT-6: two games on each set of keys (two processes: two cores); every
    journal record folds to the result the box recorded, match 2 started by O."""
    procs = {layout: play(built, tmp_path, layout, 2, 5) for layout in ("keypad", "buttons")}
    stats = {}
    for layout, p in procs.items():
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, out[-2000:] + err[-3000:]
        lines = [json.loads(line) for line in out.strip().splitlines()]
        stats[layout] = lines[-1]
        assert len(lines) == 3 and lines[-1]["games"] == 2
        for rec in lines[:-1]:
            opts, players, _ = from_header(rec["header"])
            g = Game.replay(rec["log"], opts, players)
            assert g.over() and rec["result"] == result(g) and rec["confirmed"] == [True, True]
            assert [m.first for m in g.matches] == [X, O]
            assert NEXT_MATCH in g.events and MISS in g.events
    assert stats["keypad"]["moves"] == stats["buttons"]["moves"]  # the same games, other keys
    assert 2 < stats["keypad"]["keys_per_move"] < 3  # one or two digits and #, or D
    assert stats["buttons"]["keys_per_move"] > stats["keypad"]["keys_per_move"]


@pytest.mark.micropython
def test_ttt_game_on_a_pico_sized_heap(built, tmp_path):
    """Two whole games on the heap the Tic Tac BOW matches are keyed on (mpy.PICO_HEAP)."""
    p = play(built, tmp_path, "keypad", 2, 5, mpy.PICO_HEAP)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err[-500:]
    assert json.loads(out.strip().splitlines()[-1])["games"] == 2


@pytest.mark.micropython
def test_ttt_power_cut_resumes(built):
    out = run(built, ["tests/mpy/app_ttt_powercut.py"], "24M")
    lines = out.strip().splitlines()
    last = lines[-1].split()
    cuts, before, after = int(last[1]), int(last[3]), int(last[5])
    assert cuts >= 3 and before >= 1 and after >= 1 and before + after == cuts
    assert lines[-3].startswith("landed:") and lines[-2].startswith("move limit:")


def test_cursor_steps_to_neighbours():
    """The six buttons' cursor (box/games/ttt/play.py): left/right go to a neighbour in the row
    (round at its ends), up/down straight up or down across an edge or through a point,
    off the face past the top and bottom rows; every triangle is reachable."""
    from box.games.ttt.play import END_POS, MISS_POS, step
    from box.keys import DOWN, LEFT, RIGHT, UP

    nb = board.NEIGHBOURS
    n = len(nb)
    reach = {0}
    for c in range(n):
        for k in (LEFT, RIGHT, UP, DOWN):
            d = step(c, k, c)
            if d >= n:
                assert k in (UP, DOWN) and d == MISS_POS and board.row_of(c) in (0, 5)
                continue
            if k in (LEFT, RIGHT):
                assert board.row_of(d) == board.row_of(c) and (d in nb[c] or abs(d - c) > 1)
            else:  # across its edge or through its point: the two share a corner
                assert d in nb[c] or set(board.CELLS[c]) & set(board.CELLS[d]), (c, k, d)
                assert board.row_of(d) == board.row_of(c) + (1 if k == DOWN else -1)
            reach.add(d)
    assert reach == set(range(n))
    assert step(MISS_POS, LEFT, 7) == END_POS and step(END_POS, RIGHT, 7) == MISS_POS
    assert step(MISS_POS, DOWN, 7) == 7
