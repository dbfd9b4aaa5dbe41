"""Tic Tac BOW's arrow events name a square 1-9 (TTB-4): a hit or a called shot on square
0 or 10-15 (the event's four square bits hold up to 15) is refused, squares 1 and 9 taken;
a called shot at an open square or at one's own is refused naming the square (TTB-9)."""

import pytest

from scorebox_core.games.ttb.rules import Match, Options, Refused, called, check_event, hit


@pytest.mark.parametrize("square", [0, 10, 11, 15])
@pytest.mark.parametrize("value", [0, 3])
def test_a_hit_outside_1_to_9_is_refused(square, value):
    assert check_event(hit(square, value)) == "square must be 1-9"
    with pytest.raises(Refused, match="square must be 1-9"):
        Match.replay([hit(square, value)])


@pytest.mark.parametrize("square", [1, 9])
@pytest.mark.parametrize("value", [0, 1, 2, 3])
def test_a_hit_on_squares_1_and_9_is_taken(square, value):
    assert check_event(hit(square, value)) is None
    assert Match.replay([hit(square, value)]).game.arrows == [hit(square, value)]


@pytest.mark.parametrize("square", [0, 10, 15])
def test_a_called_shot_outside_1_to_9_is_refused(square):
    for x_hit in (True, False):
        assert check_event(called(square, x_hit)) == "square must be 1-9"


def test_a_called_shot_on_squares_1_and_9_is_well_formed():
    assert [check_event(called(sq, x)) for sq in (1, 9) for x in (True, False)] == [None] * 4


@pytest.mark.parametrize("square", [1, 5, 9])
def test_a_called_shot_at_an_open_square_is_refused_naming_it(square):
    with pytest.raises(
        Refused, match="event 1 \\(%d:X\\): square %d is open: call a shot only at a square B owns" % (square, square)
    ):
        Match.replay([called(square, True)])


@pytest.mark.parametrize("square", [1, 5, 9])
def test_a_called_shot_at_a_square_of_ones_own_is_refused_naming_it(square):
    opts = Options()
    opts.set("claim", "1")
    with pytest.raises(Refused, match="event 2 \\(%d:X\\): square %d is already A's" % (square, square)):
        Match.replay([hit(square, 1), called(square, True)], opts)
