"""History: the matches kept on the box, newest first, and one match in detail."""

from box.keys import BACK, DOWN, OK, UP
from box.session import from_header, result_text
from box.ui import Screen, menu, nav, num, title
from ttb.rules import Match, side_name


def _number(entry):
    """list_matches() may give numbers or dicts with a number."""
    if isinstance(entry, int):
        return entry
    if isinstance(entry, dict):
        return entry.get("number", entry.get("n"))
    return entry[0]


class History(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.numbers = []
        self.items = []
        self.sel = 0
        self.focus = None  # the match to select when opened (just confirmed)

    def open(self, arg=None):
        j = self.app.journal
        nums = [_number(e) for e in j.list_matches()]
        nums.sort()
        nums.reverse()
        self.numbers = nums
        self.items = []
        for n in nums:
            self.items.append(self._line(n))
        self.sel = 0
        if self.focus in nums:
            self.sel = nums.index(self.focus)
        self.focus = None

    def _line(self, n):
        try:
            h, events, extras = self.app.journal.read_match(n)
        except Exception:
            return "#%d unreadable" % n
        res = _result(h, events, extras)
        return "#%d %s" % (n, res)

    def key(self, kind, k):
        k = nav(k)
        n = len(self.items)
        if k == BACK:
            self.app.go(self.app.home)
        elif n == 0:
            return
        elif k == UP:
            self.sel = (self.sel - 1) % n
        elif k == DOWN:
            self.sel = (self.sel + 1) % n
        elif k == OK:
            self.app.go(self.app.detail, self.numbers[self.sel])

    def draw(self, fb):
        title(fb, "History")
        if not self.items:
            fb.text("no matches yet", 0, 20, 1)
        else:
            menu(fb, self.items, self.sel)


def _result(h, events, extras):
    r = extras.get("result") if isinstance(extras, dict) else None
    if r:
        return result_text(r.get("winner"), r.get("wins", (0, 0)))
    try:
        opts, archers, face = from_header(h)
        m = Match.replay(events, opts, archers, face)
        return result_text(m.result(), m.wins)
    except Exception:
        return "?"


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
            opts, archers, face = from_header(h)
            m = Match.replay(events, opts, archers, face)
            lines.append("A " + ",".join(archers[0]))
            lines.append("B " + ",".join(archers[1]))
            lines.append(_result(h, events, extras))
            for i in range(len(m.games)):
                g = m.games[i]
                w = side_name(g.winner) or "open"
                lines.append("g%d %s %s" % (i + 1, w, g.reason or ""))
            lines.append("%s mode, claim %d" % (opts.mode, opts.claim_a))
            d = h.get("distance")
            if d:
                lines.append("dist %d/%d %s" % (d[0], d[1], h.get("unit", "")))
            s = h.get("shaft_mm")
            if s:
                lines.append("shaft %s/%s" % (s[0], s[1]))
            lines.append("events " + num(len(events)))
        except Exception as e:
            lines.append("unreadable:")
            lines.append(str(e)[:16])
        self.n = n
        self.lines = lines
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
