"""Shared pieces of the screens: the screen base class, key navigation and small text.

Screens are small classes with open/hide/key/draw (as in micro-gui): `open(arg)` when shown,
`hide()` when left, `key(kind, k)` for each key event, `draw(fb)` onto any FrameBuffer.
"""

from box.keys import (
    BACK,
    DOWN,
    K2,
    K4,
    K6,
    K8,
    KHASH,
    KSTAR,
    LEFT,
    LONG,
    OK,
    RIGHT,
    UP,
)

try:
    from micropython import const
except ImportError:  # CPython
    from scorebox_core.compat import const


W = const(128)
H = const(64)
CH = const(8)  # the built-in font: 8x8
COLS = const(16)
_UNDO = const(256)  # the undo event of both games' rules

# One-character strings are constants (qstrs) in the compiled module: drawing a number
# digit by digit with them allocates nothing, where str(n) would make a string each time.
_DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")


def num(n):
    """n as a string (allocates: for screens outside the steady state)."""
    return str(n)


def number(fb, n, x, y, col=1):
    """Draw the whole number n >= 0 in the 8x8 font with no string made; returns the x after it."""
    p = 1
    while p * 10 <= n:
        p *= 10
    while p:
        fb.text(_DIGITS[n // p % 10], x, y, col)
        x += CH
        p //= 10
    return x


def digit(n):
    """The constant one-character string of digit n (0-9)."""
    return _DIGITS[n]


# Keypad keys that act as the six buttons in menus: 2/8 up/down, 4/6 left/right, # OK, * back.
_NAV = {K2: UP, K8: DOWN, K4: LEFT, K6: RIGHT, KHASH: OK, KSTAR: BACK}


def nav(k):
    """The button a key means in a menu (keypad keys are folded onto the six buttons)."""
    return _NAV.get(k, k)


class Screen:
    frames_on_wake = False  # a digit that wakes the dark screen frames a square (the play screen)
    group = 0  # app.MENU or app.MATCH: set by the app when it loads the screen

    def __init__(self, app):
        self.app = app

    def open(self, arg=None):
        pass

    def hide(self):
        pass

    def key(self, kind, k):
        pass

    def draw(self, fb):
        pass


class Confirm(Screen):
    """A result both sides confirm in turn (side 0, then side 1), then history: Tic Tac
    BOW's match and Try-Tac-Toe's game. Until it is recorded, BACK takes the last event
    back on the game's play screen (`play`, the app's name for it); a long BACK goes home."""

    play = "play"

    def open(self, arg=None):
        self.err = None

    def key(self, kind, k):
        app = self.app
        s = app.session
        k = nav(k)
        if k == BACK and not s.finished:
            if kind == LONG:
                app.go(app.home)
                return
            play = getattr(app, self.play)
            app.go(play)
            play.shoot(_UNDO)
            return
        if k != OK:
            return
        side = 0 if not s.confirmed[0] else 1
        try:
            both = s.confirm(side)
        except Exception as e:  # the journal could not record it: say so, keep the match
            self.err = str(e) or "storage error"
            return
        if both:
            n = s.number
            s.close()
            self.closed()
            app.history.focus = n
            app.go(app.history)

    def closed(self):
        """The match is closed, history not yet open: what the game lets go then."""


def help_line(fb, app, keypad, buttons, x=0):
    """The bottom line that says which keys to press, worded for the keys fitted
    (board.layout: docs/keys.md). Both sets work whatever it says."""
    fb.text(buttons if app.board.layout == "buttons" else keypad, x, 56, 1)


def title(fb, text):
    """An inverted title bar on the top line."""
    fb.fill_rect(0, 0, W, 9, 1)
    fb.text(text, 1, 1, 0)


def centre(fb, text, y, col=1):
    fb.text(text, (W - len(text) * CH) // 2, y, col)


def right(fb, text, y, col=1, x_end=W):
    fb.text(text, x_end - len(text) * CH, y, col)


def wrap(text, cols=COLS):
    """Split a sentence into lines of at most cols characters (breaking at spaces)."""
    lines = []
    line = ""
    for word in text.split(" "):
        while len(word) > cols:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:cols])
            word = word[cols:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= cols:
            line = line + " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def banner(fb, text, y0=None):
    """A framed message over the lower part of the screen (why an entry was refused)."""
    lines = wrap(text, 15)[:5]
    h = len(lines) * 9 + 5
    if y0 is None:
        y0 = H - h
    fb.fill_rect(0, y0, W, h, 0)
    fb.rect(0, y0, W, h, 1)
    for i in range(len(lines)):
        fb.text(lines[i], 4, y0 + 3 + 9 * i, 1)


def menu(fb, items, sel, y0=11, rows=6, marks=None):
    """A scrolling list; the selected row inverted. Returns nothing."""
    n = len(items)
    top = 0
    if sel >= rows:
        top = sel - rows + 1
    for r in range(rows):
        i = top + r
        if i >= n:
            break
        y = y0 + r * 9
        if i == sel:
            fb.fill_rect(0, y - 1, W - 3, 9, 1)
            fb.text(items[i], 1, y, 0)
        else:
            fb.text(items[i], 1, y, 1)
    if n > rows:  # scroll bar
        h = max(4, rows * 9 * rows // n)
        fb.fill_rect(W - 2, y0 - 1 + (rows * 9 - h) * top // max(1, n - rows), 2, h, 1)


def lock_icon(fb, x, y, col=1):
    """A 5x6 padlock: a locked square can never change owner again (TTB-8)."""
    fb.rect(x + 1, y, 3, 3, col)
    fb.fill_rect(x, y + 2, 5, 4, col)
