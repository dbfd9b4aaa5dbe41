"""What the PC's store keeps of a Noughts and Crosses game: its arrows stay in the match's
log (no games, turns or arrows rows). The PC only."""

from scorebox_core.match import effective
from scorebox_game_xo.core.rules import DRAW, SIDES, side_name


def rows(game):
    """(its sides' letters, the match row's result columns: winner, X's wins, O's wins,
    draws, finished; no games rows)."""
    w = game.winner()
    return SIDES, (side_name(w), int(w == 0), int(w == 1), int(w == DRAW), int(w is not None)), []


def shots(log):
    """What `scorebox matches` counts (SHOTS, arrows): every event in effect is one arrow."""
    return len(effective(log))
