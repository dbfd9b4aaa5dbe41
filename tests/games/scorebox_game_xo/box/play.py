"""Noughts and Crosses' match screens: play, and the game's result both sides confirm.

The 3x3 board on the left (an empty square shows its number), the side to shoot with its
archer and each side's squares on the right.
Keypad: a digit 1-9 frames that square, # shoots it (one arrow a turn), D is a miss, * undoes
(held: home, the game stays open). Buttons: the arrows move the frame (past the board's top or
bottom edge: `miss`), OK shoots, back undoes (held: home).
"""

from box.keys import BACK, DIGIT, DOWN, KD, KHASH, KSTAR, LEFT, LONG, OK, REPEAT, RIGHT, UP
from box.ui import Confirm, Screen, banner, help_line, number, title
from scorebox_core.sides import DRAW, UNDO

MISS = 128  # the rules' MISS: they load with the match, not with this module
MISS_POS = 9  # the frame off the board: a miss
REFUSED = (2000, 250)  # tones (Hz, ms) as box/play.py's
OVER = (3000, 700)


def beep(app, tone):
    if app.store.get("sound"):
        app.board.beep(tone[0], tone[1])


def step(pos, k):
    """Where the frame goes from pos (0-8, MISS_POS) on arrow k: round its row left and
    right; up and down a column, off the board to the miss and back to the middle column."""
    if pos == MISS_POS:
        return 7 if k == UP else 1 if k == DOWN else pos
    r, c = pos // 3, pos % 3
    if k == LEFT or k == RIGHT:
        return 3 * r + (c + (1 if k == RIGHT else 2)) % 3
    r += 1 if k == DOWN else -1
    return MISS_POS if r < 0 or r > 2 else 3 * r + c


def draw_board(fb, marks, sel):
    for i in (1, 2):
        fb.vline(2 + 20 * i, 2, 60, 1)
        fb.hline(2, 2 + 20 * i, 60, 1)
    for i in range(9):
        x, y = 2 + 20 * (i % 3), 2 + 20 * (i // 3)
        m = marks[i]
        if m == 1:
            fb.line(x + 5, y + 5, x + 15, y + 15, 1)
            fb.line(x + 15, y + 5, x + 5, y + 15, 1)
        elif m == 2:
            fb.ellipse(x + 10, y + 10, 6, 6, 1)
        else:
            number(fb, i + 1, x + 7, y + 6)
        if i == sel:
            fb.rect(x + 2, y + 2, 17, 17, 1)


class Play(Screen):
    frames_on_wake = True  # a digit only frames a square: safe unseen

    def __init__(self, app):
        super().__init__(app)
        self.sel = 4  # the framed square (0-8) or MISS_POS
        self.msg = None  # why the last arrow was refused, until the next key
        self.over = GameOver(app)

    def open(self, arg=None):
        self.msg = None

    def enter(self, skipped=0):
        """A game opened or resumed: the names, and the screen it is at."""
        app = self.app
        self.over.group = self.group
        g = app.session.match
        app.names = tuple(tuple(n[:6] for n in g.archers[s]) for s in (0, 1))
        then = self.over if g.over() else self
        if skipped:
            app.message("%d entries not replayed" % skipped, then)
        else:
            app.go(then)

    def shoot(self, ev):
        app = self.app
        why = app.session.shoot(ev)
        if why:
            self.msg = why
            beep(app, REFUSED)
        elif app.session.match.over():
            beep(app, OVER)
            app.go(self.over)

    def key(self, kind, k):
        if kind == REPEAT and DIGIT[k] >= 0:
            return  # a held digit is one digit
        self.msg = None
        if k == KSTAR or k == BACK:
            if kind == LONG:
                self.app.go(self.app.home)
            else:
                self.shoot(UNDO)
        elif DIGIT[k] > 0:
            self.sel = DIGIT[k] - 1
        elif k == KHASH or k == OK:
            self.shoot(MISS if self.sel == MISS_POS else self.sel + 1)
        elif k == KD:
            self.shoot(MISS)
        elif k == UP or k == DOWN or k == LEFT or k == RIGHT:
            self.sel = step(self.sel, k)

    def draw(self, fb):
        app = self.app
        g = app.session.match
        draw_board(fb, g.marks, self.sel)
        side = g.mover()
        if side is not None:
            fb.fill_rect(66, 0, 62, 9, 1)
            fb.text("XO"[side], 67, 1, 0)
            fb.text(app.names[side][g.archer_index(side)], 77, 1, 0)
        score = g.score()
        for s in (0, 1):
            fb.text("XO"[s], 68, 14 + 10 * s, 1)
            number(fb, score[s], 80, 14 + 10 * s)
        fb.text("arrow", 68, 36, 1)
        number(fb, len(g.events) + 1, 112, 36)
        if self.sel == MISS_POS:
            fb.text("miss", 68, 48, 1)
        if self.msg:
            banner(fb, self.msg)


def enter(app, skipped=0):
    """A game opened or resumed (box/app.py match_opened)."""
    app.play.enter(skipped)


class GameOver(Confirm):
    """The result, confirmed by X then O; then history."""

    def draw(self, fb):
        app = self.app
        s = app.session
        g = s.match
        title(fb, "Game over")
        w = g.winner()
        if w == DRAW:
            fb.text("draw", 0, 14, 1)
        else:
            fb.text("XO"[w] + " " + app.names[w][0] + " wins", 0, 14, 1)
        score = g.score()
        fb.text("squares", 0, 28, 1)
        x = number(fb, score[0], 64, 28)
        fb.text("-", x + 4, 28, 1)
        number(fb, score[1], x + 16, 28)
        fb.hline(0, 54, 128, 1)
        if self.err:
            banner(fb, self.err)
        fb.text("XO"[1 if s.confirmed[0] else 0], 0, 56, 1)
        help_line(fb, app, ": # to confirm", ": OK to confirm", 8)
