"""Try-Tac-Toe's rules core (firmware/scorebox_core/games/ttt/rules.py) on CPython, where `make
mutate` found behaviour no CPython test pinned (issue 21, item 16): each shape's tally
counted at its own value in a match's score (TTT-6) and each option's range at its bounds
(TTT-4, TTT-5; docs/rules.md#try-tac-toe)."""

import pytest

from scorebox_core.games.ttt.board import FIRST, SHAPES, N, placement
from scorebox_core.games.ttt.rules import (
    END,
    MISS,
    MOVE_LIMIT,
    NEXT_MATCH,
    UNDO,
    Game,
    Options,
    X,
    check_event,
    result,
    token,
)


def _made_by_x(shape):
    """Events in which X marks the 4 triangles of the first placement of SHAPES[shape] while
    O marks 3 triangles outside it, so that X makes that one shape and nothing else."""
    cells = placement(FIRST[shape])
    others = [i for i in range(N) if i not in cells][:3]
    events = []
    for k in range(4):
        events.append(cells[k] + 1)
        if k < 3:
            events.append(others[k] + 1)
    return events


@pytest.mark.parametrize("shape", range(len(SHAPES)))
def test_a_match_score_counts_each_shape_at_its_own_value(shape):
    """TTT-6: a match's score is, per shape, the times made times its value (TTT-4): with
    values 1, 10 and 90 a single shape of each kind scores its own value only."""
    opts = Options.from_dict({"triangle": 1, "bar": 10, "chevron": 90})
    g = Game.replay(_made_by_x(shape), opts)
    m = g.match
    assert m.tally[X] == [1 if k == shape else 0 for k in range(len(SHAPES))]
    want = (1, 10, 90)[shape]
    assert m.score(X) == want and m.score(1 - X) == 0
    assert g.score() == [want, 0] and result(g)["score"] == [want, 0]


# docs/rules.md#try-tac-toe: each shape's value 0-99 (TTT-4), moves 0-250 (TTT-5).
RANGES = {"triangle": 99, "bar": 99, "chevron": 99, "moves": 250}


@pytest.mark.parametrize("name", sorted(RANGES))
def test_each_option_takes_its_range_and_refuses_past_it(name):
    high = RANGES[name]
    for n in (0, high):
        o = Options()
        o.set(name, str(n))
        assert o.to_dict()[name] == n and o.text(name) == str(n)
        assert Options.from_dict(o.to_dict()).to_dict() == o.to_dict()
    for n in (-1, high + 1):
        with pytest.raises(ValueError, match="%s must be 0-%d, not %d" % (name, high, n)):
            Options().set(name, str(n))
    with pytest.raises(ValueError, match="must be a whole number"):
        Options().set(name, "three")


def test_an_unknown_option_is_named():
    with pytest.raises(ValueError, match="unknown option 'values'"):
        Options().set("values", "3")


def test_the_move_limit_ends_a_match_at_that_move_misses_included():
    """TTT-5: the box ends the match once the agreed moves are played (misses count)."""
    o = Options()
    o.set("moves", "3")
    g = Game(o)
    for ev in (MISS, 1):
        g.apply(ev)
        assert not g.match.over()
    g.apply(MISS)
    assert g.match.reason == MOVE_LIMIT and len(g.match.moves) == 3


def test_tokens_are_the_scripts_and_a_miss_is_recorded_as_128():
    """docs/match-script.md: each event as a script writes it; the journal keeps a miss as
    128 (the module's event table), so a match recorded before still replays."""
    assert [token(e) for e in (1, 74, MISS, UNDO, NEXT_MATCH, END, 300)] == [
        "1",
        "74",
        "-",
        "undo",
        "match 2",
        "end",
        "?300",
    ]
    m = Game.replay([5, 128, 128]).match
    assert m.moves == [5, MISS, MISS] and m.marked == 1 and check_event(127) == "unknown event 127"
