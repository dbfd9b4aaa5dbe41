"""History's view of a Noughts and Crosses game (box/history.py loads it for one). A closed
game is told by its result record; only an open one is folded by its rules, so that the menus
do without them."""

from scorebox_core.match import from_header


def _fold(h, events):
    from scorebox_game_xo.core.rules import Game, result

    opts, archers, _ = from_header(h)
    return result(Game.replay(events, opts, archers, lenient=True)), archers


def open_result(h, events):
    """(the result record the game would have now, its archers)."""
    return _fold(h, events)


def lines(h, events, extras, result_line):
    """Archers, result, each side's squares and the arrows shot."""
    r = extras.get("result") if isinstance(extras, dict) else None
    archers = h.get("archers") or (("X",), ("O",))
    if not r:
        r, archers = _fold(h, events)
    out = ["X " + ",".join(archers[0]), "O " + ",".join(archers[1]), result_line]
    return out + ["squares %d-%d" % tuple(r["squares"]), "arrows %d" % r["arrows"]]
