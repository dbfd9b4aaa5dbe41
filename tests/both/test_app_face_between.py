"""TTB-16 between matches: a match that opens on a worn face offers a new one before its first
arrow (the offer after a game only comes when the match goes on: one-game matches never got
it). Keyed through the firmware on the virtual Pico as .mpy: tests/mpy/app_face_between.py."""

import json

import mpy
import pytest

from scorebox.device import mpy_build
from scorebox_core.games.ttb import rules

pytestmark = pytest.mark.micropython

NF = rules.NEW_FACE


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    flash = tmp_path_factory.mktemp("face") / "flash.img"
    r = mpy.run(["tests/mpy/app_face_between.py", str(flash)], heapsize=mpy.PICO_HEAP, paths=(mpy_build.build(),))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["new_face"] == NF
    return got


def test_fresh_and_once_used_faces_open_on_the_play_screen(seen):
    assert seen["m1"] == ["Play", 0]
    assert seen["m1_end"][1] == 1 and NF not in seen["m1_end"][0]
    assert seen["m2"] == ["Play", 1]
    assert seen["m2_end"][1] == 2  # worn now, with no game left in the match to ask after


def test_a_match_opened_on_a_worn_face_offers_a_new_one_first(seen):
    assert seen["m3"] == ["FacePrompt", 2]


def test_ok_logs_new_face_as_the_first_event_and_the_count_starts_again(seen):
    assert seen["m3_ok"] == ["Play", [NF], 0]
    events, face_games = seen["m3_end"]
    assert events[0] == NF and events.count(NF) == 1
    assert face_games == 1  # the match's one game, on the new face
    assert seen["m4"] == ["Play", 1]  # not worn: no offer


def test_back_keeps_the_face_and_plays_on_and_the_next_match_asks_again(seen):
    assert seen["m4_end"][1] == 2
    assert seen["m5"] == ["FacePrompt", 2]
    assert seen["m5_back"] == ["Play", [], 2]
    events, face_games = seen["m5_end"]
    assert NF not in events and face_games == 3
    assert seen["m6"] == ["FacePrompt", 3]


def test_a_power_cut_on_the_offer_comes_back_to_it(seen):
    assert seen["m6_resumed"] == ["FacePrompt", []]
    assert seen["m6_ok"] == ["Play", [NF], 0]
    assert seen["m6_end"][0][0] == NF and seen["m6_end"][1] == 1


def test_held_back_on_the_offer_goes_home_and_resume_asks_again(seen):
    assert seen["m7"] == ["Play", 1] and seen["m7_end"][1] == 2
    assert seen["m8"] == ["FacePrompt", 2]
    assert seen["m8_home"] == "Home"
    assert seen["m8_resumed"] == ["FacePrompt", []]
    assert seen["m8_back"] == "Play"


def test_a_try_tac_toe_game_on_a_worn_face_is_not_asked(seen):
    assert seen["ttt"] == [True, True, []]  # on Try-Tac-Toe's play screen, nothing logged
