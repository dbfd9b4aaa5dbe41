"""History's view of a Tic Tac BOW match (box/history.py loads this only for one): its lines
in detail, and the result of a match still open (its rules fold it)."""

from box.ui import num
from scorebox_core.games.ttb.rules import Match, result, side_name
from scorebox_core.match import from_header


def open_result(h, events):
    """(the result record the match would have now, its archers)."""
    opts, archers, face = from_header(h)
    return result(Match.replay(events, opts, archers, face)), archers


def lines(h, events, extras, result_line):
    """Archers, result, each game's winner and end, the options, distances, shafts, events."""
    opts, archers, face = from_header(h)
    m = Match.replay(events, opts, archers, face)
    out = ["A " + ",".join(archers[0]), "B " + ",".join(archers[1]), result_line]
    for i in range(len(m.games)):
        g = m.games[i]
        out.append("g%d %s %s" % (i + 1, side_name(g.winner) or "open", g.reason or ""))
    out.append("%s, claim %d" % (opts.mode, opts.claim_a))
    d = h.get("distance")
    if d:
        out.append("dist %d/%d %s" % (d[0], d[1], h.get("unit", "")))
    s = h.get("shaft_mm")
    if s:
        out.append("shaft %s/%s" % (s[0], s[1]))
    out.append("events " + num(len(events)))
    return out
