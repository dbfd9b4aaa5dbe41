"""Try-Tac-Toe's match screens (TTT-1 to TTT-6): play, a match's end, the game's result.

The board is board.py's 85x63 drawing (12 px sides) on the left: an X mark fills its
triangle inside the edges, an O mark is a ring in it; the selected triangle has a bold edge
(a dark triangle inside an X) and ticks on the board's right and bottom edges in its row
and column. On the right: the side to move with its player (TTT-2: X1, O1, X2, O2), the match and
move (of the move limit), each side's game score with this match's tally per shape.

Keypad (docs/keys.md): the triangle's number (1-74) then # marks it for the side to move (a
held digit counts once); D is a miss (marks nothing); C ends the match by agreement (asked
first: TTT-5); * clears a number being keyed, else undoes the last move (held: home, the
game stays open).
Six buttons: the arrows move a cursor between neighbouring triangles (up from the top row
or down from the bottom row leaves the face: `miss`, with left/right `end`); OK marks the
triangle (or keys the miss, or asks to end); back undoes (held: home).

When a move leaves no shape possible for either side the box offers to end the match
(TTT-5); a refused move says why (the rules' sentence) with the same buzz as Tic Tac BOW's.
"""

from array import array

# Modules by a short name, not their names one by one: every global is a slot of the module's
# dict, which grows in one block that a heap long in use must find whole when a match opens
# (56 globals took a 59-slot block of 944 B on the sim's heap, where an evening's matches
# left no such hole).
from box import keys as K
from box.ui import Confirm, Screen, banner, help_line, nav, number, title
from scorebox_core.games.ttt import rules as R
from scorebox_core.games.ttt.board import CELLS, ROW_STARTS, N, row_of
from scorebox_core.sides import DRAW

try:
    from micropython import const
except ImportError:  # CPython
    from scorebox_core.compat import const


_PX = const(88)  # x of the right-hand panel
MISS_POS = N  # the buttons' cursor off the face: a miss
END_POS = N + 1  # ... and beside it: end the match by agreement
_CENTRE = const(30)  # triangle 31, in the middle of the board: where the cursor starts

# Tones (Hz, ms) as box/games/ttb/play.py's (not imported: its module stays out of the heap here).
REFUSED = (2000, 250)
MATCH_END = (3000, 700)


def beep(app, tone):
    if app.store.get("sound"):
        app.board.beep(tone[0], tone[1])


def _y(b):
    return (b * 1039 + 50) // 100  # row line b at 12 * sqrt(3) / 2 px


def _tables():
    """Each cell's three vertices in pixels (6 bytes) and its centre (2 bytes)."""
    pts = bytearray(6 * N)
    ctr = bytearray(2 * N)
    for i in range(N):
        sx = sy = 0
        for j in range(3):
            a, b = CELLS[i][j]
            x, y = 12 * a + 6 * b - 24, _y(b)  # the board's leftmost vertex is x = 24
            pts[6 * i + 2 * j] = x
            pts[6 * i + 2 * j + 1] = y
            sx += x
            sy += y
        ctr[2 * i] = sx // 3
        ctr[2 * i + 1] = (sy + 1) // 3
    return bytes(pts), bytes(ctr)


_PTS, _CTR = _tables()
_POLY = array("h", (0, 0, 0, 0, 0, 0))  # one triangle's vertices for fb.poly, reused

# 3x5 digits for the tallies (and "/"): 3 columns per glyph, bit 0 at the top.
_TINY = bytes(
    (0x1F, 0x11, 0x1F, 0x12, 0x1F, 0x10, 0x1D, 0x15, 0x17, 0x11, 0x15, 0x1F, 0x07, 0x04, 0x1F, 0x17)
    + (0x15, 0x1D, 0x1F, 0x15, 0x1D, 0x01, 0x01, 0x1F, 0x1F, 0x15, 0x1F, 0x17, 0x15, 0x1F, 0x18, 0x04, 0x03)
)


def tiny(fb, n, x, y, col=1, slash=False):
    """Draw n >= 0 (or a slash first) in the 3x5 digits; returns the x after it."""
    if slash:
        x = _tiny_glyph(fb, 10, x, y, col)
    p = 1
    while p * 10 <= n:
        p *= 10
    while p:
        x = _tiny_glyph(fb, n // p % 10, x, y, col)
        p //= 10
    return x


def _tiny_glyph(fb, g, x, y, col):
    for c in range(3):
        bits = _TINY[3 * g + c]
        for r in range(5):
            if bits >> r & 1:
                fb.pixel(x + c, y + r, col)
    return x + 4


def _poly(fb, i, col, fill, k=0):
    """Cell i's triangle; k > 0: shrunk towards its centre by k/8 of its size."""
    p = _POLY
    cx, cy = _CTR[2 * i], _CTR[2 * i + 1]
    for j in range(6):
        v = _PTS[6 * i + j]
        if k:
            c = cy if j & 1 else cx
            v = c + (v - c) * (8 - k) // 8
        p[j] = v
    fb.poly(0, 0, p, col, fill)


def draw_board(fb, match, sel=-1):
    """The 74 triangles with their marks (X filled, O a ring); sel (0-73) marked."""
    marks = match.marks
    for i in range(N):
        m = marks[i]
        _poly(fb, i, 1, False)
        if m == 1:
            _poly(fb, i, 1, True, 3)  # filled inside its edge: marked cells stay apart
        elif m == 2:
            fb.ellipse(_CTR[2 * i], _CTR[2 * i + 1], 2, 2, 1)
    if 0 <= sel < N:
        cx, cy = _CTR[2 * sel], _CTR[2 * sel + 1]
        if marks[sel] == 1:
            _poly(fb, sel, 0, False, 5)  # a dark triangle in the filled one
        else:
            _poly(fb, sel, 1, False, 1)  # a bold edge
            _poly(fb, sel, 1, False, 2)
        fb.vline(85, cy - 2, 5, 1)  # ticks on the board's edges: its row and column
        fb.hline(cx - 2, 63, 5, 1)


def _row_cells(r):
    return ROW_STARTS[r], ROW_STARTS[r + 1]


def step(pos, k, last):
    """Where the buttons' cursor goes from pos (a cell, MISS_POS or END_POS) on arrow k;
    last: the cell it left the face from. Left/right: the neighbour in the row (round at
    its ends); up/down: the triangle straight above or below, across an edge (one of its
    NEIGHBOURS) or through its point (one sharing that corner), and off the face past the
    top and bottom rows; there left/right swap miss and end, up/down go back to the board."""
    if pos >= N:
        if k == K.LEFT or k == K.RIGHT:
            return END_POS if pos == MISS_POS else MISS_POS
        return last
    r = row_of(pos)
    lo, hi = _row_cells(r)
    if k == K.LEFT:
        return pos - 1 if pos > lo else hi - 1
    if k == K.RIGHT:
        return pos + 1 if pos < hi - 1 else lo
    r += -1 if k == K.UP else 1
    if r < 0 or r >= len(ROW_STARTS) - 1:
        return MISS_POS
    lo, hi = _row_cells(r)
    cx = _CTR[2 * pos]
    best = lo
    for j in range(lo, hi):
        if abs(_CTR[2 * j] - cx) < abs(_CTR[2 * best] - cx):
            best = j
    return best


class Play(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.sel = _CENTRE  # the cursor: a cell (0-73), MISS_POS or END_POS
        self.last = _CENTRE  # the cell the cursor left the face from
        self.typed = 0  # the number being keyed (0: none) and its digits
        self.ntyped = 0
        self.msg = None  # why the last entry was refused, until the next key
        self.offer = False  # TTT-5: no shape possible: end the match?
        self.asking = False  # C / `end`: end the match by agreement?
        self.end = MatchEnd(app)  # its sibling screens (one entry in its SCREENS: less heap)
        self.over = GameOver(app)

    def open(self, arg=None):
        self.msg = None
        self.typed = self.ntyped = 0

    def reset(self):
        self.offer = self.asking = False
        self.typed = self.ntyped = 0

    def enter(self, skipped=0):
        """A game opened or resumed: the names, and the screen it is at."""
        app = self.app
        self.end.group = self.over.group = self.group
        m = app.session.match
        app.names = tuple(tuple(n[:6] for n in m.archers[s]) for s in (0, 1))
        self.reset()
        moves = m.match.moves
        for j in range(len(moves) - 1, -1, -1):  # the cursor on the last triangle marked
            if moves[j] != R.MISS:
                self.sel = self.last = moves[j] - 1
                break
        then = self.over if m.over() else self.end if m.match.over() else self
        if skipped:  # say so: the players check the board against their paper
            app.message("%d %s not replayed" % (skipped, "entry" if skipped == 1 else "entries"), then)
        else:
            app.go(then)

    def shoot(self, ev):
        app = self.app
        g = app.session.match
        was_dead = g.match.dead()
        why = app.session.shoot(ev)
        if why:
            self.refuse(why)
            return
        self.offer = self.asking = False
        m = g.match
        if m.over():  # a match ended, or an undo took back the start of match 2
            if ev != R.UNDO:
                beep(app, MATCH_END)
            app.go(self.over if g.over() else self.end)
        elif ev != R.UNDO and m.dead() and not was_dead:
            self.offer = True  # TTT-5: the box can tell; the players decide

    def refuse(self, why):
        self.msg = why
        beep(self.app, REFUSED)

    def mark(self):
        """# or OK: the selected triangle, the miss or the end."""
        s = self.sel
        self.typed = self.ntyped = 0
        if s == MISS_POS:
            self.shoot(R.MISS)
            self.sel = self.last
        elif s == END_POS:
            self.asking = True
        else:
            self.shoot(s + 1)

    def key(self, kind, k):
        if kind == K.REPEAT and K.DIGIT[k] >= 0:
            return  # a held digit is one digit (2/4/6/8 repeat for the menus: box/app.py)
        self.msg = None
        if k == K.KSTAR or k == K.BACK:
            if kind == K.LONG:
                self.app.go(self.app.home)
            elif self.offer or self.asking:
                self.offer = self.asking = False  # play on
            elif self.ntyped:
                self.typed = self.ntyped = 0
            else:
                self.shoot(R.UNDO)
            return
        if self.offer or self.asking:
            if k == K.KHASH or k == K.OK:
                self.shoot(R.END)
            return
        d = K.DIGIT[k]
        if d >= 0:
            self.digit(d)
        elif k == K.KHASH or k == K.OK:
            self.mark()
        elif k == K.KD:
            self.typed = self.ntyped = 0
            self.shoot(R.MISS)
        elif k == K.KC:
            self.typed = self.ntyped = 0
            self.asking = True
        elif k == K.UP or k == K.DOWN or k == K.LEFT or k == K.RIGHT:
            self.typed = self.ntyped = 0
            if self.sel < N:
                self.last = self.sel
            self.sel = step(self.sel, k, self.last)

    def digit(self, d):
        """A triangle's number keyed digit by digit: a digit that would make it more than 74
        (or a third digit) starts a new number."""
        v = self.typed * 10 + d
        if self.ntyped == 1 and v <= N:
            self.typed, self.ntyped = v, 2
        elif d:
            self.typed, self.ntyped = d, 1
        else:
            self.refuse("triangles are 1-74")
            return
        self.sel = self.last = self.typed - 1

    def draw(self, fb):
        app = self.app
        g = app.session.match
        m = g.match
        draw_board(fb, m, self.sel)
        x = _PX
        side = g.mover()
        if side is not None:  # None only for a moment, as the match ends
            fb.fill_rect(x, 0, 128 - x, 9, 1)
            fb.text("XO"[side], x + 1, 1, 0)
            fb.text(app.names[side][g.archer_index(side)][:4], x + 9, 1, 0)
        fb.text("M", x, 11, 1)
        number(fb, len(g.matches), x + 8, 11)
        xx = tiny(fb, len(m.moves) + 1, x + 19, 13)
        if g.opts.moves:
            tiny(fb, g.opts.moves, xx, 13, 1, True)
        score = g.score()
        for s in (0, 1):
            y = 21 + 17 * s
            fb.text("XO"[s], x, y, 1)
            number(fb, score[s], x + 12, y)
            t = m.tally[s]
            for j in range(3):
                tiny(fb, t[j], x + 13 * j, y + 10)
        if self.sel == MISS_POS:
            fb.text("miss", x, 56, 1)
        elif self.sel == END_POS:
            fb.text("end", x, 56, 1)
        else:
            if self.ntyped:
                fb.fill_rect(x, 55, 128 - x, 9, 1)
            number(fb, self.sel + 1, x + 4, 56, 0 if self.ntyped else 1)
        if self.offer:
            banner(fb, "no shape possible for either side: end? " + _keys(app, "#=end *=on", "OK=end back=on"))
        elif self.asking:
            banner(fb, "end the match by agreement? " + _keys(app, "#=end *=on", "OK=end back=on"))
        elif self.msg:
            banner(fb, self.msg)


def enter(app, skipped=0):
    """A game opened or resumed (box/app.py match_opened): the screen it is at."""
    app.play.enter(skipped)


def _keys(app, keypad, buttons):
    return buttons if app.board.layout == "buttons" else keypad


def _scores(fb, g, y):
    """Each match's scores and the game score, X then O, from y down."""
    for i in range(len(g.matches)):
        mt = g.matches[i]
        fb.text("match", 0, y, 1)
        number(fb, i + 1, 48, y)
        number(fb, mt.score(0), 72, y)
        fb.text("-", 92, y, 1)
        number(fb, mt.score(1), 102, y)
        y += 9
    return y


class MatchEnd(Screen):
    """Match 1 is over (TTT-5): its scores and why; # starts match 2 (O first, TTT-6),
    * undoes the last move."""

    def key(self, kind, k):
        app = self.app
        k = nav(k)
        if k == K.BACK:
            if kind == K.LONG:
                app.go(app.home)
                return
            app.go(app.play)
            app.play.shoot(R.UNDO)
        elif k == K.OK:
            app.go(app.play)
            app.play.shoot(R.NEXT_MATCH)

    def draw(self, fb):
        g = self.app.session.match
        title(fb, "Match 1 over")
        r = g.match.reason
        fb.text("no shape left" if r == R.NO_SHAPE else r, 0, 12, 1)  # 16 columns
        _scores(fb, g, 24)
        fb.text("next: O starts", 0, 44, 1)
        fb.hline(0, 54, 128, 1)
        help_line(fb, self.app, "#=match 2 *=undo", "OK=match 2")


class GameOver(Confirm):
    """The game's result (TTT-6), confirmed by both sides in turn (X then O), as Tic Tac
    BOW's match result; then history."""

    def draw(self, fb):
        app = self.app
        s = app.session
        g = s.match
        title(fb, "Game over")
        w = g.winner()
        score = g.score()
        if w == DRAW:
            fb.text("draw", 0, 12, 1)
        else:
            fb.text("XO"[w], 0, 12, 1)
            fb.text(app.names[w][0], 12, 12, 1)
            fb.text("wins", 64, 12, 1)
        y = _scores(fb, g, 22)
        fb.text("game", 0, y, 1)
        number(fb, score[0], 72, y)
        fb.text("-", 92, y, 1)
        number(fb, score[1], 102, y)
        fb.hline(0, 54, 128, 1)
        if self.err:
            banner(fb, self.err)
        fb.text("XO"[0 if not s.confirmed[0] else 1], 0, 56, 1)
        help_line(fb, app, ": # to confirm", ": OK to confirm", 8)


__all__ = ("Play", "MatchEnd", "GameOver", "draw_board", "enter", "step", "tiny")
