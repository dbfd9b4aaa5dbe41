"""Try-Tac-Toe rules (docs/rules.md, TTT-2 to TTT-6) as a fold over events, like ttb/rules.py.

Pure code: the box scores with it and the PC replays the box's events with it.

A game is two matches on the board of board.py; the journal keeps a game as one match
record of small-int events, stored as Tic Tac BOW's are (below 256: one byte):

    1-74        the side to move marks that triangle (TTT-2)
    MISS        a move that marks nothing (an arrow off the face or in a marked triangle)
    UNDO        takes back the last event in effect (sides.UNDO)
    NEXT_MATCH  starts match 2 once match 1 is over (sides.NEW_GAME)
    END         ends the match by agreement: a time limit, or both concede (TTT-5)

Sides, the undo event, Refused, apply's fold_in and replay's fold_all are the games' shared
words (scorebox_core/sides.py), so the box's session handles every game alike.
"""

from scorebox_core.games.ttt.board import COUNTS, FIRST, SHAPES, N, shape_of, through
from scorebox_core.sides import (
    DRAW,
    NEW_GAME,
    UNDO,
    Refused,  # noqa: F401 (this game's too: callers take it from here)
    fold_all,
    fold_in,
    rotation,
)
from scorebox_core.sides import FIRST as X
from scorebox_core.sides import SECOND as O  # noqa: E741 (the side is called O)
from scorebox_core.sides import side_name as _side_name

SIDES = "XO"
GAME = "try-tac-toe"  # the match header's `game` (scorebox_core/match.py)

MISS = 128
NEXT_MATCH = NEW_GAME
END = 259
MATCHES = 2  # TTT-6

# Why a match ended (TTT-5).
GRID_FULL = "grid full"
NO_SHAPE = "no shape possible"
AGREED = "agreed"
MOVE_LIMIT = "move limit"

_P = FIRST[-1]  # placements on the board, all shapes


def default_values(counts):
    """TTT-4: each shape is worth the commonest shape's placement count divided by its own,
    rounded half up (at least 1), so that every shape is worth about as much over the whole
    board and the rarest scores most. On this board (52, 156, 164) -> (3, 1, 1)."""
    top = max(counts)
    return tuple(max(1, (2 * top + c) // (2 * c)) for c in counts)


VALUES = default_values(COUNTS)


def check_event(ev):
    """Why ev is not a well-formed Try-Tac-Toe event, or None."""
    if 1 <= ev <= N or ev in (MISS, UNDO, NEXT_MATCH, END):
        return None
    return "unknown event %d" % ev


def token(ev):
    """How a match script writes event ev (docs/match-script.md)."""
    if 1 <= ev <= N:
        return str(ev)
    return {MISS: "-", UNDO: "undo", NEXT_MATCH: "match 2", END: "end"}.get(ev, "?%d" % ev)


def side_name(side):
    return _side_name(side, SIDES)


class Options:
    """Agreed before a game (docs/rules.md#options): each shape's value (TTT-4) and the
    move limit per match (TTT-5, 0 = none; misses count as moves)."""

    NAMES = SHAPES + ("moves",)
    _HIGH = {"triangle": 99, "bar": 99, "chevron": 99, "moves": 250}

    def __init__(self):
        self.values = list(VALUES)
        self.moves = 0

    def set(self, name, text):
        """Set one option from its text; ValueError says what is wrong."""
        high = self._HIGH.get(name)
        if high is None:
            raise ValueError("unknown option %r" % name)
        try:
            n = int(text)
        except ValueError:
            raise ValueError("%s must be a whole number, not %r" % (name, text))
        if not 0 <= n <= high:
            raise ValueError("%s must be 0-%d, not %d" % (name, high, n))
        if name == "moves":
            self.moves = n
        else:
            self.values[SHAPES.index(name)] = n

    def text(self, name):
        return str(self.to_dict()[name])

    def to_dict(self):
        d = {"moves": self.moves}
        for k in range(len(SHAPES)):
            d[SHAPES[k]] = self.values[k]
        return d

    @classmethod
    def from_dict(cls, d):
        o = cls()
        for name in d:
            o.set(name, str(d[name]))
        return o


class Match:
    """One match: the board filled move by move (TTT-2, TTT-3, TTT-5).

    Per placement it counts each side's marks, so a move only looks at the placements
    through its triangle: a placement completes when its fourth mark is the side's own, and
    a side can still make it while the other side has no mark in it."""

    def __init__(self, opts, first):
        self.opts = opts
        self.first = first  # TTT-6: X starts match 1, O match 2
        self.marks = bytearray(N)  # 0 empty, 1 X, 2 O
        self.count = (bytearray(_P), bytearray(_P))  # each side's marks per placement
        self.open = [_P, _P]  # placements each side can still complete
        self.tally = ([0, 0, 0], [0, 0, 0])  # shapes made per side, in SHAPES order
        self.moves = []  # this match's moves: triangle numbers and MISS
        self.made = []  # per move: the placements it completed (TTT-3), () for none
        self.marked = 0
        self.reason = None  # why the match ended, once over (TTT-5)

    def mover(self):
        """The side whose move it is (TTT-2: the sides alternate)."""
        return self.first if len(self.moves) % 2 == 0 else 1 - self.first

    def moves_of(self, side):
        """Moves side has made in this match."""
        n = len(self.moves)
        return (n + 1) // 2 if side == self.first else n // 2

    def over(self):
        return self.reason is not None

    def owner(self, i):
        """X, O or None for cell i (0-73)."""
        m = self.marks[i]
        return m - 1 if m else None

    def score(self, side):
        """TTT-6: the sum over shapes of tally x value."""
        v = self.opts.values
        t = self.tally[side]
        return t[0] * v[0] + t[1] * v[1] + t[2] * v[2]

    def possible(self, side):
        """How many placements side can still complete (TTT-5)."""
        return self.open[side]

    def dead(self):
        """TTT-5: no shape is possible for either side any more (the box offers to end)."""
        return self.open[X] == 0 and self.open[O] == 0

    def move(self, ev):
        """Apply a move (a triangle number or MISS) already checked by Game.why_not."""
        side = self.mover()
        made = ()
        if ev != MISS:
            made = self._mark(ev - 1, side)
        self.moves.append(ev)
        self.made.append(made)
        if self.marked == N:
            self.reason = GRID_FULL
        elif self.opts.moves and len(self.moves) >= self.opts.moves:
            self.reason = MOVE_LIMIT

    def take_back(self):
        """Undo the last move (TTT-2): unmark its triangle, counting its placements back, so
        it costs one move whatever the match's length. Only the last move can have ended the
        match (grid full, move limit)."""
        ev = self.moves.pop()
        self.made.pop()
        self.reason = None
        if ev == MISS:
            return
        i, side = ev - 1, self.mover()
        self.marks[i] = 0
        self.marked -= 1
        mine, theirs = self.count[side], self.count[1 - side]
        for p in through(i):
            n = mine[p] - 1
            mine[p] = n
            if n == 3 and theirs[p] == 0:  # the move completed it (_mark)
                self.open[side] += 1
                self.tally[side][shape_of(p)] -= 1
            elif n == 0:  # the move blocked the other side here
                self.open[1 - side] += 1

    def end(self):
        """TTT-5: ended by agreement; the reason says whether any shape was still possible."""
        self.reason = NO_SHAPE if self.dead() else AGREED

    def _mark(self, i, side):
        self.marks[i] = side + 1
        self.marked += 1
        mine, theirs = self.count[side], self.count[1 - side]
        made = None
        for p in through(i):
            n = mine[p]
            if n == 3 and theirs[p] == 0:  # TTT-3: the fourth triangle completes it, once
                self.open[side] -= 1
                self.tally[side][shape_of(p)] += 1
                made = [p] if made is None else made + [p]
            elif n == 0:  # TTT-5: the side's first mark here blocks the other side
                self.open[1 - side] -= 1
            mine[p] = n + 1
        return tuple(made) if made else ()


class Game:
    """A game of two matches (TTT-6) folded from events. `log` keeps every event keyed,
    undos included; `events` the ones in effect. Undo takes the last event in effect back
    by what it did (Match.take_back for a move), as Tic Tac BOW's does: a few steps, not a
    replay."""

    GAME = GAME

    def __init__(self, opts=None, archers=None):
        self.opts = opts or Options()
        self.archers = archers or (("X",), ("O",))  # team members in seating order (TTT-2)
        self.log = []
        self.events = []
        self.skipped = []  # positions of events a lenient replay left out
        self.matches = [Match(self.opts, X)]

    @classmethod
    def replay(cls, events, opts=None, archers=None, lenient=False):
        """Fold recorded events; Refused names the first one the rules reject. lenient:
        leave refused events out instead, their positions in g.skipped (as ttb's replay)."""
        return fold_all(cls(opts, archers), events, lenient, token)

    # --- what a screen or a report asks ------------------------------------------
    @property
    def match(self):
        """The match under way, or the last one played."""
        return self.matches[-1]

    def over(self):
        return len(self.matches) == MATCHES and self.match.over()

    def mover(self):
        """The side to move now, or None between matches and once the game is over."""
        return None if self.match.over() else self.match.mover()

    def archer_index(self, side):
        """Index in archers[side] of the member who makes side's next move (TTT-2). The
        members sit round the table X1, O1, X2, O2 and play goes round them: match 1 starts
        at X1, match 2 at O1, so in match 2 X's turns start at X2."""
        team = len(self.archers[side])
        m = self.match
        start = 1 if len(self.matches) == 2 and side == X else 0
        return rotation(m.moves_of(side) + start, team)

    def archer(self):
        """Name of the member to move now, or None."""
        side = self.mover()
        return None if side is None else self.archers[side][self.archer_index(side)]

    def score(self):
        """TTT-6: each side's game score, the sum of its match scores so far."""
        return [sum(m.score(X) for m in self.matches), sum(m.score(O) for m in self.matches)]

    def winner(self):
        """X, O or DRAW once both matches are over (TTT-6), else None."""
        if not self.over():
            return None
        x, o = self.score()
        return DRAW if x == o else (X if x > o else O)

    def why_not(self, ev):
        """Why event ev is refused now (a sentence for the screen), or None."""
        err = check_event(ev)
        if err:
            return err
        m = self.match
        if ev == UNDO:
            return None if self.events else "nothing to undo"
        if self.over():
            return "the game is over"
        if ev == NEXT_MATCH:
            return None if m.over() else "match %d is still on" % len(self.matches)
        if m.over():
            return "match 1 is over: start match 2"
        if ev == END or ev == MISS:
            return None
        owner = m.marks[ev - 1]
        if owner:
            return "triangle %d is %s's: a shot there marks nothing, key a miss" % (ev, SIDES[owner - 1])
        return None

    # --- the fold ----------------------------------------------------------------------
    def apply(self, ev):
        fold_in(self, ev)

    def _undo(self):
        ev = self.events.pop()
        if ev == NEXT_MATCH:  # back to match 1, as it ended
            self.matches.pop()
        elif ev == END:
            self.match.reason = None
        else:
            self.match.take_back()

    def _step(self, ev):
        if ev == NEXT_MATCH:
            self.matches.append(Match(self.opts, O))  # TTT-6: O starts match 2
        elif ev == END:
            self.match.end()
        else:
            self.match.move(ev)


# --- what the registry's surface names (scorebox_core/games/ttt/game.py RULES) -------------------
def options(d=None):
    """The Options: the defaults, or those a header's `options` dict says."""
    return Options() if d is None else Options.from_dict(d)


def replay(events, opts=None, archers=None, face=None, lenient=False):
    """The Game folded from events (its face is not worn like Tic Tac BOW's paper: unused)."""
    return Game.replay(events, opts, archers, lenient)


def result(game):
    """The result record the journal keeps when a game is closed: its winner, game score and
    each match's score, reason and moves (TTT-6)."""
    matches = [{"score": [m.score(0), m.score(1)], "reason": m.reason, "moves": len(m.moves)} for m in game.matches]
    return {"winner": side_name(game.winner()), "score": game.score(), "matches": matches}


def finished(store, game):
    """A game closed on the box: nothing to keep (the face's wear is Tic Tac BOW's)."""
