"""New match: preset (standard, Hard 5, custom options), games, archers, distances, shafts.
The preset's last choice is the other game, Try-Tac-Toe: its shape values (TTT-4), move
limit (TTT-5) and players X and O (box/tttplay.py plays it).

Rows are picked with up/down (keypad 2/8) and changed with left/right (4/6); # on Start
opens the match. Names come from the roster kept on the box, the most recently used first
(a long roster stays quick to pick from), or the default A and B.
TTB-17: the distance and shaft diameter of each side go in the match header, and the box
warns when the shafts differ by more than 0.5 mm.
"""

from box.keys import BACK, DOWN, LEFT, LONG, OK, RIGHT, UP
from box.ui import Screen, menu, nav, title
from scorebox_core.match import TICTACBOW, TRYTACTOE
from scorebox_core.ttb.rules import HARD5, NET, Options

STANDARD = "standard"
HARD = "Hard 5"
CUSTOM = "custom"
TTT = "TryTacToe"  # after custom: Tic Tac BOW's choices keep their keys
_TTT_ROWS = ("triangle", "bar", "chevron", "moves")
DEFAULT = "auto"  # a shape's value set from the board (TTT-4)
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
        store.set_roster(front + [n for n in r if n not in front])


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
        elif self.name in ("rounds", "moves") and v == 0:
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
        roster = self.app.store.roster()
        f = {}
        f["preset"] = Field("preset", "rules", (STANDARD, HARD, CUSTOM, TTT))
        opts = Options()
        for name, label, choices in _CUSTOM:
            f[name] = Field(name, label, choices)
            f[name].set(getattr(opts, name))
        f["games"] = Field("games", "games", (1, 3, 5))
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
        ttt = f["preset"].value() == TTT
        for name in ("a1", "a2", "b1", "b2"):  # the sides are X and O in Try-Tac-Toe
            side = ("XO" if ttt else "AB")[name[0] == "b"]
            f[name].label = side + f[name].label[1:]
            if name[1] == "1":
                f[name].choices.first = side
        if ttt:
            rows.extend(self._ttt_fields())
        for name in ("games", "a1", "a2", "b1", "b2", "unit", "dist_a", "dist_b", "shaft_a", "shaft_b"):
            if not ttt or name[0] in "ab":
                rows.append(f[name])
        rows.append(None)  # Start
        self.rows = rows

    def _ttt_fields(self):
        """Try-Tac-Toe's rows, made when it is first chosen: each shape's value, `auto` the
        default set from the board's counts (TTT-4, docs/try-tac-toe.md), and the move
        limit per match (TTT-5, 0 = none). Its rules are not loaded in the menus (heap)."""
        f = self.fields
        if "moves" not in f:
            values = (DEFAULT,) + tuple(range(10))
            for name in _TTT_ROWS[:3]:
                f[name] = Field(name, name, values)
            f["moves"] = Field("moves", "moves", Span(0, 200, 10))
        return [f[name] for name in _TTT_ROWS]

    def shaft_gap(self):
        """Difference of the two shafts in tenths of a mm (TTB-17)."""
        f = self.fields
        return abs(f["shaft_a"].value() - f["shaft_b"].value())

    def options(self):
        f = self.fields
        preset = f["preset"].value()
        if preset == TTT:
            from scorebox_core.ttt.rules import Options as TttOptions

            topts = TttOptions()
            for name in _TTT_ROWS:
                if f[name].value() != DEFAULT:
                    topts.set(name, str(f[name].value()))
            return topts
        opts = Options()
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
        if f["preset"].value() == TTT:
            app.release(self.group)  # the menus go before Try-Tac-Toe's rules load (heap)
        why = app.session.start(
            self.options(),
            self.archers(),
            (f["dist_a"].value(), f["dist_b"].value()),
            f["unit"].value(),
            (f["shaft_a"].value(), f["shaft_b"].value()),
            TRYTACTOE if f["preset"].value() == TTT else TICTACBOW,
        )
        if why:
            app.message(why, app.home)
            return
        try:
            to_front(app.store, [n for side in self.archers() for n in side])
        except OSError:
            pass  # the flash is full: the order is a nicety, the match is not
        if app.session.ttt:
            app.ttt_play.enter()  # box/tttplay.py
        else:
            app.match_opened()

    def draw(self, fb):
        title(fb, "New match")
        items = []
        for r in self.rows:
            items.append("Start" if r is None else r.text())
        warn = self.fields["preset"].value() != TTT and self.shaft_gap() > 5  # shafts are hidden for TTT
        menu(fb, items, self.sel, rows=5 if warn else 6)
        if warn:  # TTB-17
            g = self.shaft_gap()
            fb.fill_rect(0, 55, 128, 9, 1)
            fb.text("! shafts %d.%dmm" % (g // 10, g % 10), 0, 56, 0)
