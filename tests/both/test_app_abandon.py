"""A match opened by mistake: abandoned from Home while nothing in it is in effect (both
games), never with an arrow or a move in effect. Keyed through the firmware on the virtual
Pico as .mpy, on the Pico-sized heap: tests/mpy/app_abandon.py. Then that box synced: the PC
stores the abandoned matches, says so, and every command that reads them runs."""

import json
import os
import subprocess
import sys

import mpy
import pytest

from scorebox.device import mpy_build
from scorebox_core.games.ttb import rules

pytestmark = pytest.mark.micropython

MENU = ["New match", "History", "Storage+battery", "Settings"]
ABANDONED = {"abandoned": True}
SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    flash = tmp_path_factory.mktemp("abandon") / "flash.img"
    r = mpy.run(["tests/mpy/app_abandon.py", str(flash)], heapsize=mpy.PICO_HEAP, paths=(mpy_build.build(),))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    got["flash"] = flash
    return got


def test_a_match_with_everything_undone_is_offered_and_asked_first(seen):
    assert seen["ttb_empty_home"] == ["Home", ["Resume match", "Abandon match"] + MENU]
    assert seen["asked"] == [[1, "Abandon match"], True]  # asked: still open
    assert seen["kept"] == [None, True]  # * keeps it


def test_abandoning_finishes_it_in_the_journal_with_both_confirmations(seen):
    assert seen["abandoned"] == ["Home", MENU, None, None]  # nothing open, nothing to confirm
    assert seen["m1"] == [[rules.hit(5, 3), rules.UNDO], ABANDONED, [True, True]]  # what was keyed stays


def test_after_a_reboot_home_and_new_match_works(seen):
    assert seen["rebooted"] == ["Home", MENU, True]
    assert seen["m2_open"] == ["Play", 2]


def test_a_match_with_an_arrow_in_effect_is_not_offered(seen):
    assert seen["ttb_arrow_home"] == ["Home", ["Resume match"] + MENU]
    assert seen["new_refused"] == ["Message", "A match is open: resume it and finish it first."]


def test_new_match_on_an_empty_open_match_asks_then_opens_the_setup(seen):
    assert seen["new_asks"] == [2, "New match"]
    assert seen["new_then"] == ["NewMatch", None]
    assert seen["m2"] == [[rules.hit(5, 3), rules.UNDO], ABANDONED, [True, True]]
    assert seen["m3_open"] == ["Play", 3]
    assert seen["m3"] == [[], ABANDONED, [True, True]]


def test_try_tac_toe_is_abandoned_alike_and_its_rules_leave_the_heap(seen):
    assert seen["ttt_open"] == [True, True]
    assert seen["ttt_empty_home"] == ["Home", ["Resume match", "Abandon match"] + MENU]
    assert seen["ttt_abandoned"] == ["Home", MENU, False, False]
    assert seen["m4"] == [[], ABANDONED, [True, True]]
    assert seen["ttt_move_home"] == ["Home", ["Resume match"] + MENU]  # a move marked: not offered
    assert seen["m5_events"] == [12]


def test_the_abandon_code_leaves_the_heap_with_the_menus(seen):
    """box/home.py holds it; App.release lets Home's screens and module go (MicroPython keeps
    a deleted attribute's value in its slot: it used to keep the whole module alive)."""
    assert seen["menus_freed"] > 2048


def test_synced_abandoned_matches_are_stored_and_read(seen, tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path / "home"))
    db = str(tmp_path / "store.db")

    def scorebox(*args):
        r = subprocess.run([SCOREBOX, *args, "--db", db], capture_output=True, text=True, timeout=300, env=env)
        assert r.returncode == 0, r.stdout + r.stderr
        return r.stdout

    out = scorebox("sync", "--sim", str(seen["flash"]))
    assert "4 new matches stored" in out  # the fifth is open (a move marked): it stays on the box
    assert "match 1: abandoned (2 events)" in out and "match 4: abandoned (0 events)" in out
    rows = json.loads(scorebox("matches", "--json"))
    assert [r["number"] for r in rows] == [1, 2, 3, 4] and all(r["winner"] is None for r in rows)
    assert all(r["abandoned"] for r in rows)  # listed as such, not as open matches
    listed = scorebox("matches").splitlines()
    assert all(" abandoned " in line for line in listed[1:]) and len(listed) == 5, listed
    for n in ("1", "4"):
        scorebox("show", n)
    scorebox("report", "--out", str(tmp_path / "report.html"))
    assert '"res":"abandoned"' in (tmp_path / "report.html").read_text(encoding="utf-8")
    scorebox("stats")
    scorebox("stats", "--ttt")


def test_a_power_cut_inside_abandon_leaves_the_box_free(tmp_path):
    r = mpy.run(
        ["tests/mpy/app_abandon_cut.py", str(tmp_path / "flash.img")],
        heapsize=mpy.PICO_HEAP,
        paths=(mpy_build.build(),),
    )
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got == {"booted": ["Home", None], "m1": [True, True], "next": ["Play", 2]}
