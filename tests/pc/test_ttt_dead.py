"""TTT-5: a Try-Tac-Toe match is dead (no shape possible, the box offers to end it) only when
NEITHER side can make a shape any more (issue 21, item 16: dead() with `and` turned into
`or` passed every test).

The position: one side only misses while the other marks the 28 triangles of BLOCKS, which
leave no placement of any shape free of them. The side that missed can make no shape; the
side that marked still can, so the match is not dead, `end` is by agreement, and the box
(the real app on the virtual Pico) does not offer to end; once both are blocked it does.
The premise is checked by brute force over the board's placements, not by the rules' counts.
"""

import mpy
import pytest
import ttt_game

from scorebox_core.games.ttt.board import FIRST, placement
from scorebox_core.games.ttt.rules import AGREED, MISS, NO_SHAPE, Game, O, X

# Every placement (TTT-3) holds at least one of these triangles (found greedily: each marks
# the empty triangle in the most placements still free of them).
BLOCKS = [16, 20, 42, 46, 27, 35, 53, 57, 61, 31, 5, 68, 9, 72, 13, 39, 49, 23, 66, 3, 7, 29, 32, 58, 51, 62, 30, 33]


def blocked_events(victim):
    """Match 1's events (X moves first) in which `victim` misses and the other side marks BLOCKS."""
    out = []
    for t in BLOCKS:
        out += [MISS, t] if victim == X else [t, MISS]
    return out


def can_make_a_shape(marks, side):
    """Brute force: some placement holds no mark of the other side and an empty triangle
    (marks: 0 empty, 1 X, 2 O)."""
    other = 2 - side  # X's marks are 1, O's 2
    for p in range(FIRST[-1]):
        cells = placement(p)
        if all(marks[c] != other for c in cells) and any(not marks[c] for c in cells):
            return True
    return False


@pytest.mark.parametrize("victim", [X, O], ids=["X blocked", "O blocked"])
def test_one_side_blocked_the_other_able_to_score_is_not_dead(victim):
    other = 1 - victim
    g = Game.replay(blocked_events(victim))
    m = g.match
    assert not can_make_a_shape(m.marks, victim) and can_make_a_shape(m.marks, other)
    assert m.possible(victim) == 0 and m.possible(other) > 0
    assert not m.dead() and not m.over()
    g2 = Game.replay(blocked_events(victim))
    g2.match.end()
    assert g2.match.reason == AGREED  # ended by agreement: a shape was still possible

    # The other side can still score: it fills the empty triangles of a placement that holds
    # none of the victim's marks, while the victim misses (the side to move alternates).
    cells = next(
        cs
        for cs in (placement(p) for p in range(FIRST[-1]))
        if all(m.marks[c] != victim + 1 for c in cs) and any(not m.marks[c] for c in cs)
    )
    before = m.score(other)
    for c in cells:
        if m.marks[c]:
            continue
        if m.mover() != other:
            g.apply(MISS)
        g.apply(c + 1)
    assert m.score(other) > before and not m.dead()


@pytest.mark.parametrize("victim", [X, O], ids=["X blocked", "O blocked"])
def test_dead_once_both_sides_are_blocked(victim):
    """The other half: blocking the other side too makes the match dead, and `end` says why."""
    g = Game.replay(blocked_events(victim))
    for ev in ttt_game.until_dead(g):
        assert not g.match.dead()
        g.apply(ev)
    m = g.match
    assert not can_make_a_shape(m.marks, X) and not can_make_a_shape(m.marks, O)
    assert m.dead() and not m.over()
    m.end()
    assert m.reason == NO_SHAPE


# Keyed on the keypad through the real app: after each move, whether the box offers to end.
APP = """
import sys
import ttt_game
from box.app import App
from box.keys import code
from vpico.board import Board
from vpico.drive import Driver

b = Board(path=sys.argv[1])
app = App(b, strict=True)
d = Driver(app, b)
for k in "# 4 # #".split():  # New match, Try-Tac-Toe, Start
    d.press(code(k))
play = app.play
if app.screen is not play:
    print("not on the play screen")
    sys.exit(1)


def key(evs, what):
    for ev in evs:
        for k in ttt_game.keypad_keys(ev):
            d.press(code(k))
        print(what, ev, "offer" if play.offer else "-")


key(%r, "blocked")
key(ttt_game.until_dead(app.session.match), "dead")
print("dead" if app.session.match.match.dead() else "not dead")
"""


@pytest.mark.micropython
@pytest.mark.parametrize("victim", [X, O], ids=["X blocked", "O blocked"])
def test_the_box_offers_to_end_only_when_both_sides_are_blocked(tmp_path, victim):
    script = tmp_path / "dead.py"
    script.write_text(APP % (blocked_events(victim),))
    r = mpy.run([str(script), str(tmp_path / "flash.img")], heapsize="2m")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert lines[-1] == "dead"
    moves = lines[:-1]
    blocked = [x for x in moves if x.startswith("blocked ")]
    assert len(blocked) == len(blocked_events(victim))
    assert all(x.endswith(" -") for x in blocked), "the box offered to end with one side still able to score"
    # Then the other side is blocked too: the box offers at the move that makes the match dead.
    assert [x.endswith(" offer") for x in moves] == [False] * (len(moves) - 1) + [True]
