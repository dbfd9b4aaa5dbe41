"""New match: the rules (each game's presets, one list), the chosen game's rows, the
archers of its two sides, distances and shafts. The games come from the registry
(scorebox_core/games); each gives its rows, options and warning through the module its
box surface names as SETUP (box/games: box/games/ttb/setup.py ...), loaded with this screen.

Rows are picked with up/down (keypad 2/8) and changed with left/right (4/6); # on Start
opens the match. Names come from the roster kept on the box, the most recently used first
(a long roster stays quick to pick from), or the default A and B.
TTB-17: the distance and shaft diameter of each side go in the match header, and the box
warns when the shafts differ by more than 0.5 mm.
"""

from box.games import of as box_of
from box.games import package as box_package
from box.keys import BACK, DOWN, LEFT, LONG, OK, RIGHT, UP
from box.ui import Screen, menu, nav, title
from scorebox_core import games

NONE_NAME = "-"
TENTHS = 1  # Field.fmt: a whole number of tenths (4.0-12.0 mm)
ZERO_NONE = 2  # Field.fmt: 0 is "none" (no limit)


class Span:
    """The whole numbers lo..hi as a light sequence (no tuple of them kept in the heap)."""

    def __init__(self, lo, hi, step=1):
        self.lo = lo
        self.hi = hi
        self.step = step

    def __len__(self):
        return (self.hi - self.lo) // self.step + 1

    def __getitem__(self, i):
        return self.lo + i * self.step

    def __contains__(self, v):
        return isinstance(v, int) and self.lo <= v <= self.hi and (v - self.lo) % self.step == 0

    def index(self, v):
        return (v - self.lo) // self.step


class Names:
    """A side's choices: its own name (A, B or - for none), then the box's roster, read in
    place (a copy per row would cost the heap a tuple of the whole roster four times)."""

    def __init__(self, first, roster):
        self.first = first
        self.roster = roster

    def __len__(self):
        return len(self.roster) + 1

    def __getitem__(self, i):
        return self.first if i == 0 else self.roster[i - 1]

    def __contains__(self, v):
        return v == self.first or v in self.roster

    def index(self, v):
        return 0 if v == self.first else self.roster.index(v) + 1


def to_front(store, names):
    """Names just picked for a match move to the front of the box's roster: the setup
    screen offers the most recent archers first."""
    r = store.roster()
    front = [n for n in names if n in r]
    if front and r[: len(front)] != front:
        try:
            store.set_roster(front + [n for n in r if n not in front])
        except OSError:
            pass  # the flash is full: the order is a nicety, the match is not


class Field:
    def __init__(self, name, label, choices, fmt=0):
        self.name = name
        self.label = label
        self.choices = choices
        self.index = 0
        self.fmt = fmt  # how text() writes the value: as it is, TENTHS, ZERO_NONE

    def value(self):
        return self.choices[self.index]

    def set(self, value):
        if value in self.choices:
            self.index = self.choices.index(value)

    def step(self, d):
        self.index = (self.index + d) % len(self.choices)

    def text(self):
        v = self.value()
        if v is True:
            v = "on"
        elif v is False:
            v = "off"
        elif self.fmt == TENTHS:
            v = "%d.%d" % (v // 10, v % 10)
        elif self.fmt == ZERO_NONE and v == 0:
            v = "none"
        v = str(v)
        return "%-*s%s" % (15 - len(v), self.label, v)  # 15 columns: the scroll bar is beside


class NewMatch(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.fields = {}
        self.rows = []
        self.sel = 0
        self.games = []  # the registry's games (their surfaces), in order
        self.parts = {}  # game id -> its Setup, made when the game is first chosen

    def open(self, arg=None):
        roster = self.app.store.roster()
        f = {}  # type: dict
        self.games = games.every()
        presets = []
        for g in self.games:
            presets.extend(g.PRESETS)
        f["preset"] = Field("preset", "rules", presets)
        f["a1"] = Field("a1", "A", Names("A", roster))
        f["a2"] = Field("a2", "A 2nd", Names(NONE_NAME, roster))
        f["b1"] = Field("b1", "B", Names("B", roster))
        f["b2"] = Field("b2", "B 2nd", Names(NONE_NAME, roster))
        f["unit"] = Field("unit", "unit", ("yd", "m"))
        dist = Span(5, 70, 5)
        f["dist_a"] = Field("dist_a", "dist A", dist)
        f["dist_b"] = Field("dist_b", "dist B", dist)
        f["dist_a"].set(20)
        f["dist_b"].set(20)
        shafts = Span(40, 120)  # tenths of a mm, 4.0-12.0
        f["shaft_a"] = Field("shaft_a", "shaft A", shafts, TENTHS)
        f["shaft_b"] = Field("shaft_b", "shaft B", shafts, TENTHS)
        f["shaft_a"].set(70)  # the target was made for about 7 mm shafts
        f["shaft_b"].set(70)
        self.fields = f
        self.parts = {}
        self.sel = 0
        self._rows()

    def chosen(self):
        """(the chosen preset's game, its Setup), the Setup made when first asked for (its
        rows join the fields)."""
        preset = self.fields["preset"].value()
        for g in self.games:
            if preset in g.PRESETS:
                part = self.parts.get(g.ID)
                if part is None:
                    part = self.parts[g.ID] = __import__(box_of(g).SETUP, None, None, ("Setup",)).Setup(self.fields)
                return g, part
        raise ValueError(preset)

    def _rows(self):
        f = self.fields
        g, part = self.chosen()
        for name in ("a1", "a2", "b1", "b2"):  # the sides' letters are the game's
            side = g.SIDES[name[0] == "b"]
            f[name].label = side + f[name].label[1:]
            if name[1] == "1":
                f[name].choices.first = side
        rows = [f["preset"]]
        for name in part.rows(f["preset"].value()):
            rows.append(f[name])
        rows.append(None)  # Start
        self.rows = rows

    def archers(self):
        f = self.fields
        out = []
        for one, two in (("a1", "a2"), ("b1", "b2")):
            names = [f[one].value()]
            if f[two].value() != NONE_NAME and f[two].value() != names[0]:
                names.append(f[two].value())
            out.append(tuple(names))
        return tuple(out)

    def key(self, kind, k):
        k = nav(k)
        n = len(self.rows)
        row = self.rows[self.sel]
        if k == UP:
            self.sel = (self.sel - 1) % n
        elif k == DOWN:
            self.sel = (self.sel + 1) % n
        elif k in (LEFT, RIGHT) and row is not None:
            row.step(1 if k == RIGHT else -1)
            if row.name == "preset":
                self._rows()
        elif k == OK:
            if row is None:
                self.start()
            else:
                self.sel = n - 1  # OK on a row jumps to Start
        elif k == BACK and kind != LONG:
            self.app.go(self.app.home)

    def start(self):
        f = self.fields
        app = self.app
        g, part = self.chosen()
        preset = f["preset"].value()
        archers = self.archers()
        # The menus, the games' setup modules and the other games' modules go before the
        # match opens (heap): it holds its own game's modules alone.
        app.release(self.group)
        app.unload(box_of(g).SETUP)
        self.parts = {}
        for o in self.games:
            if o is not g:  # its box package, then its core's
                games.drop(box_package(o))
                games.forget((o.ID,))
        why = app.session.start(
            g,
            part.options(f, preset),
            archers,
            (f["dist_a"].value(), f["dist_b"].value()),
            f["unit"].value(),
            (f["shaft_a"].value(), f["shaft_b"].value()),
        )
        if why:
            app.message(why, app.home)
            return
        # After the play screen's frame (App.later): the roster's rewrite need not delay it.
        app.later(to_front, app.store, [n for side in archers for n in side])
        app.match_opened()

    def draw(self, fb):
        title(fb, "New match")
        items = []
        for r in self.rows:
            items.append("Start" if r is None else r.text())
        warn = self.chosen()[1].warning(self.fields)
        menu(fb, items, self.sel, rows=5 if warn else 6)
        if warn:
            fb.fill_rect(0, 55, 128, 9, 1)
            fb.text(warn, 0, 56, 0)
