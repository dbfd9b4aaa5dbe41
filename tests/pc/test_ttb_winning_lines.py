"""Tic Tac BOW's winning lines (TTB-10, docs/rules.md): the three rows, the three columns
and the two diagonals of the 3x3 board, each on its own, and no other three squares. Each
of the 84 sets of three squares is claimed by one side in one turn (claim 1, a point a
square), the other side misses; the game is won at the round's end exactly when the three
are a line, for either side."""

from itertools import combinations

import pytest

from scorebox_core.games.ttb.rules import LINE_WON, A, B, Match, Options, hit, miss

# squares 1-9 as the face numbers them: 1 2 3 / 4 5 6 / 7 8 9
LINES = {(1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7)}


def claimed(side, squares):
    opts = Options()
    opts.set("claim", "1")
    three = [hit(sq, 1) for sq in squares]
    events = three + [miss()] * 3 if side == A else [miss()] * 3 + three
    return Match.replay(events, opts).game


@pytest.mark.parametrize("side", [A, B])
@pytest.mark.parametrize("squares", list(combinations(range(1, 10), 3)))
def test_three_squares_win_exactly_when_they_are_a_line(side, squares):
    g = claimed(side, squares)
    assert [g.owner[sq - 1] for sq in squares] == [side] * 3
    if squares in LINES:
        assert (g.winner, g.reason) == (side, LINE_WON)
        assert [tuple(i + 1 for i in line) for line in g.lines_of(side)] == [squares]
        assert g.owns_line(side) and not g.owns_line(1 - side)
    else:
        assert g.winner is None and g.lines_of(side) == [] and not g.owns_line(side)
