"""Held digit keys (2, 4, 6, 8 auto-repeat for the menus): one digit on Try-Tac-Toe's number
entry, harmless on Tic Tac BOW's play screen; the repeats kept for Home's rows and the six
buttons' cursor. Keyed through the firmware on the virtual Pico as .mpy:
tests/mpy/app_ttt_repeat.py."""

import json

import mpy
import pytest

from scorebox.device import mpy_build
from scorebox_core.games.ttb import rules

pytestmark = pytest.mark.micropython


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    flash = tmp_path_factory.mktemp("repeat") / "flash.img"
    r = mpy.run(["tests/mpy/app_ttt_repeat.py", str(flash)], heapsize=mpy.PICO_HEAP, paths=(mpy_build.build(),))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_a_held_digit_is_one_digit_on_the_ttt_number_entry(seen):
    assert seen["typed"] == [2, 1]  # 2 held 0.6 s: triangle 2 selected (0-based 1), not 22
    assert seen["ttt"] == [2, 14, 8, 6]  # TTT-1: the triangles keyed, each held past its repeats


def test_a_held_digit_on_the_ttb_play_screen_only_frames_its_square(seen):
    assert seen["ttb_held"] == [2, []]  # TTB-1: square 2 framed, nothing keyed
    assert seen["ttb"] == [rules.hit(2, 3), rules.hit(8, 3)]


def test_repeats_stay_for_the_menus_and_the_cursor(seen):
    assert seen["home_sel"] == 2  # 8 held 0.6 s: down a row, and one more
    start, now = seen["cursor"]
    assert now == start + 2  # right held 0.6 s: two triangles along the row
