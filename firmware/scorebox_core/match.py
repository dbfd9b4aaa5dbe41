"""What box and PC both say about a match, written once: the header the journal keeps and
how it is read back, the result record and its text, and the events in effect once the
undos are folded (TTB-15). The archers' rotation (TTB-2) is the rules' own (rules.rotation).

Pure, like the rules it builds on: the box's screens and the PC's store, sync and reports
all read a match through these functions, so they cannot read it differently.
"""

from scorebox_core.ttb.rules import DRAW, SIDES, UNDO, Face, Options, side_name


def header(opts, archers, dist, unit, shaft, face):
    """The match header recorded in the journal (TTB-17: distances and shafts)."""
    return {
        "options": opts.to_dict(),
        "archers": [list(archers[0]), list(archers[1])],
        "distance": list(dist),
        "unit": unit,
        "shaft_mm": [shaft[0] / 10, shaft[1] / 10],
        "face": {"games": face.games, "arrows": list(face.arrows)},
    }


def from_header(h):
    """(opts, archers, face) of a header written by header(). Where a header lacks them:
    sides named A and B, a fresh face. KeyError, TypeError, ValueError or IndexError when it
    cannot be read."""
    opts = Options.from_dict(h["options"])
    names = h.get("archers") or [["A"], ["B"]]
    archers = (tuple(names[0]) or ("A",), tuple(names[1]) or ("B",))
    f = h.get("face")
    if not isinstance(f, dict):
        f = {}
    return opts, archers, Face(f.get("games", 0), f.get("arrows"))


def result(match):
    """The result record the journal keeps when a match is closed."""
    games = []
    for g in match.games:
        games.append({"winner": side_name(g.winner), "reason": g.reason, "arrows": len(g.arrows)})
    return {
        "winner": side_name(match.result()),
        "wins": [match.wins[0], match.wins[1]],
        "draws": match.draws,
        "games": games,
    }


def result_text(winner, wins=None, reason=None):
    """A result in a few words: 'A wins', 'draw' or 'open' (not decided yet), then the games
    won when given ('A wins 2-1') and the reason when given ('A wins (line)'). winner: a
    side (A, B, DRAW), its name ('A', 'B', 'draw') or None."""
    if winner is None:
        text = "open"
    elif winner == DRAW or winner == "draw":
        text = "draw"
    else:
        text = "%s wins" % (winner if isinstance(winner, str) else SIDES[winner])
    if wins is not None:
        text += " %d-%d" % (wins[0], wins[1])
    if reason:
        text += " (%s)" % reason
    return text


def effective(log):
    """The events in effect of a log as keyed: each undo takes back the event before it
    (TTB-15), as Match.apply does, without replaying the rules."""
    out = []  # type: list
    for ev in log:
        if ev == UNDO:
            if out:
                out.pop()
        else:
            out.append(ev)
    return out
