"""History's view of a Noughts and Crosses game (box/history.py loads it for one): the
archers, the result and the board as the journal has them."""

from scorebox_core.match import from_header


def _fold(h, events):
    from scorebox_game_xo.core.rules import Game

    opts, archers, _ = from_header(h)
    return Game.replay(events, opts, archers, lenient=True), archers


def open_result(h, events):
    """(the result record the game would have now, its archers)."""
    from scorebox_game_xo.core.rules import result

    g, archers = _fold(h, events)
    return result(g), archers


def lines(h, events, extras, result_line):
    g, archers = _fold(h, events)
    rows = ["".join(".XO"[m] for m in g.marks[r : r + 3]) for r in (0, 3, 6)]
    return (
        ["X " + ",".join(archers[0]), "O " + ",".join(archers[1]), result_line] + rows + ["arrows %d" % len(g.events)]
    )
