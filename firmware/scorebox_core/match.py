"""What box and PC both say about a match, written once: the header the journal keeps and
how it is read back, the result record and its text, and the events in effect once the
undos are folded (TTB-15). The archers' rotation (TTB-2) is the rules' own (rules.rotation).

Pure, like the rules it builds on: the box's screens and the PC's store, sync and reports
all read a match through these functions, so they cannot read it differently.
"""

from scorebox_core.ttb.rules import DRAW, SIDES, UNDO, Face, Options, side_name

# The header's `game`: which rules its events follow. A header without one is Tic Tac BOW's
# (every header written before Try-Tac-Toe), and Tic Tac BOW's headers still omit it.
TICTACBOW = "tictacbow"
TRYTACTOE = "try-tac-toe"


def header(opts, archers, dist, unit, shaft, face, game=TICTACBOW):
    """The match header recorded in the journal (TTB-17: distances and shafts). For a
    Try-Tac-Toe game (opts its Options) the header also says `game`."""
    h = {
        "options": opts.to_dict(),
        "archers": [list(archers[0]), list(archers[1])],
        "distance": list(dist),
        "unit": unit,
        "shaft_mm": [shaft[0] / 10, shaft[1] / 10],
        "face": {"games": face.games, "arrows": list(face.arrows)},
    }
    if game != TICTACBOW:
        h["game"] = game
    return h


def game_of(h):
    """The game a header's events follow: TICTACBOW or TRYTACTOE; ValueError for another."""
    game = h.get("game", TICTACBOW)
    if game not in (TICTACBOW, TRYTACTOE):
        raise ValueError("unknown game %r" % (game,))
    return game


def from_header(h):
    """(opts, archers, face) of a header written by header(). Where a header lacks them:
    sides named A and B, a fresh face. KeyError, TypeError, ValueError or IndexError when it
    cannot be read. A Try-Tac-Toe header gives its own Options and sides named X and O."""
    if game_of(h) == TRYTACTOE:
        from scorebox_core.ttt.rules import Options as TttOptions  # loaded only for that game

        opts, sides = TttOptions.from_dict(h["options"]), "XO"
    else:
        opts, sides = Options.from_dict(h["options"]), "AB"
    names = h.get("archers") or [[sides[0]], [sides[1]]]
    archers = (tuple(names[0]) or (sides[0],), tuple(names[1]) or (sides[1],))
    f = h.get("face")
    if not isinstance(f, dict):
        f = {}
    return opts, archers, Face(f.get("games", 0), f.get("arrows"))


def result(match):
    """The result record the journal keeps when a match is closed. A Try-Tac-Toe game's
    holds its winner, game score and each match's score, reason and moves (TTT-6)."""
    if getattr(match, "GAME", TICTACBOW) == TRYTACTOE:
        matches = [
            {"score": [m.score(0), m.score(1)], "reason": m.reason, "moves": len(m.moves)} for m in match.matches
        ]
        w = match.winner()
        return {
            "winner": None if w is None else ("draw" if w == DRAW else "XO"[w]),
            "score": match.score(),
            "matches": matches,
        }
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
