"""A stored game arrow by arrow: `scorebox show`, and what the report and the figures walk."""

from scorebox.text import date_text, printable
from scorebox_core.match import from_header
from scorebox_game_xo.core.rules import MISS, SIDES, Game, token
from scorebox_game_xo.pc import board


def replay(header, log):
    """The game from its log, lenient as the store took it."""
    opts, archers, _ = from_header(header)
    return Game.replay(log, opts, archers, lenient=True)


def arrows(header, log):
    """Yield (game after it, arrow) for each arrow in effect: n, side, player, event, marked."""
    done = replay(header, log)
    g = Game(done.opts, done.archers)
    for ev in done.events:
        side, player = g.mover(), g.archer()
        was = bytes(g.marks)
        g.apply(ev)
        yield g, {"n": len(g.events), "side": side, "player": player, "event": ev, "marked": was != g.marks}


def _said(a):
    if a["event"] == MISS:
        return "miss"
    return "marks %d" % a["event"] if a["marked"] else "%d, marked already" % a["event"]


def show_lines(match, h):
    opts, archers, _ = from_header(h)
    archers = [", ".join(printable(n) for n in side) for side in archers]
    out = [
        "Game %s (store id %d), %s" % (match["key"], match["id"], date_text(match["started"])),
        "X: %s   O: %s" % tuple(archers),
        "Noughts and Crosses, one arrow a turn",
        "",
    ]
    for _, a in arrows(h, match["log"]):
        out.append("%3d. %s (%s): %s" % (a["n"], SIDES[a["side"]], printable(a["player"]), _said(a)))
    g = replay(h, match["log"])
    return out + ["", board.draw(g), board.status(g), "events: " + " ".join(token(e) for e in match["log"])]
