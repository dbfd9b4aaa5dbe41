"""New match: preset (standard, Hard 5, custom options), games, archers, distances, shafts.

Rows are picked with up/down (keypad 2/8) and changed with left/right (4/6); # on Start
opens the match. Names come from the roster kept on the box, or the default A and B.
TTB-17: the distance and shaft diameter of each side go in the match header, and the box
warns when the shafts differ by more than 0.5 mm.
"""

from box.keys import BACK, DOWN, LEFT, LONG, OK, RIGHT, UP
from box.ui import Screen, menu, nav, title
from scorebox_core.ttb.rules import HARD5, NET, Options

STANDARD = "standard"
HARD = "Hard 5"
CUSTOM = "custom"
NONE_NAME = "-"


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


# Option rows shown for a custom preset: option name, label, choices.
_CUSTOM = (
    ("mode", "mode", (NET, HARD5)),
    ("claim_a", "claim A", Span(1, 15)),
    ("claim_b", "claim B", Span(1, 15)),
    ("arrows_a", "arrows A", Span(1, 6)),
    ("arrows_b", "arrows B", Span(1, 6)),
    ("flips", "flips", (0, 1, 2, 3)),
    ("equal_turns", "equal", (True, False)),
    ("rounds", "rounds", Span(0, 30)),
    ("face_games", "face", Span(1, 9)),
)


class Field:
    def __init__(self, name, label, choices, index=0):
        self.name = name
        self.label = label
        self.choices = choices
        self.index = index

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
        elif self.name in ("shaft_a", "shaft_b"):
            v = "%d.%d" % (v // 10, v % 10)
        elif self.name == "rounds" and v == 0:
            v = "none"
        v = str(v)
        return "%-*s%s" % (15 - len(v), self.label, v)  # 15 columns: the scroll bar is beside


class NewMatch(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.fields = {}
        self.rows = []
        self.sel = 0

    def open(self, arg=None):
        roster = tuple(self.app.store.roster())
        f = {}
        f["preset"] = Field("preset", "rules", (STANDARD, HARD, CUSTOM))
        opts = Options()
        for name, label, choices in _CUSTOM:
            f[name] = Field(name, label, choices)
            f[name].set(getattr(opts, name))
        f["games"] = Field("games", "games", (1, 3, 5))
        f["a1"] = Field("a1", "A", ("A",) + roster)
        f["a2"] = Field("a2", "A 2nd", (NONE_NAME,) + roster)
        f["b1"] = Field("b1", "B", ("B",) + roster)
        f["b2"] = Field("b2", "B 2nd", (NONE_NAME,) + roster)
        f["unit"] = Field("unit", "unit", ("yd", "m"))
        dist = Span(5, 70, 5)
        f["dist_a"] = Field("dist_a", "dist A", dist)
        f["dist_b"] = Field("dist_b", "dist B", dist)
        f["dist_a"].set(20)
        f["dist_b"].set(20)
        shafts = Span(40, 120)  # tenths of a mm, 4.0-12.0
        f["shaft_a"] = Field("shaft_a", "shaft A", shafts)
        f["shaft_b"] = Field("shaft_b", "shaft B", shafts)
        f["shaft_a"].set(70)  # the target was made for about 7 mm shafts
        f["shaft_b"].set(70)
        self.fields = f
        self.sel = 0
        self._rows()

    def _rows(self):
        f = self.fields
        rows = [f["preset"]]
        if f["preset"].value() == CUSTOM:
            for name, _, _ in _CUSTOM:
                rows.append(f[name])
        for name in ("games", "a1", "a2", "b1", "b2", "unit", "dist_a", "dist_b", "shaft_a", "shaft_b"):
            rows.append(f[name])
        rows.append(None)  # Start
        self.rows = rows

    def shaft_gap(self):
        """Difference of the two shafts in tenths of a mm (TTB-17)."""
        f = self.fields
        return abs(f["shaft_a"].value() - f["shaft_b"].value())

    def options(self):
        f = self.fields
        opts = Options()
        preset = f["preset"].value()
        if preset == HARD:
            opts.mode = HARD5
        elif preset == CUSTOM:
            for name, _, _ in _CUSTOM:
                setattr(opts, name, f[name].value())
        opts.games = f["games"].value()
        return opts

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
        why = app.session.start(
            self.options(),
            self.archers(),
            (f["dist_a"].value(), f["dist_b"].value()),
            f["unit"].value(),
            (f["shaft_a"].value(), f["shaft_b"].value()),
        )
        if why:
            app.message(why, app.home)
            return
        app.match_opened()

    def draw(self, fb):
        title(fb, "New match")
        items = []
        for r in self.rows:
            items.append("Start" if r is None else r.text())
        warn = self.shaft_gap() > 5
        menu(fb, items, self.sel, rows=5 if warn else 6)
        if warn:  # TTB-17
            g = self.shaft_gap()
            fb.fill_rect(0, 55, 128, 9, 1)
            fb.text("! shafts %d.%dmm" % (g // 10, g % 10), 0, 56, 0)
