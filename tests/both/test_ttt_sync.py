"""A box holding Try-Tac-Toe games and Tic Tac BOW matches, synced from the virtual Pico:
each is replayed with its own rules (a Try-Tac-Toe game never with Tic Tac BOW's, TTT-1 to
TTT-6), stored once, listed with its game and shown move by move.

The games go into the flash through the box's own journal writer on MicroPython, as
tests/mpy/journal_fill.py writes Tic Tac BOW matches (tests/support/flashfill.py); the result
record is match.result()'s.
"""

import json
import os
import subprocess
import sys

import pytest
from boxfill import fill
from flashfill import write
from mpy import run
from picoheap import PicoHeapVirtualPico
from ttt_history import full_game, ttt_header

from scorebox.device import link
from scorebox.store.sqlite import Store
from scorebox_core.games.ttt.game import ID as TTT
from scorebox_core.games.ttt.rules import Game

pytestmark = pytest.mark.micropython


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)


def ttt_games():
    out = []
    for seed, players in ((3, (("Ann", "Cy"), ("Bo",))), (11, (("Dee",), ("Eve",)))):
        g = full_game(seed, players)
        out.append({"header": ttt_header(g, 1790100000 + seed), "events": list(g.log)})
    return out


def test_a_box_of_both_games_syncs(tmp_path):
    flash, ttb = fill(tmp_path, 3)
    games = ttt_games()
    write(tmp_path, flash, games)
    vp = PicoHeapVirtualPico(flash)  # the Pico's budget: .mpy on a 192 KB heap
    try:
        ser = link.open_port(vp.port)
        vp.wait_ready(link.Client(ser, timeout=1.0, retries=0))
        ser.close()
        db = str(tmp_path / "club.sqlite")
        s = scorebox("sync", "--port", vp.port, "--db", db)
        assert s.returncode == 0, s.stderr + s.stdout
        assert "5 new matches stored" in s.stdout
        again = scorebox("sync", "--port", vp.port, "--db", db)
        assert again.returncode == 0 and "0 new matches stored" in again.stdout, again.stderr + again.stdout
    finally:
        vp.close()
    store = Store(db)
    rows = store.matches()
    assert [r["game"] for r in rows] == ["tictacbow"] * 3 + [TTT] * 2
    for r, m in zip(rows[3:], games):
        g = Game.replay(m["events"], None, tuple(tuple(a) for a in m["header"]["archers"]))
        x, o = g.score()
        assert r["winner"] == ("X" if x > o else "O" if o > x else "draw")  # TTT-6
        assert r["finished"] == 1 and r["moves"] == sum(len(mm.moves) for mm in g.matches)
        extras = json.loads(store.db.execute("SELECT extras FROM matches WHERE id = ?", (r["id"],)).fetchone()[0])
        assert extras["result"]["score"] == [x, o]  # the box's own result record, as the PC replays it
        assert "skipped" not in extras
    assert [json.loads(r[0]) for r in store.db.execute("SELECT log FROM matches ORDER BY number")] == [
        m["events"] for m in ttb + games
    ]
    assert store.check() == []
    shown = scorebox("show", "--db", db, str(rows[3]["id"]))
    assert shown.returncode == 0 and "-- match 2: O starts --" in shown.stdout, shown.stderr
    listed = scorebox("matches", "--db", db)
    assert listed.stdout.count(" TTT ") == 2 and listed.stdout.count(" TTB ") == 3


def test_a_game_keyed_on_the_box_is_synced_shown_and_reported(tmp_path):
    """Issue 16's "done when": a whole two-match game keyed on the virtual Pico's keypad
    (box/games/ttt/play.py, through tests/mpy/app_ttt_play.py), then synced, shown and reported."""
    from scorebox.device import mpy_build

    flash = str(tmp_path / "box.flash")
    p = run(
        ["tests/mpy/app_ttt_play.py", flash, "keypad", "1", "5"], heapsize="320k", paths=(mpy_build.build(),)
    )  # the heap test_app_ttt.py gives a game (the board's tables)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    keyed = json.loads(p.stdout.splitlines()[0])
    vp = PicoHeapVirtualPico(flash)
    try:
        ser = link.open_port(vp.port)
        vp.wait_ready(link.Client(ser, timeout=1.0, retries=0))
        ser.close()
        db = str(tmp_path / "club.sqlite")
        s = scorebox("sync", "--port", vp.port, "--db", db)
        assert s.returncode == 0 and "1 new match stored" in s.stdout, s.stderr + s.stdout
    finally:
        vp.close()
    (row,) = Store(db).matches()
    g = Game.replay(keyed["log"])
    assert row["game"] == TTT and row["finished"] == 1
    assert keyed["result"]["score"] == g.score()  # the box's result is the PC's replay (TTT-6)
    shown = scorebox("show", "--db", db, str(row["id"]))
    assert shown.returncode == 0, shown.stderr
    assert "-- match 2: O starts --" in shown.stdout and "Score: X %d - O %d" % tuple(g.score()) in shown.stdout
    out = str(tmp_path / "report.html")
    r = scorebox("report", "--db", db, "--out", out)
    assert r.returncode == 0, r.stderr
    html = open(out, encoding="utf-8").read()
    assert '<td class="game">Try-Tac-Toe</td>' in html and '"g":"ttt"' in html
