"""A game installed beside the built-in ones is played on the box and synced like theirs:
Noughts and Crosses (tests/games/scorebox_game_xo) keyed on the virtual Pico, the firmware as
deployed .mpy on the Pico's heap and the game's package found on its path by name, then
pulled by `scorebox sync` into a real SQLite store and replayed there by its own rules.

The game is keyed by tests/mpy/app_xo_play.py (X wins along 3-5-7, a power cut on the way);
the PC's commands run with PYTHONPATH naming tests/games, as on a club's PC with the game
installed."""

import json
import os
import subprocess
import sys

import mpy
import pytest
from picoheap import PicoHeapVirtualPico

from scorebox.device import link, mpy_build

pytestmark = pytest.mark.micropython

GAMES = os.path.join(mpy.TESTS, "games")
LOG = [5, 1, 128, 5, 3, 9, 8, 256, 7]  # O's 5 hits X's square; X's 8 undone
RESULT = {"winner": "X", "squares": [3, 2], "arrows": 7}


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([GAMES, os.path.join(mpy.ROOT, "host_tools"), mpy.FIRMWARE])
    r = subprocess.run([exe, *args], capture_output=True, text=True, timeout=300, env=e, cwd=mpy.ROOT)
    assert "Traceback" not in r.stderr, r.stderr
    return r


@pytest.mark.parametrize("layout", ["keypad", "buttons"])
def test_a_game_keyed_on_the_box_is_synced_and_stored(tmp_path, layout):
    flash = str(tmp_path / "box.flash")
    built = mpy_build.build()
    p = mpy.run(["tests/mpy/app_xo_play.py", flash, layout], heapsize=mpy.PICO_HEAP, paths=(built, GAMES))
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    got = json.loads(p.stdout.splitlines()[-1])
    assert got["playing"] == "Play" and got["resumed"] == ["Play", [5, 1]]
    assert got["over"] == "GameOver" and got["confirmed"] == "History" and got["home"]
    assert got["detail"] == ["X X", "O O", "X wins 3-2", "squares 3-2", "arrows 7"]  # its HISTORY's lines
    assert "scorebox_game_xo.box.play" in got["match"] and got["others"] == []  # its modules alone
    for mods in (got["closed"], got["after"]):  # its LET_GO: its rules go with its game, its screens too
        assert "scorebox_game_xo.core.rules" not in mods and "scorebox_game_xo.box.play" not in mods
    j = got["journal"]
    assert j["header"]["game"] == "noughts" and j["events"] == LOG and j["result"] == RESULT

    vp = PicoHeapVirtualPico(flash)
    try:
        ser = link.open_port(vp.port)
        vp.wait_ready(link.Client(ser, timeout=1.0, retries=0))
        ser.close()
        db = str(tmp_path / "club.sqlite")
        s = scorebox("sync", "--port", vp.port, "--db", db)
        with open(vp.log, encoding="utf-8", errors="replace") as f:
            said = f.read()[-2000:]  # the box's own words, should the sync fail
        assert s.returncode == 0 and "1 new match stored" in s.stdout, s.stderr + s.stdout + said
    finally:
        vp.close()
    r = scorebox("matches", "--json", "--db", db)
    (row,) = json.loads(r.stdout)
    assert row["game"] == "noughts" and row["winner"] == "X" and row["finished"] == 1
    assert row["wins_a"] == 1 and row["wins_b"] == 0 and row["score"] == [3, 2]  # the box's result
    shown = scorebox("show", str(row["id"]), "--db", db)
    assert shown.returncode == 0 and "7. X (X): marks 7" in shown.stdout, shown.stderr
    assert "events: 5 1 - 5 3 9 8 undo 7" in shown.stdout  # the log as keyed


KEYS = """\
; a Noughts and Crosses game on the keypad: New match, its preset (the last), X Ann, O Bob
# 4 8 6 8 8 6 6 # #
5 # 1 # D 5 # 3 # 9 # 8 # * 7 #  ; X wins along 3-5-7
# #                              ; X confirms, O confirms
"""


def test_the_simulators_box_has_the_game_the_pc_has(tmp_path):
    """`scorebox sim` and `sync --sim`: the virtual Pico run from source is given the folder the
    PC finds the game in (sim/run.py installed_games), so a game keyed there is synced as any."""
    (tmp_path / "xo.keys").write_text(KEYS)
    flash, db = str(tmp_path / "box.flash"), str(tmp_path / "club.sqlite")
    r = scorebox("sim", "--keys", str(tmp_path / "xo.keys"), "--roster", "Ann,Bob", "--state", flash)
    assert r.returncode == 0, r.stderr + r.stdout
    r = scorebox("sync", "--sim", flash, "--db", db)
    assert r.returncode == 0 and "1 new match stored" in r.stdout, r.stderr + r.stdout
    (row,) = json.loads(scorebox("matches", "--json", "--db", db).stdout)
    assert row["game"] == "noughts" and (row["side_a"], row["side_b"]) == ("Ann", "Bob")
    assert row["winner"] == "X" and row["score"] == [3, 2] and row["arrows"] == 7
