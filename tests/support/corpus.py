"""Realistic matches for the keypad benchmark and the whole-match tests.

Runs unchanged on MicroPython and CPython (its own PRNG, no `random`), so the same seed
gives the same matches on both. The archer model, in words:

- Each side aims at one square and keeps aiming at it, turn after turn, until the square is
  owned (by anyone); then it picks another: an open square it can claim soonest (smallest
  need), the centre and squares on lines it still can complete count extra, with some
  randomness.
- When the opponent owns a flippable square on a line the shooter could otherwise complete,
  or on a line the opponent nearly has, the shooter calls a flip shot at it now and then.
- An aimed arrow lands in the aimed square with probability `skill` (0.75-0.92: club archers
  at 20 yards group well inside one of the nine squares), else in a
  neighbouring square (mostly) or off the face (a miss, 5%). Values in a square: 3 (25%),
  2 (30%), 1 (30%), 0 (15%). A called shot hits the X with probability 0.25.
- About 2% of arrows are first keyed with a wrong value and corrected with undo.
- Matches are best of 1 or 3, standard (net) or Hard 5.
"""

from scorebox_core.games.ttb import rules
from scorebox_core.games.ttb.rules import HARD5, LINES, Match, Options

NEIGHBOURS = (
    (1, 3, 4),
    (0, 2, 3, 4, 5),
    (1, 4, 5),
    (0, 1, 4, 6, 7),
    (0, 1, 2, 3, 5, 6, 7, 8),
    (1, 2, 4, 7, 8),
    (3, 4, 7),
    (3, 4, 5, 6, 8),
    (4, 5, 7),
)


class Rng:
    """xorshift32: the same numbers on every interpreter."""

    def __init__(self, seed):
        self.s = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s

    def random(self):
        return self.next() / 4294967296.0

    def below(self, n):
        return self.next() % n

    def choice(self, seq):
        return seq[self.below(len(seq))]


def match_options(rng):
    opts = Options()
    if rng.random() < 0.3:
        opts.mode = HARD5
    opts.games = 3 if rng.random() < 0.4 else 1
    return opts


class Archers:
    """The two sides of one match: their aim and skill."""

    def __init__(self, rng):
        self.rng = rng
        self.skill = (0.75 + 0.17 * rng.random(), 0.75 + 0.17 * rng.random())
        self.target = [None, None]  # square index 0-8 each side aims at
        self.calling = [False, False]

    def _line_squares(self, g, side):
        """Squares on lines the side can still complete."""
        out = [0] * 9
        for ln in LINES:
            ok = True
            for i in ln:
                o = g.owner[i]
                if o is not None and o != side and not g.flippable(i):
                    ok = False
            if ok:
                for i in ln:
                    out[i] += 1
        return out

    def _flip_target(self, g, side):
        opp = 1 - side
        best = None
        for ln in LINES:
            mine = 0
            theirs = []
            for i in ln:
                if g.owner[i] == side:
                    mine += 1
                elif g.owner[i] == opp and g.flippable(i):
                    theirs.append(i)
            if theirs and (mine + len(theirs) == 3 or len(theirs) >= 2):
                best = theirs[0]
        return best

    def aim(self, m):
        """(square index, called?) the side to shoot aims at now."""
        g = m.game
        side = g.shooter()
        rng = self.rng
        if g.in_turn == 0:
            self.calling[side] = False
            if m.opts.flips and rng.random() < 0.35:
                f = self._flip_target(g, side)
                if f is not None:
                    self.target[side] = f
                    self.calling[side] = True
        t = self.target[side]
        if self.calling[side] and t is not None and g.owner[t] == 1 - side and g.flippable(t):
            return t, True
        self.calling[side] = False
        if t is None or g.owner[t] is not None:
            lines = self._line_squares(g, side)
            best, score = None, None
            for i in range(9):
                if g.owner[i] is not None:
                    continue
                s = -g.need(side, i) + 2 * lines[i] + (2 if i == 4 else 0) + 3 * rng.random()
                if score is None or s > score:
                    best, score = i, s
            t = best
            self.target[side] = t
        return t, False

    def arrow(self, m):
        """The event of the next arrow shot (not yet applied)."""
        rng = self.rng
        g = m.game
        side = g.shooter()
        t, call = self.aim(m)
        if t is None:
            return rules.miss()
        if call:
            return rules.called(t + 1, rng.random() < 0.25)
        r = rng.random()
        if r < 0.05:
            return rules.miss()
        if r < 0.05 + self.skill[side] * 0.95:
            sq = t
        else:
            sq = rng.choice(NEIGHBOURS[t])
        v = rng.random()
        v = 3 if v < 0.25 else 2 if v < 0.55 else 1 if v < 0.85 else 0
        return rules.hit(sq + 1, v)


def wrong(ev):
    """A keying slip: the same square with another value."""
    return ev & ~3 | ((ev & 3) + 1) % 4


def match_events(seed, face_games=0):
    """One realistic match as the steps keyed on the box: (event, note) pairs, where note is
    None, 'slip' (a wrong arrow keyed, then undone) or 'face' (a new face put up)."""
    rng = Rng(seed)
    opts = match_options(rng)
    archers = Archers(rng)
    m = Match(opts, (("A",), ("B",)), rules.Face(face_games))
    steps = []
    if m.face.worn(opts):  # TTB-16: the box offers a new face as the match opens; the archers take it
        steps.append((rules.NEW_FACE, "face"))
        m.apply(rules.NEW_FACE)
    while True:
        g = m.game
        if g.over():
            if m.result() is not None:
                break
            if m.face.worn(opts):
                steps.append((rules.NEW_FACE, "face"))
                m.apply(rules.NEW_FACE)
            steps.append((rules.NEW_GAME, None))
            m.apply(rules.NEW_GAME)
            continue
        ev = archers.arrow(m)
        if rng.random() < 0.02 and ev >> 6 == rules.HIT:
            steps.append((wrong(ev), "slip"))
            m.apply(wrong(ev))
            steps.append((rules.UNDO, "slip"))
            m.apply(rules.UNDO)
        steps.append((ev, None))
        m.apply(ev)
        if len(m.events) > 2000:  # a round limit in all but name: never loop forever
            break
    return opts, steps, m


def corpus_lines(first_seed, count):
    """Matches first_seed.. as text lines for the firmware harness (tests/mpy/app_play.py), the
    face wear carried from match to match as on one box: `mode games ev,note ev,note ...`
    with note - (plain), s (a slip, undone next) or f (a new face put up)."""
    face = 0
    out = []
    for seed in range(first_seed, first_seed + count):
        opts, steps, m = match_events(seed, face)
        face = m.face.games
        words = [opts.mode, str(opts.games)]
        for ev, note in steps:
            words.append("%d,%s" % (ev, (note or "-")[0]))
        out.append(" ".join(words))
    return out
