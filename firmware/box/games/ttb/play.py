"""Tic Tac BOW's match screens: play, turn review, game result, new face, match result
(its surface's SCREENS, scorebox_core/games/ttb/game.py; enter() opens or resumes a match).

Keypad entry (docs/keys.md): a value key commits an arrow in the framed square (A=3, B=2,
C=1, D=0); a digit 1-9 frames another square first; 0 is a miss off the face; # starts
called flip shots at the framed square (A: the X was hit, D: missed, as the screen says;
they go on until a flip lands, the turn ends, a square that cannot be flipped is framed, or
# again); * undoes the last arrow (held: back to home, the match stays open).

The framed square is a guess that saves a key most of the time: the shooting side's *home*
square, the first square it shot in its turn, kept from turn to turn while it is open, and
back after an arrow keyed elsewhere. With no open home square: the open square the side
needs least to claim. Archers aim at one square until it is claimed, so most arrows are one
key (bench/bench_app.py measures it over realistic matches).

With the six buttons: the arrows move over the board, OK opens the value (left/right), OK
commits; back undoes (held: home).

The piezo (board.beep; off in the settings): a low buzz for an entry refused, a chirp for a
flip, a long tone for the arrow that ends the match. The tone starts and the loop goes on.
"""

from box import font

# The keys' module by a short name, not its names one by one: every global is a slot of this
# module's dict, one block that a heap long in use must find whole when a match opens
# (box/games/ttt/play.py).
from box import keys as K
from box.ui import Confirm, Screen, banner, digit, help_line, lock_icon, nav, num, number, title, wrap
from scorebox_core.games.ttb import rules
from scorebox_core.games.ttb.rules import DRAW, NEW_FACE, NEW_GAME, OUTCOMES, UNDO, A, B, called, hit, miss

try:
    from micropython import const
except ImportError:  # CPython
    from scorebox_core.compat import const


_CELL = const(21)
_PX = const(66)  # x of the right-hand panel

# Where to look for a default square: centre, corners, edges.
_GUESS_ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)

# Value keys -> value (A=3 ... D=0); -1 for other keys.
_VALUE = {K.KA: 3, K.KB: 2, K.KC: 1, K.KD: 0}

# The button layout's value picker: values 3-0, then a miss, then a called shot hit / missed.
_PICKS = (3, 2, 1, 0, 4, 5, 6)
_PICK_TEXT = ("< 3 >", "< 2 >", "< 1 >", "< 0 >", "< miss >", "< X hit >", "< X miss >")

# Tones: (Hz, ms), all within 2-4 kHz: a piezo sounder is loud only near its resonance (the
# PS1240 of docs/hardware.md peaks at 4 kHz, 70 dB(A) at 10 cm), and a tone far below it is
# lost outdoors. The refusal is the lowest and is longer, so that it is told without looking.
REFUSED = (2000, 250)
FLIP = (4000, 80)
MATCH_END = (3000, 700)


def beep(app, tone):
    if app.store.get("sound"):
        app.board.beep(tone[0], tone[1])


def draw_token(fb, ev, x, y, col=1):
    """An arrow as its match-script token (5:2, M, 5:X, 5:-), drawn with no string made."""
    k = ev >> 6
    if k == rules.MISS:
        fb.text("M", x, y, col)
        return
    fb.text(digit(ev >> 2 & 15), x, y, col)
    fb.text(":", x + 8, y, col)
    if k == rules.CALLED:
        fb.text("X" if ev & 1 else "-", x + 16, y, col)
    else:
        fb.text(digit(ev & 3), x + 16, y, col)


def side_letter(fb, side, x, y, col=1):
    font.glyph(fb, font.LETTER_A + side, x, y, col)


def draw_board(fb, game, side, sel=0, x0=0, y0=0):
    """The 3x3 board: owners (A filled, B outlined), locks, and what `side` needs in each open
    square in the large font; sel (1-9) framed."""
    c = _CELL
    for i in range(9):
        x = x0 + (i % 3) * c
        y = y0 + (i // 3) * c
        o = game.owner[i]
        if o is None:
            n = game.need(side, i)
            if 0 <= n <= 9:
                font.glyph(fb, n, x + 6, y + 3)
            else:
                number(fb, n, x + 3 if n < 100 else x, y + 7)
        elif o == A:
            fb.fill_rect(x + 1, y + 1, c - 1, c - 1, 1)
            side_letter(fb, A, x + 6, y + 3, 0)
        else:
            fb.rect(x + 3, y + 3, c - 5, c - 5, 1)
            side_letter(fb, B, x + 6, y + 3, 1)
        if o is not None and game.locked(i):
            lock_icon(fb, x + c - 6, y + 2, 0 if o == A else 1)
            if o == B:
                fb.fill_rect(x + c - 7, y + 1, 7, 8, 0)
                lock_icon(fb, x + c - 6, y + 2, 1)
        if sel == i + 1:
            col = 0 if o == A else 1
            fb.rect(x + 1, y + 1, c - 1, c - 1, col)
            fb.rect(x + 2, y + 2, c - 3, c - 3, col)
    s = 3 * c
    fb.rect(x0, y0, s + 1, s + 1, 1)
    fb.vline(x0 + c, y0, s, 1)
    fb.vline(x0 + 2 * c, y0, s, 1)
    fb.hline(x0, y0 + c, s, 1)
    fb.hline(x0, y0 + 2 * c, s, 1)


def enter(app, skipped=0):
    """A match opened or resumed (box/app.py match_opened): the names, and the screen it is
    at. TTB-16: the face carries over from match to match; worn already, its change is
    offered before the first arrow (after a game it is offered only if the match goes on)."""
    m = app.session.match
    app.names = tuple(tuple(n[:6] for n in m.archers[i]) for i in (0, 1))
    app.play.reset()
    if m.over():
        then = app.match_over
    elif m.game.over():
        then = app.game_over
    elif not m.log and m.face.worn(m.opts):
        then = app.face
    else:
        then = app.play
    if skipped:  # say so: the archers check the board against their paper
        app.message("%d %s not replayed" % (skipped, "entry" if skipped == 1 else "entries"), then)
    else:
        app.go(then)


class Play(Screen):
    frames_on_wake = True  # a digit only frames a square, shown at once: safe unseen

    def __init__(self, app):
        super().__init__(app)
        self.sel = 0  # the picked square 1-9, 0 before the first arrow
        self.calling = False  # '#' pressed: the next value key is a called shot
        self.picking = False  # button layout: choosing the value
        self.pick = 0
        self.msg = None  # why the last entry was refused, shown until the next key (refuse())
        self.home = [0, 0]  # each side's square: the first it shot in its turn

    def open(self, arg=None):
        self.calling = False
        self.picking = False
        self.msg = None

    def reset(self):
        """A match opened, resumed, or an arrow undone: the squares follow the arrows so far
        (the same state as when they were keyed)."""
        self.home = [0, 0]
        self.calling = False
        m = self.app.session.match
        if m is None:
            return
        g = m.game
        for side, start, end in g.turn_bounds():
            for j in range(start, end):
                ev = g.arrows[j]
                if ev >> 6 != rules.MISS:
                    h = self.home[side]
                    if j == start or not h or g.owner[h - 1] is not None:
                        self.home[side] = ev >> 2 & 15
        self._default(g)

    def _default(self, g):
        """Frame the square the next arrow most likely goes to: the shooter's home square
        (the first square it shot this turn, or last turn) while it is open, else the open
        square it needs least to claim (ties: centre, corners, edges)."""
        if g.over():
            return
        side = g.shooter()
        h = self.home[side]
        if h and g.owner[h - 1] is None:
            self.sel = h
            return
        self.home[side] = 0
        best = -1
        need = 0
        for i in _GUESS_ORDER:
            if g.owner[i] is None:
                n = g.need(side, i)
                if best < 0 or n < need:
                    best = i
                    need = n
        if best >= 0:
            self.sel = best + 1

    def shoot(self, ev):
        app = self.app
        m = app.session.match
        g = m.game
        side = m.shooter()
        first = g.in_turn == 0
        why = app.session.shoot(ev)
        if why:
            self.refuse(why)
            return
        self.picking = False
        g = m.game  # a new game after NEW_GAME
        if ev == UNDO or ev == NEW_GAME:
            self.reset()
            return
        if ev < 256 and ev >> 6 != rules.MISS:
            h = self.home[side]
            if first or not h or g.owner[h - 1] is not None:
                self.home[side] = ev >> 2 & 15
        if g.in_turn == 0 or (ev < 256 and g.outcomes[-1] == rules.FLIPPED):
            self.calling = False  # a called-shot run ends with the turn, or when its flip lands (TTB-8)
        if not self.calling:  # while calling, the frame stays on the X called at
            self._default(g)
        if m.over():
            beep(app, MATCH_END)
        elif ev < 256 and g.outcomes[-1] == rules.FLIPPED:
            beep(app, FLIP)
        if g.over():
            app.go(app.game_over)
        elif g.in_turn == 0:
            app.go(app.review)

    def _callable(self, sq):
        return self.app.session.match.game.why_not(called(sq, True)) is None

    def call(self):
        """#: called shots at the framed square (TTB-8), or off again."""
        if self.calling or (self.sel and self._callable(self.sel)):
            self.calling = not self.calling
        else:
            self.refuse("# calls a shot: frame first a square that can be flipped (1-9)")

    def refuse(self, why):
        """An entry not taken: why, on the screen until the next key, and a buzz."""
        self.msg = why
        beep(self.app, REFUSED)

    def key(self, kind, k):
        self.msg = None
        app = self.app
        if k == K.KSTAR or k == K.BACK:
            if kind == K.LONG:
                app.go(app.home)
            elif self.calling:
                self.calling = False
            elif self.picking:
                self.picking = False
            else:
                self.shoot(UNDO)
            return
        d = K.DIGIT[k]
        if d > 0:
            self.sel = d
            if self.calling and not self._callable(d):
                self.calling = False  # a square no shot can be called at (TTB-9): back to values
            return
        if k == K.K0:
            self.shoot(miss())
            return
        if k == K.KHASH:
            self.call()
            return
        if k in _VALUE:
            v = _VALUE[k]
            if not self.sel:
                self.refuse("pick the square first: 1-9, then its value")
            elif self.calling:
                if v == 3 or v == 0:
                    self.shoot(called(self.sel, v == 3))
                else:
                    self.refuse("calling: A = X hit, D = missed, # = stop calling")
            else:
                self.shoot(hit(self.sel, v))
            return
        # The six buttons.
        if self.picking:
            if k == K.LEFT:
                self.pick = (self.pick - 1) % len(_PICKS)
            elif k == K.RIGHT:
                self.pick = (self.pick + 1) % len(_PICKS)
            elif k == K.OK:
                p = _PICKS[self.pick]
                if p <= 3:
                    self.shoot(hit(self.sel, p))
                elif p == 4:
                    self.shoot(miss())
                else:
                    self.shoot(called(self.sel, p == 5))
            return
        s = self.sel or 5
        if k == K.UP:
            self.sel = s - 3 if s > 3 else s + 6
        elif k == K.DOWN:
            self.sel = s + 3 if s < 7 else s - 6
        elif k == K.LEFT:
            self.sel = s - 1 if (s - 1) % 3 else s + 2
        elif k == K.RIGHT:
            self.sel = s + 1 if s % 3 else s - 2
        elif k == K.OK:
            self.sel = s
            self.picking = True

    def draw(self, fb):
        m = self.app.session.match
        g = m.game
        side = g.shooter()
        draw_board(fb, g, side, self.sel)
        x = _PX
        side_letter(fb, side, x, 0)
        name = self.app.names[side][m.archer_index(side)]
        fb.text(name, x + 13, 0, 1)
        fb.text("G", x + 13, 9, 1)
        number(fb, len(m.games), x + 21, 9)
        fb.text("R", x + 37, 9, 1)
        number(fb, g.round(), x + 45, 9)
        # Arrow k of n, and this turn's arrows (Match.arrow_no and turn_range, without
        # the tuples they return: this is drawn after every key).
        xx = font.number(fb, g.in_turn + 1, x, 19)
        font.glyph(fb, font.SLASH, xx, 19)
        font.number(fb, m.opts.arrows_b if side else m.opts.arrows_a, xx + font.ADVANCE, 19)
        end = len(g.arrows)
        start = end - g.in_turn
        if end - start > 4:
            start = end - 4
        if self.calling:  # what the keys do now, in place of the turn's arrows
            fb.text("A=X hit", x - 2, 38, 1)
            fb.text("D=missed", x - 2, 47, 1)
            fb.fill_rect(x - 2, 55, 128 - x + 2, 9, 1)
            fb.text("#=off", x - 2, 56, 0)
            fb.text(digit(self.sel), x + 52, 56, 0)  # the square called at
        else:
            for j in range(start, end):
                r = j - start
                draw_token(fb, g.arrows[j], x + (r % 2) * 32, 38 + (r // 2) * 9)
            if self.picking:
                fb.text(_PICK_TEXT[self.pick], x - 2, 56, 1)
            elif self.sel:
                fb.text("sq", x, 56, 1)
                fb.text(digit(self.sel), x + 20, 56, 1)
        if self.msg:
            banner(fb, self.msg)


class Review(Screen):
    """The turn just shot, for checking before the next side shoots (* undoes its last
    arrow and reopens the turn). Any other key is the next turn's first key: reviewing
    costs no key press."""

    def key(self, kind, k):
        app = self.app
        if k == K.KSTAR or k == K.BACK:
            if kind == K.LONG:
                app.go(app.home)
                return
            app.go(app.play)
            app.play.shoot(UNDO)
            return
        app.go(app.play)
        app.play.key(kind, k)  # any other key starts the next turn with it: no extra press

    def draw(self, fb):
        app = self.app
        m = app.session.match
        g = m.game
        side = 1 - g.shooter()  # the turn just done (Game.turn_bounds()[-1], without the list)
        end = len(g.arrows)
        start = end - (m.opts.arrows_b if side else m.opts.arrows_a)
        fb.fill_rect(0, 0, 128, 9, 1)
        font_side = "A" if side == A else "B"
        fb.text(font_side, 1, 1, 0)
        fb.text(app.names[side][(m.archer_index(side) - 1) % len(m.archers[side])], 12, 1, 0)
        fb.text("turn", 94, 1, 0)
        if end - start > 5:
            start = end - 5
        for j in range(start, end):
            y = 11 + (j - start) * 9
            draw_token(fb, g.arrows[j], 2, y)
            fb.text(OUTCOMES[g.outcomes[j]], 34, y, 1)
        nxt = g.shooter()
        fb.hline(0, 54, 128, 1)
        fb.text("next", 0, 56, 1)
        fb.text("AB"[nxt], 40, 56, 1)
        fb.text(app.names[nxt][m.archer_index(nxt)], 56, 56, 1)


class GameOver(Screen):
    """A game's result and the match score; # goes on, * undoes the last arrow."""

    def key(self, kind, k):
        app = self.app
        k = nav(k)
        m = app.session.match
        if k == K.BACK:
            if kind == K.LONG:
                app.go(app.home)
                return
            app.go(app.play)
            app.play.shoot(UNDO)
        elif k == K.OK:
            if m.result() is not None:
                app.go(app.match_over)
            elif m.face.worn(m.opts):
                app.go(app.face)
            else:
                app.play.shoot(NEW_GAME)
                app.go(app.play)

    def draw(self, fb):
        m = self.app.session.match
        g = m.game
        title(fb, "Game %d of %d" % (len(m.games), m.opts.games))
        if g.winner == DRAW:
            font.glyph(fb, font.DASH, 4, 14)
            fb.text("draw", 18, 18, 1)
        else:
            side_letter(fb, g.winner, 4, 14)
            fb.text("wins", 18, 18, 1)
            who = self.app.names[g.winner]
            if who[0] != "AB"[g.winner]:  # named from the roster: say who
                fb.text(",".join(who)[:7], 18, 26, 1)  # 7 columns: the score is beside
        fb.text(g.reason or "", 4, 34, 1)
        xx = font.number(fb, m.wins[0], 76, 14)
        font.glyph(fb, font.DASH, xx, 14)
        font.number(fb, m.wins[1], xx + font.ADVANCE, 14)
        fb.text("arrows", 4, 44, 1)
        fb.text(num(len(g.arrows)), 60, 44, 1)
        fb.hline(0, 54, 128, 1)
        help_line(fb, self.app, "#=on  *=undo", "OK=on  back=undo")


class FacePrompt(Screen):
    """TTB-16: the paper face has had face_games games: put up a new one? Asked after a game
    when the match goes on (the next game starts from here), and when a match opens on a worn
    face (enter(): then before its first arrow, no game to start)."""

    def key(self, kind, k):
        app = self.app
        k = nav(k)
        if k == K.BACK and kind == K.LONG:
            app.go(app.home)  # as on the other match screens: the match stays open, Resume asks again
            return
        if k == K.OK:
            app.session.shoot(NEW_FACE)
        elif k != K.BACK:
            return
        m = app.session.match
        if m.game.over() and m.result() is None:
            app.play.shoot(NEW_GAME)
        app.go(app.play)

    def draw(self, fb):
        m = self.app.session.match
        title(fb, "New face?")
        fb.text("face has had", 4, 14, 1)
        font.number(fb, m.face.games, 4, 24)
        fb.text("games", 34, 30, 1)
        most = 0
        for i in range(9):
            if m.face.arrows[i] > m.face.arrows[most]:
                most = i
        fb.text("most: sq", 4, 44, 1)
        fb.text(digit(most + 1), 70, 44, 1)
        fb.hline(0, 54, 128, 1)
        help_line(fb, self.app, "#=new  *=later", "OK=new  back=old")


class MatchOver(Confirm):
    """The match result, confirmed by both sides in turn (A then B), then history."""

    def draw(self, fb):
        s = self.app.session
        m = s.match
        title(fb, "Match over")
        w = m.result()
        if w == DRAW:
            font.glyph(fb, font.DASH, 4, 13)
            fb.text("draw", 18, 17, 1)
        else:
            side_letter(fb, w, 4, 13)
            fb.text("wins", 18, 17, 1)
        xx = font.number(fb, m.wins[0], 76, 13)
        font.glyph(fb, font.DASH, xx, 13)
        font.number(fb, m.wins[1], xx + font.ADVANCE, 13)
        fb.text("A", 0, 33, 1)
        fb.text(self.app.names[0][0], 12, 33, 1)
        fb.text("*" if s.confirmed[0] else "", 120, 33, 1)
        fb.text("B", 0, 42, 1)
        fb.text(self.app.names[1][0], 12, 42, 1)
        fb.text("*" if s.confirmed[1] else "", 120, 42, 1)
        fb.hline(0, 54, 128, 1)
        if self.err:
            banner(fb, self.err)
        fb.text("AB"[0 if not s.confirmed[0] else 1], 0, 56, 1)
        help_line(fb, self.app, ": # to confirm", ": OK to confirm", 8)


__all__ = ("Play", "Review", "GameOver", "FacePrompt", "MatchOver", "draw_board", "enter", "wrap")
