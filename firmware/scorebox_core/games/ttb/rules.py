"""Tic Tac BOW rules (docs/rules.md, TTB-1 to TTB-16) as a fold over events.

Pure code: no I/O, nothing MicroPython lacks. The Pico runs it to score a match and
the PC replays the box's events with it, so the two cannot disagree.

An event is a small int, so a match is a list of ints (no heap object per arrow on
MicroPython) and the journal can store an arrow in one byte:

    arrow:  kind << 6 | square << 2 | value      (always < 256)
    other:  UNDO, NEW_GAME, NEW_FACE              (256 and up)
"""

from scorebox_core.sides import (  # the words both games share (callers may take them from here)
    DRAW,
    NEW_GAME,
    UNDO,
    Face,
    Refused,  # noqa: F401 (callers take it from here)
    fold_all,
    fold_in,
    rotation,
)
from scorebox_core.sides import FIRST as A
from scorebox_core.sides import SECOND as B
from scorebox_core.sides import side_name as _side_name

SIDES = "AB"

NET = "net"
HARD5 = "hard5"

# Arrow kinds (TTB-4).
HIT = 0
MISS = 1
CALLED = 2

NEW_FACE = 258

# What an applied arrow did, kept beside each arrow for screens and statistics.
SCORED = 0  # counted in an open square
CLAIMED = 1  # reached the claim: the square is taken (TTB-7)
DEAD = 2  # hit a claimed square: scores 0 (TTB-7)
MISSED = 3  # off the face
FLIPPED = 4  # called shot hit the X: the square changes owner (TTB-8)
FLIP_MISSED = 5  # called shot missed the X
OUTCOMES = ("scored", "claimed", "dead", "missed", "flipped", "flip missed")

# TTB-10: the 8 lines, as square indices 0-8.
LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)

LINE_WON = "line"
DEAD_BOARD = "dead board"
ROUND_LIMIT = "round limit"


def hit(square, value):
    return square << 2 | value


def miss():
    return MISS << 6


def called(square, x_hit):
    return CALLED << 6 | square << 2 | (1 if x_hit else 0)


def square_of(ev):
    return ev >> 2 & 15


def check_event(ev):
    """Why ev is not a well-formed event, or None (TTB-4)."""
    if ev in (UNDO, NEW_GAME, NEW_FACE):
        return None
    if not 0 <= ev < 256:
        return "unknown event %d" % ev
    k, sq = ev >> 6, ev >> 2 & 15
    if k == MISS:
        return None if ev == MISS << 6 else "a miss has no square or value"
    if k == HIT:
        return None if 1 <= sq <= 9 else "square must be 1-9"
    if k == CALLED:
        if not 1 <= sq <= 9:
            return "square must be 1-9"
        return None if ev & 3 < 2 else "a called shot hits or misses the X"
    return "unknown arrow kind"


def token(ev):
    """The match-script token for an event (docs/match-script.md)."""
    if ev == UNDO:
        return "U"
    if ev == NEW_GAME:
        return "new game"
    if ev == NEW_FACE:
        return "new face"
    k = ev >> 6
    if k == MISS:
        return "M"
    sq = ev >> 2 & 15
    if k == CALLED:
        return "%d:%s" % (sq, "X" if ev & 1 else "-")
    return "%d:%d" % (sq, ev & 3)


def _int_in(name, text, low, high):
    try:
        n = int(text)
    except ValueError:
        raise ValueError("%s must be a whole number, not %r" % (name, text))
    if not low <= n <= high:
        raise ValueError("%s must be %d-%d, not %d" % (name, low, high, n))
    return n


class Options:
    """The options agreed before a match (docs/rules.md#options), with their defaults."""

    NAMES = (
        "mode",
        "claim_a",
        "claim_b",
        "arrows_a",
        "arrows_b",
        "flips",
        "equal_turns",
        "rounds",
        "games",
        "face_games",
    )
    # name: (low, high) for the whole-number options.
    _RANGES = {
        "claim_a": (1, 99),
        "claim_b": (1, 99),
        "arrows_a": (1, 9),
        "arrows_b": (1, 9),
        "flips": (0, 9),
        "rounds": (0, 99),
        "games": (1, 9),
        "face_games": (1, 99),
    }

    def __init__(self):
        self.mode = NET  # TTB-5
        self.claim_a = 5  # TTB-6
        self.claim_b = 5
        self.arrows_a = 3  # TTB-3
        self.arrows_b = 3
        self.flips = 1  # TTB-8
        self.equal_turns = True  # TTB-11
        self.rounds = 0  # TTB-13, 0 = no limit
        self.games = 1  # TTB-14
        self.face_games = 4  # TTB-16

    def set(self, name, text):
        """Set one option from its text form; ValueError says what is wrong."""
        if name == "mode":
            if text not in (NET, HARD5):
                raise ValueError("mode must be net or hard5, not %r" % text)
            self.mode = text
        elif name == "equal_turns":
            if text not in ("on", "off"):
                raise ValueError("equal_turns must be on or off, not %r" % text)
            self.equal_turns = text == "on"
        elif name in ("claim", "arrows"):
            self.set(name + "_a", text)
            self.set(name + "_b", text)
        elif name in self._RANGES:
            low, high = self._RANGES[name]
            n = _int_in(name, text, low, high)
            if name == "games" and n % 2 == 0:
                raise ValueError("games must be odd (1, 3, 5 ...), not %d" % n)
            setattr(self, name, n)
        else:
            raise ValueError("unknown option %r" % name)

    def text(self, name):
        v = getattr(self, name)
        if name == "equal_turns":
            return "on" if v else "off"
        return str(v)

    def to_dict(self):
        return {name: getattr(self, name) for name in self.NAMES}

    @classmethod
    def from_dict(cls, d):
        o = cls()
        for name in d:
            v = d[name]
            o.set(name, ("on" if v else "off") if name == "equal_turns" else str(v))
        return o

    def claim(self, side):
        return self.claim_b if side else self.claim_a

    def arrows(self, side):
        return self.arrows_b if side else self.arrows_a


class Game:
    """One game of a match: the board and the turn, folded arrow by arrow."""

    def __init__(self, opts, first):
        self.opts = opts
        self.first = first  # TTB-2
        self.owner = [None] * 9  # type: list  # None or the owning side, per square
        self.flips = [0] * 9  # flips done per square (TTB-8)
        self.total = [0] * 18  # open-square points, index 2 * square + side
        self.turn = 0  # turns completed
        self.in_turn = 0  # arrows shot in the turn under way
        self.arrows = []  # the arrow events of this game, in order
        self.outcomes = []  # what each arrow did (SCORED ... FLIP_MISSED)
        self.winner = None  # A, B or DRAW once the game is over
        self.reason = None  # LINE_WON, DEAD_BOARD or ROUND_LIMIT
        self.held = [0] * 18  # the points a claim cleared from its square (as total), for undo
        # Kept up to date as owners change, so that a turn's end need not look at every
        # line: whether each side owns a line (TTB-10), and whether any owner changed
        # since the board was last found able to produce a line (TTB-12).
        self.lines = [False, False]
        self.changed = False

    # --- what a screen or a report asks ------------------------------------------
    def shooter(self):
        """The side shooting the turn under way or next (TTB-3)."""
        return self.first if self.turn % 2 == 0 else 1 - self.first

    def round(self):
        """The round under way (1-based)."""
        return self.turn // 2 + 1

    def rounds_played(self):
        """Rounds begun so far, counting one cut short when a game ends mid-turn."""
        started = self.turn + (1 if self.in_turn else 0)
        return (started + 1) // 2

    def turns_done(self, side):
        """Turns this side has completed in this game."""
        return (self.turn + (side == self.first)) // 2

    def balance(self, i):
        """Net balance of open square i (0-8): A's points minus B's (TTB-5)."""
        return self.total[2 * i] - self.total[2 * i + 1]

    def need(self, side, i):
        """Points side still needs to claim square i (0-8), None once owned (TTB-6)."""
        if self.owner[i] is not None:
            return None
        if self.opts.mode == NET:
            bal = self.balance(i)
            return self.opts.claim_a - bal if side == A else self.opts.claim_b + bal
        return self.opts.claim(side) - self.total[2 * i + side]

    def flippable(self, i):
        return self.owner[i] is not None and self.flips[i] < self.opts.flips

    def locked(self, i):
        """Owned and no longer flippable (TTB-8)."""
        return self.owner[i] is not None and not self.flippable(i)

    def owns_line(self, side):
        own = self.owner
        for a, b, c in LINES:
            if own[a] == side and own[b] == side and own[c] == side:
                return True
        return False

    def lines_of(self, side):
        own = self.owner
        return [ln for ln in LINES if own[ln[0]] == side and own[ln[1]] == side and own[ln[2]] == side]

    def can_complete(self, side):
        """TTB-12: some line whose squares are open, the side's, or flippable from the opponent."""
        for line in LINES:
            for i in line:
                o = self.owner[i]
                if o is not None and o != side and not self.flippable(i):
                    break
            else:
                return True
        return False

    def over(self):
        return self.winner is not None

    def turn_bounds(self):
        """(side, start, end) of every turn shot so far, as slices of self.arrows."""
        out = []
        side, start = self.first, 0
        while start < len(self.arrows):
            end = min(start + self.opts.arrows(side), len(self.arrows))
            out.append((side, start, end))
            side, start = 1 - side, end
        return out

    # --- the fold ----------------------------------------------------------------------
    def why_not(self, ev):
        """Why arrow ev cannot be shot now, or None (TTB-8, TTB-9, TTB-15)."""
        if self.winner is not None:
            return "the game is over"
        if ev >> 6 != CALLED:
            return None
        i = (ev >> 2 & 15) - 1
        side = self.shooter()
        if self.opts.flips == 0:
            return "flipping is off in this match"
        if self.owner[i] is None:
            return "square %d is open: call a shot only at a square %s owns" % (i + 1, SIDES[1 - side])
        if self.owner[i] == side:
            return "square %d is already %s's" % (i + 1, SIDES[side])
        if self.flips[i] >= self.opts.flips:
            return "square %d is locked: it was flipped" % (i + 1)
        return None

    def shoot(self, ev):
        """Apply arrow ev, already checked with why_not."""
        side = self.shooter()
        k = ev >> 6
        i = (ev >> 2 & 15) - 1
        if k == MISS:
            outcome = MISSED
        elif k == CALLED:
            if ev & 1:
                self.flips[i] += 1
                self._own(i, side)
                outcome = FLIPPED
            else:
                outcome = FLIP_MISSED
        elif self.owner[i] is not None:
            outcome = DEAD  # TTB-7
        else:
            outcome = self._score(side, i, ev & 3)
        self.arrows.append(ev)
        self.outcomes.append(outcome)
        self.in_turn += 1
        if not self.opts.equal_turns and self.lines[side]:
            self._end(side, LINE_WON)  # TTB-11: at once, mid-turn
        elif self.in_turn == self.opts.arrows(side):
            self._end_turn()

    def take_back(self):
        """Undo the last arrow (TTB-15) in a few steps, whatever the game's length: its
        outcome says what it did, a claim's cleared points are in held."""
        ev = self.arrows.pop()
        outcome = self.outcomes.pop()
        self.winner = self.reason = None  # only the last arrow can have ended the game
        if self.in_turn:
            self.in_turn -= 1
        else:  # it ended a turn
            self.turn -= 1
            self.in_turn = self.opts.arrows(self.shooter()) - 1
        side = self.shooter()
        i = (ev >> 2 & 15) - 1
        if outcome == SCORED:
            self.total[2 * i + side] -= ev & 3
        elif outcome == CLAIMED:
            self.owner[i] = None
            self.total[2 * i] = self.held[2 * i]
            self.total[2 * i + 1] = self.held[2 * i + 1]
            self.total[2 * i + side] -= ev & 3
        elif outcome == FLIPPED:
            self.flips[i] -= 1
            self.owner[i] = 1 - side  # TTB-8: only the opponent's square is called
        self.lines = [self.owns_line(A), self.owns_line(B)]
        # Look for a dead board (TTB-12) at the next turn's end: needless when the board has
        # not changed since the last look, but then it finds what that look found.
        self.changed = True

    def _score(self, side, i, v):
        self.total[2 * i + side] += v
        opts = self.opts
        if opts.mode == NET:
            bal = self.balance(i)
            if bal >= opts.claim_a:
                self._own(i, A)
            elif -bal >= opts.claim_b:
                self._own(i, B)
        elif self.total[2 * i + side] >= opts.claim(side):
            self._own(i, side)
        if self.owner[i] is None:
            return SCORED
        total = self.total
        self.held[2 * i] = total[2 * i]  # a square is claimed once a game: one place each
        self.held[2 * i + 1] = total[2 * i + 1]
        total[2 * i] = total[2 * i + 1] = 0  # a claimed square keeps no balance
        return CLAIMED

    def _own(self, i, side):
        """Square i (0-8) becomes side's, claimed or flipped."""
        was = self.owner[i]
        self.owner[i] = side
        self.lines[side] = self.owns_line(side)
        if was is not None:
            self.lines[was] = self.owns_line(was)
        self.changed = True

    def _end_turn(self):
        self.turn += 1
        self.in_turn = 0
        round_end = self.turn % 2 == 0
        a, b = self.lines
        if round_end and self.opts.equal_turns:  # TTB-11: judged when both have shot
            if a and b:
                self._end(DRAW, LINE_WON)
            elif a or b:
                self._end(A if a else B, LINE_WON)
        # TTB-12; a board that could still produce a line can only stop when an owner changes
        if self.winner is None and self.changed and not a and not b:
            self.changed = False
            if not self.can_complete(A) and not self.can_complete(B):
                self._end(DRAW, DEAD_BOARD)
        if self.winner is None and round_end and self.opts.rounds and self.turn // 2 >= self.opts.rounds:
            self._end(DRAW, ROUND_LIMIT)  # TTB-13

    def _end(self, winner, reason):
        self.winner = winner
        self.reason = reason


class Match:
    """A match: games folded from events. `log` keeps every event keyed, undos included
    (TTB-15); `events` keeps the ones in effect (scorebox_core.match.effective(log)). Undo
    takes the last event in effect back by what it did (Game.take_back for an arrow), so it
    costs the same in a long game as in a short one; it keeps only the faces a new face
    replaced, to put them back."""

    GAME = "tictacbow"  # the match header's `game` (scorebox_core/games)

    def __init__(self, opts=None, archers=None, face=None):
        self.opts = opts or Options()
        self.archers = archers or (("A",), ("B",))
        self._face0 = face or Face()
        self.log = []
        self.events = []
        self.skipped = []  # positions of events a lenient replay left out
        self.games = [Game(self.opts, A)]
        f = self._face0
        self.face = Face(f.games, f.arrows)
        self._faces = []  # the face each NEW_FACE in effect replaced
        self.wins = [0, 0]
        self.draws = 0

    @classmethod
    def replay(cls, events, opts=None, archers=None, face=None, lenient=False):
        """Fold a recorded event list; Refused names the first event the rules reject.
        lenient: leave refused events out instead, their positions in m.skipped (how the
        box resumes a journal a firmware with other rules wrote, and how the PC then reads
        that match, so the two agree)."""
        return fold_all(cls(opts, archers, face), events, lenient, token)

    # --- what a screen or a report asks ------------------------------------------
    @property
    def game(self):
        return self.games[-1]

    def result(self):
        """Winner of the match (A, B, DRAW) once decided, else None (TTB-14)."""
        need = self.opts.games // 2 + 1
        for side in (A, B):
            if self.wins[side] >= need:
                return side
        left = self.opts.games - len(self.games) + (0 if self.game.over() else 1)
        if self.wins[A] + left < need and self.wins[B] + left < need:
            return DRAW
        return None

    def over(self):
        return self.game.over() and self.result() is not None

    def shooter(self):
        """Side to shoot now, or None when the game is over."""
        return None if self.game.over() else self.game.shooter()

    def archer_index(self, side):
        """Index in archers[side] of the archer who shoots the side's next turn (TTB-2)."""
        team = len(self.archers[side])
        if team == 1:
            return 0
        done = 0
        for g in self.games:
            done += g.turns_done(side)
        return rotation(done, team)

    def archer(self):
        """Name of the team member to shoot now (TTB-2: fixed rotation through the match)."""
        side = self.shooter()
        if side is None:
            return None
        return self.archers[side][self.archer_index(side)]

    def arrow_no(self):
        """(k, n): the next arrow is arrow k of the turn's n."""
        g = self.game
        return g.in_turn + 1, self.opts.arrows(g.shooter())

    def turn_range(self):
        """(start, end) in game.arrows of the turn under way, or of the last turn once
        the game is over; empty between turns."""
        g = self.game
        end = len(g.arrows)
        if g.in_turn:
            return end - g.in_turn, end
        if g.arrows and g.over():  # it ended with a whole turn, shot by the side before
            return end - self.opts.arrows(g.first if g.turn % 2 else 1 - g.first), end
        return end, end

    def why_not(self, ev):
        """Why event ev is refused now (a sentence for the screen), or None."""
        err = check_event(ev)
        if err:
            return err
        if ev < 256:
            return self.games[-1].why_not(ev)
        if ev == UNDO:
            return None if self.events else "nothing to undo"
        if ev == NEW_GAME:
            if not self.game.over():
                return "the game is still on"
            if self.result() is not None:
                return "the match is over"
            return None
        return None  # NEW_FACE

    # --- the fold ----------------------------------------------------------------------
    def apply(self, ev):
        fold_in(self, ev)

    def _undo(self):
        ev = self.events.pop()
        if ev == NEW_GAME:  # back to the game before, as it ended
            self.games.pop()
        elif ev == NEW_FACE:
            self.face = self._faces.pop()
        else:
            g = self.games[-1]
            if g.winner is not None:
                self.face.games -= 1
                if g.winner == DRAW:
                    self.draws -= 1
                else:
                    self.wins[g.winner] -= 1
            if ev >> 6 != MISS:
                self.face.arrows[(ev >> 2 & 15) - 1] -= 1
            g.take_back()

    def _step(self, ev):
        if ev < 256:  # an arrow, by far the most common event
            g = self.games[-1]
            g.shoot(ev)
            if ev >> 6 != MISS:
                self.face.arrows[(ev >> 2 & 15) - 1] += 1
            if g.winner is not None:
                self.face.games += 1
                if g.winner == DRAW:
                    self.draws += 1
                else:
                    self.wins[g.winner] += 1
        elif ev == NEW_GAME:
            # TTB-2: the first shooter alternates from game to game.
            self.games.append(Game(self.opts, len(self.games) % 2))
        elif ev == NEW_FACE:
            self._faces.append(self.face)
            self.face = Face()


def side_name(side):
    return _side_name(side, SIDES)


# --- what the registry's surface names (scorebox_core/games/ttb/game.py RULES) -------------------
def options(d=None):
    """The Options: the defaults, or those a header's `options` dict says."""
    return Options() if d is None else Options.from_dict(d)


def replay(events, opts=None, archers=None, face=None, lenient=False):
    return Match.replay(events, opts, archers, face, lenient)


def result(match):
    """The result record the journal keeps when a match is closed (docs/journal.md)."""
    games = []
    for g in match.games:
        games.append({"winner": side_name(g.winner), "reason": g.reason, "arrows": len(g.arrows)})
    return {
        "winner": side_name(match.result()),
        "wins": [match.wins[0], match.wins[1]],
        "draws": match.draws,
        "games": games,
    }


def finished(store, match):
    """A match closed on the box: keep the face's wear for the next one (TTB-16)."""
    store.set("face_games", match.face.games)
    store.set("face_arrows", list(match.face.arrows))
    store.save()
