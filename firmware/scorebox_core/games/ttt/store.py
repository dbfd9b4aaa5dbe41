"""What the PC's store keeps of a Try-Tac-Toe game (docs/reports.md): the surface's STORE
(scorebox_core/games/ttt/game.py). Its moves stay in the match's log (no games, turns or arrows
rows: those are Tic Tac BOW's); the PC only (never imported on the box)."""

from scorebox_core.games.ttt.rules import MISS, SIDES, side_name
from scorebox_core.match import effective


def rows(game):
    """(its sides' letters X and O, the match row's result columns: the game's winner (X, O
    or draw, TTT-6), the matches each side won, the drawn ones, finished; no games rows)."""
    scores = [(m.score(0), m.score(1)) for m in game.matches if m.over()]
    result = (
        side_name(game.winner()),
        sum(x > o for x, o in scores),
        sum(o > x for x, o in scores),
        sum(x == o for x, o in scores),
        1 if game.over() else 0,
    )
    return SIDES, result, []


def shots(log):
    """What `scorebox matches` counts for it (its surface's SHOTS, moves): the marks and
    misses in effect."""
    return sum(1 for e in effective(log) if e <= MISS)
