"""History: the matches kept on the box, newest first, and one match in detail. A match's
game (scorebox_core/games) tells its result's score; the module its box surface
(box/games) names as HISTORY gives its detail and the result of a match still open, loaded only for those."""

from box.games import of as box_of
from box.keys import BACK, DOWN, OK, UP
from box.ui import Screen, menu, nav, title, wrap
from scorebox_core import games
from scorebox_core.match import archers_of, result_text


def _number(entry):
    """list_matches() may give numbers or dicts with a number."""
    if isinstance(entry, int):
        return entry
    if isinstance(entry, dict):
        return entry.get("number", entry.get("n"))
    return entry[0]


class History(Screen):
    """Matches newest first. Only the rows on screen are read from the journal (a box
    holds hundreds of matches; reading them all would not fit in the heap)."""

    ROWS = 6

    def __init__(self, app):
        super().__init__(app)
        self.numbers = []
        self.sel = 0
        self.top = 0
        self.cache = {}  # match number -> its line, for the rows on screen
        self.focus = None  # the match to select when opened (just confirmed)

    def open(self, arg=None):
        j = self.app.journal
        nums = [_number(e) for e in j.list_matches()]
        nums.reverse()
        self.numbers = nums
        self.cache = {}
        self.sel = 0
        if self.focus in nums:
            self.sel = nums.index(self.focus)
        self.top = max(0, self.sel - self.ROWS + 1)
        self.focus = None

    def hide(self):
        self.cache = {}
        self.numbers = []

    def _line(self, n):
        line = self.cache.get(n)
        if line is None:
            try:
                h, events, extras = self.app.journal.read_match(n)
                line = "#%d %s" % (n, _result(self.app, h, events, extras, True))
            except Exception:
                line = "#%d unreadable" % n
            self.cache[n] = line
        return line

    def key(self, kind, k):
        k = nav(k)
        n = len(self.numbers)
        if k == BACK:
            self.app.go(self.app.home)
            return
        if n == 0:
            return
        if k == UP:
            self.sel = (self.sel - 1) % n
        elif k == DOWN:
            self.sel = (self.sel + 1) % n
        elif k == OK:
            self.app.go(self.app.detail, self.numbers[self.sel])
            return
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + self.ROWS:
            self.top = self.sel - self.ROWS + 1
        keep = self.numbers[self.top : self.top + self.ROWS]
        for m in list(self.cache):
            if m not in keep:
                del self.cache[m]

    def draw(self, fb):
        title(fb, "History")
        if not self.numbers:
            fb.text("no matches yet", 0, 20, 1)
            return
        items = [self._line(n) for n in self.numbers[self.top : self.top + self.ROWS]]
        menu(fb, items, self.sel - self.top)
        if len(self.numbers) > self.ROWS:
            n = len(self.numbers)
            h = max(4, 54 * self.ROWS // n)
            fb.fill_rect(126, 10 + (54 - h) * self.top // max(1, n - self.ROWS), 2, h, 1)


def _part(app, g, fn, *args):
    """fn of game g's history module (loaded for this call only: the list's rows rarely
    need it)."""
    mod = box_of(g).HISTORY
    try:
        return getattr(__import__(mod, None, None, (fn,)), fn)(*args)
    finally:
        app.unload(mod)


def _result(app, h, events, extras, short=False):
    """'Ann wins 2-1' where the winning side is one named archer, else 'A wins 2-1'; short
    (a row of the list): the name and score only, 'Ann 2-1', to fit the row. The score is
    the game's (Tic Tac BOW: games won; Try-Tac-Toe: the game score, TTT-6)."""
    r = extras.get("result") if isinstance(extras, dict) else None
    try:
        g = games.of(h)
        archers = archers_of(h)
        if not r:  # an open match: its game's rules fold it
            r, archers = _part(app, g, "open_result", h, events)
        return _text(r, archers, g.SIDES, r[g.SCORE], short)
    except Exception:
        return "?"


def _text(r, archers, sides, wins, short):
    w = r.get("winner")
    side = sides.find(w) if isinstance(w, str) and len(w) == 1 else -1
    if side >= 0 and len(archers[side]) == 1 and archers[side][0] != sides[side]:  # a team: its letter
        if short:
            return "%s %d-%d" % (archers[side][0][:6], wins[0], wins[1])
        w = archers[side][0][:6]
    return result_text(w, wins)


class Detail(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.lines = []
        self.top = 0

    def open(self, arg=None):
        n = arg
        lines = []
        try:
            h, events, extras = self.app.journal.read_match(n)
            lines = _part(self.app, games.of(h), "lines", h, events, extras, _result(self.app, h, events, extras))
        except Exception as e:
            lines.append("unreadable:")
            lines.append(str(e)[:16])
        self.n = n
        self.lines = []
        for line in lines:  # 16 columns: a long line goes on, it is not cut short
            self.lines += wrap(line)
        self.top = 0

    def key(self, kind, k):
        k = nav(k)
        if k == UP and self.top:
            self.top -= 1
        elif k == DOWN and self.top + 6 < len(self.lines):
            self.top += 1
        elif k in (BACK, OK):
            self.app.go(self.app.history)

    def draw(self, fb):
        title(fb, "Match #%d" % self.n)
        for i in range(6):
            if self.top + i < len(self.lines):
                fb.text(self.lines[self.top + i], 0, 11 + 9 * i, 1)
