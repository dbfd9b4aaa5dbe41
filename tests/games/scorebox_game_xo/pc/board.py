"""The board as text for a terminal: `scorebox replay` and `scorebox show`."""

from scorebox_core.match import result_text
from scorebox_game_xo.core.rules import SIDES, side_name


def draw(game):
    """Three rows, a square as its number while empty, X or O once marked."""
    cells = [SIDES[m - 1] if m else str(i + 1) for i, m in enumerate(game.marks)]
    return "\n".join(" %s | %s | %s" % tuple(cells[r : r + 3]) for r in (0, 3, 6))


def status(game):
    x, o = game.score()
    side = game.mover()
    now = "Next: %s (%s)" % (SIDES[side], game.archer()) if side is not None else "Game over"
    return "%s - squares X %d - O %d - %s" % (now, x, o, result_text(side_name(game.winner())))


def replay_text(game):
    return draw(game) + "\n" + status(game)
