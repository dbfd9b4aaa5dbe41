"""The words both games share (firmware/scorebox_core/sides.py) and the registry of games
(games.py) on CPython, where `make mutate` found behaviour no CPython test pinned (issue 21,
item 16): a strict replay's refusal names the event by its place and token, a lenient one
leaves refused events out at their places (TTB-15, TTT-2), a side's name in a result, the
face's wear (TTB-16), and the registry letting a game's modules go."""

import json
import subprocess
import sys

import pytest

from scorebox_core import games, sides
from scorebox_core.games.ttb import rules as ttb
from scorebox_core.games.ttt import rules as ttt

# Per game: an event taken, then one refused now, and the refusal's sentence.
CASES = {
    "ttb": (ttb, ttb.hit(1, 3), ttb.NEW_GAME, "new game", "the game is still on"),
    "ttt": (ttt, 5, 5, "5", "triangle 5 is X's: a shot there marks nothing, key a miss"),
}


@pytest.mark.parametrize("game", sorted(CASES))
def test_a_strict_replay_names_the_refused_event_by_place_and_token(game):
    rules, ok, refused, tok, why = CASES[game]
    with pytest.raises(sides.Refused) as e:
        rules.replay([ok, refused, ok])
    assert str(e.value) == "event 2 (%s): %s" % (tok, why)


@pytest.mark.parametrize("game", sorted(CASES))
def test_a_lenient_replay_leaves_refused_events_out_at_their_places(game):
    rules, ok, refused, _, _ = CASES[game]
    m = rules.replay([ok, refused, sides.UNDO, sides.UNDO, ok], lenient=True)
    # the second UNDO has nothing left to take back; ok is taken again once undone
    assert m.skipped == [1, 3] and m.log == [ok, sides.UNDO, ok] and m.events == [ok]


def test_a_side_is_named_by_its_letter_or_as_a_draw():
    assert [sides.side_name(s, "AB") for s in (None, sides.FIRST, sides.SECOND, sides.DRAW)] == [None, "A", "B", "draw"]
    assert [sides.side_name(s, "XO") for s in (sides.FIRST, sides.SECOND)] == ["X", "O"]
    assert [sides.rotation(done, 2) for done in range(4)] == [0, 1, 0, 1]


def test_a_new_face_has_nine_unhit_squares_and_is_worn_at_face_games():
    """TTB-16: the box asks about a new face once it has had face_games games."""
    f = sides.Face()
    assert f.games == 0 and f.arrows == [0] * 9
    opts = ttb.Options()
    opts.set("face_games", "2")
    assert [sides.Face(n).worn(opts) for n in (1, 2, 3)] == [False, True, True]
    kept = [1] * 9
    assert sides.Face(1, kept).arrows == kept and sides.Face(1, kept).arrows is not kept


FORGET = """import json, sys
from scorebox_core import games
games.forget([gid for gid, _ in games.GAMES])  # none loaded yet: nothing to let go
for gid, _ in games.GAMES:
    games.get(gid)
games.forget([games.GAMES[1][0]])
pkgs = [pkg for _, pkg in games.GAMES]
print(json.dumps({
    "modules": [[m for m in sys.modules if m.startswith("scorebox_core.games.%s." % p)] for p in pkgs],
    "packages": ["scorebox_core.games." + p in sys.modules for p in pkgs],
    "attributes": [hasattr(games, p) for p in pkgs],
}))
"""


def test_the_registry_lets_only_the_named_games_modules_go():
    """games.forget (a match starting on the box): the named game's modules and package go,
    the other's stay, and a game never loaded is let go without a fuss. In a fresh CPython
    (the test's own modules are left alone)."""
    r = subprocess.run([sys.executable, "-c", FORGET], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["modules"][0] and got["modules"][1] == []
    assert got["packages"] == [True, False] and got["attributes"] == [True, False]
    assert games.get(games.GAMES[1][0]).ID == games.GAMES[1][0]
