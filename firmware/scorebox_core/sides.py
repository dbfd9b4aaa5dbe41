"""The words every game shares (docs/rules.md): the two sides and a draw, the events that
are no shot (undo, the next game), a refusal, the fold of events with undo, and the
archers' rotation. Each game's rules (ttb/rules.py, ttt/rules.py) build on these, so the
box's session, the journal and the PC handle every game alike.

A game's event is a small int: below 256 its own shots or moves (one byte in the journal),
256 and up the events below and a game's own (Tic Tac BOW's NEW_FACE 258, Try-Tac-Toe's
END 259).
"""

FIRST = 0  # the side that starts (Tic Tac BOW's A, Try-Tac-Toe's X)
SECOND = 1
DRAW = 2

UNDO = 256  # takes back the last event in effect (TTB-15, TTT-2)
NEW_GAME = 257  # the next game of a match (TTB-14), Try-Tac-Toe's match 2 (TTT-6)


class Refused(Exception):
    """An event the rules do not allow now; str() says why, for the screen."""


class Face:
    """Wear of the paper face on the boss (TTB-16): games and arrows since it was put up.
    The box keeps it across matches and every match header records it."""

    def __init__(self, games=0, arrows=None):
        self.games = games
        self.arrows = list(arrows) if arrows else [0] * 9

    def worn(self, opts):
        return self.games >= opts.face_games


def side_name(side, letters):
    """How a result writes side: its letter from letters ('AB', 'XO'), 'draw', or None."""
    if side is None:
        return None
    return "draw" if side == DRAW else letters[side]


def rotation(done, team):
    """TTB-2, TTT-2: which of a side's `team` archers shoots its next turn once the side has
    shot `done` turns in the match: a fixed order through the whole match."""
    return done % team


def fold_in(m, ev):
    """apply() of every game's match: check ev (m.why_not), then keep it (_keep)."""
    reason = m.why_not(ev)
    if reason:
        raise Refused(reason)
    _keep(m, ev)


def _keep(m, ev):
    """Keep checked event ev in m.log, then fold it in (m._step) or take the last event in
    effect back (m._undo: in a few steps, whatever the match's length)."""
    m.log.append(ev)
    if ev == UNDO:
        m._undo()
    else:
        m.events.append(ev)
        m._step(ev)


def fold_all(m, events, lenient, token):
    """replay() of every game: fold events into m, each checked once. Refused names the first
    event the rules reject (token(ev) writes it as a script would); lenient: leave refused
    events out instead, their positions in m.skipped."""
    for i in range(len(events)):
        ev = events[i]
        reason = m.why_not(ev)
        if reason is None:
            _keep(m, ev)
        elif lenient:
            m.skipped.append(i)
        else:
            raise Refused("event %d (%s): %s" % (i + 1, token(ev), reason))
    return m
