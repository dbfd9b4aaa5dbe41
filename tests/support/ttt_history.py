"""Whole Try-Tac-Toe games as a box keys them, for the PC's tests (store, sync, report):
random moves, misses and undos dealt by tests/support/ttt_game.py's LCG, the same on
every run."""

from ttt_game import Rand, pick

from scorebox_core.games.ttb.rules import Face
from scorebox_core.games.ttt.rules import GAME, NEXT_MATCH, UNDO, Game, Options
from scorebox_core.match import header


def full_game(seed=3, players=(("Ann", "Cy"), ("Bo",))):
    """A whole two-match game (TTT-6) played to a full grid in each match (TTT-5)."""
    g = Game(Options(), players)
    rnd = Rand(seed)
    while not g.over():
        if g.match.over():
            g.apply(NEXT_MATCH)  # TTT-6: O starts match 2
        elif g.events and g.events[-1] != NEXT_MATCH and rnd.below(30) == 0:
            g.apply(UNDO)
        else:
            g.apply(pick(g.match, rnd))
    return g


def ttt_header(g, clock=None):
    """The header the box journals for game g."""
    h = header(g.opts, g.archers, (18, 18), "m", (70, 70), Face(), game=GAME)
    if clock is not None:
        h["clock"] = clock
    return h
