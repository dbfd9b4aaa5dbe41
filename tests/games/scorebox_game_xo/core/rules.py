"""Noughts and Crosses shot with one arrow a turn, as a fold over events (the games' shared
words: scorebox_core/sides.py). Pure: the box scores with it, the PC replays with it.

X shoots first, then the sides take turns; each turn is one arrow, one event:

    1-9   the square the arrow hit: marked for the shooter if empty, else nothing
    MISS  an arrow off the squares: marks nothing
    UNDO  takes the last event in effect back (sides.UNDO)

Three marks in a row win; nine marked squares and no row is a draw. Events below 256 are
one byte in the journal, as the built-in games' shots are.
"""

from scorebox_core.sides import DRAW, UNDO, Refused, fold_all, fold_in, rotation  # noqa: F401 (callers take them here)
from scorebox_core.sides import side_name as _side_name

GAME = "noughts"
SIDES = "XO"
MISS = 128
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def token(ev):
    """How a match script writes event ev."""
    if 1 <= ev <= 9:
        return str(ev)
    return {MISS: "-", UNDO: "undo"}.get(ev, "?%d" % ev)


def side_name(side):
    return _side_name(side, SIDES)


class Options:
    """No options: the header keeps an empty dict, as every game's header keeps its own."""

    def set(self, name, text):
        raise ValueError("unknown option %r: Noughts and Crosses has none" % name)

    def to_dict(self):
        return {}

    @classmethod
    def from_dict(cls, d):
        o = cls()
        for name in d:
            o.set(name, str(d[name]))
        return o


class Game:
    """One game. `log` keeps every event keyed, undos included; `events` those in effect.
    A square is its first hit's in effect: so undo unmarks it when no hit before is left."""

    GAME = GAME

    def __init__(self, opts=None, archers=None):
        self.opts = opts or Options()
        self.archers = archers or (("X",), ("O",))
        self.log = []
        self.events = []
        self.skipped = []  # positions of events a lenient replay left out
        self.marks = bytearray(9)  # 0 empty, 1 X, 2 O

    @classmethod
    def replay(cls, events, opts=None, archers=None, lenient=False):
        return fold_all(cls(opts, archers), events, lenient, token)

    def line(self):
        """The row of three one side holds, or None."""
        m = self.marks
        for a, b, c in LINES:
            if m[a] and m[a] == m[b] == m[c]:
                return (a, b, c)
        return None

    def winner(self):
        """X, O, DRAW once over, else None."""
        won = self.line()
        if won:
            return self.marks[won[0]] - 1
        return DRAW if all(self.marks) else None

    def over(self):
        return self.winner() is not None

    def mover(self):
        """The side to shoot now (X first, then in turn), None once over."""
        return None if self.over() else len(self.events) % 2

    def archer_index(self, side):
        """Which of side's archers shoots its next turn (a fixed order, as TTB-2)."""
        return rotation((len(self.events) + 1 - side) // 2, len(self.archers[side]))

    def archer(self):
        side = self.mover()
        return None if side is None else self.archers[side][self.archer_index(side)]

    def score(self):
        """The squares each side marked."""
        x = sum(1 for m in self.marks if m == 1)
        return [x, sum(1 for m in self.marks if m) - x]

    def why_not(self, ev):
        """Why event ev is refused now (a sentence for the screen), or None."""
        if ev == UNDO:
            return None if self.events else "nothing to undo"
        if not (1 <= ev <= 9 or ev == MISS):
            return "unknown event %d" % ev
        return "the game is over" if self.over() else None

    def apply(self, ev):
        fold_in(self, ev)

    def _step(self, ev):  # ev is in self.events already (sides._keep)
        if ev != MISS and not self.marks[ev - 1]:
            self.marks[ev - 1] = (len(self.events) - 1) % 2 + 1

    def _undo(self):
        ev = self.events.pop()
        if ev != MISS and ev not in self.events:  # this arrow marked it
            self.marks[ev - 1] = 0


# --- what the surface's RULES names ----------------------------------------------------------
def options(d=None):
    return Options() if d is None else Options.from_dict(d)


def replay(events, opts=None, archers=None, face=None, lenient=False):
    """The Game folded from events (no paper face to wear: face unused)."""
    return Game.replay(events, opts, archers, lenient)


def result(game):
    """The result record the journal keeps when a game is closed."""
    return {"winner": side_name(game.winner()), "squares": game.score(), "arrows": len(game.events)}


def finished(store, game):
    """A game closed on the box: nothing kept beyond its journal."""
