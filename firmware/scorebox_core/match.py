"""What box and PC both say about a match, written once: the header the journal keeps and
how it is read back, the result record and its text, and the events in effect once the
undos are folded (TTB-15), for every game: each asks the registry (scorebox_core/games)
for the game's own parts. The words the games share are in sides.py.

Pure, like the rules it builds on: the box's screens and the PC's store, sync and reports
all read a match through these functions, so they cannot read it differently.
"""

from scorebox_core import games
from scorebox_core.sides import DRAW, UNDO, Face


def header(opts, archers, dist, unit, shaft, face, game=None):
    """The match header recorded in the journal (TTB-17: distances and shafts). game: the
    header's `game` (scorebox_core/games), left out for the registry's first game (its
    headers never had one); opts that game's Options; face the paper face's wear (a Face)."""
    h = {
        "options": opts.to_dict(),
        "archers": [list(archers[0]), list(archers[1])],
        "distance": list(dist),
        "unit": unit,
        "shaft_mm": [shaft[0] / 10, shaft[1] / 10],
        "face": {"games": face.games, "arrows": list(face.arrows)},
    }
    if game is not None and game != games.GAMES[0][0]:
        h["game"] = game
    return h


def game_of(h):
    """The game a header's events follow: its id; ValueError for a game the registry does
    not know."""
    return games.of(h).ID


def from_header(h):
    """(opts, archers, face) of a header written by header(), its options read by its game's
    Options. Where a header lacks them: sides named by the game's letters (A and B, X and O),
    a fresh face. KeyError, TypeError, ValueError or IndexError when it cannot be read."""
    opts = games.part(games.of(h), "RULES").options(h["options"])
    archers = archers_of(h)
    f = h.get("face")
    if not isinstance(f, dict):
        f = {}
    return opts, archers, Face(f.get("games", 0), f.get("arrows"))


def archers_of(h):
    """The two sides' archers a header names (without reading its options: no rules load);
    a side not named is its game's letter."""
    sides = games.of(h).SIDES
    names = h.get("archers") or [[sides[0]], [sides[1]]]
    return (tuple(names[0]) or (sides[0],), tuple(names[1]) or (sides[1],))


def result(match):
    """The result record the journal keeps when a match is closed, made by the match's game
    (match.GAME: its id)."""
    return games.part(games.get(match.GAME), "RULES").result(match)


def result_text(winner, wins=None, reason=None):
    """A result in a few words: 'A wins', 'draw' or 'open' (not decided yet), then the games
    won when given ('A wins 2-1') and the reason when given ('A wins (line)'). winner: a
    side's name ('A', 'X', an archer's), DRAW or 'draw', or None."""
    if winner is None:
        text = "open"
    elif winner == DRAW or winner == "draw":
        text = "draw"
    else:
        text = "%s wins" % winner
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
