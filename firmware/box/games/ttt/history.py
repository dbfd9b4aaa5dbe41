"""History's view of a Try-Tac-Toe game (box/history.py loads this only for one): its lines
in detail, and the result of a game still open. A closed game's result record is read as
it is; only an open game is folded by the rules (their board tables load with them)."""

from box.ui import num
from scorebox_core.match import from_header


def _fold(h, events):
    from scorebox_core.games.ttt.rules import Game

    opts, archers, _ = from_header(h)
    return Game.replay(events, opts, archers, lenient=True), archers


def open_result(h, events):
    """(the result record the game would have now, its archers)."""
    from scorebox_core.games.ttt.rules import result

    g, archers = _fold(h, events)
    return result(g), archers


def lines(h, events, extras, result_line):
    """Archers, result, each match's score and end (TTT-6), the options and events."""
    archers = h.get("archers") or (("X",), ("O",))
    r = extras.get("result") if isinstance(extras, dict) else None
    if r:
        matches = [(m["score"][0], m["score"][1], m["reason"]) for m in r["matches"]]
    else:
        g, archers = _fold(h, events)
        matches = [(m.score(0), m.score(1), m.reason or "open") for m in g.matches]
    out = ["X " + ",".join(archers[0]), "O " + ",".join(archers[1]), result_line]
    for i in range(len(matches)):
        out.append("m%d %d-%d %s" % (i + 1, matches[i][0], matches[i][1], matches[i][2]))
    o = h.get("options", {})
    out.append("values %s/%s/%s" % (o.get("triangle", "-"), o.get("bar", "-"), o.get("chevron", "-")))
    if o.get("moves"):
        out.append("moves %d" % o["moves"])
    out.append("events " + num(len(events)))
    return out
