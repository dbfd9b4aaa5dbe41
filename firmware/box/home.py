"""Home, storage and battery, settings, and a message screen.

A match opened by mistake (wrong archers or rules) is abandoned from Home: offered only
while nothing in it is in effect (nothing keyed, or every entry undone), in both games.
"""

from box import battery
from box.keys import BACK, DOWN, LEFT, LONG, OK, RIGHT, UP
from box.ui import Screen, banner, help_line, menu, nav, num, title, wrap
from scorebox_core.match import effective

NEW = "New match"
RESUME = "Resume match"
ABANDON = "Abandon match"
HISTORY = "History"
STORAGE = "Storage+battery"
SETTINGS = "Settings"


class Home(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.sel = 0
        self.items = ()
        self.ask = None  # (match number, item chosen) while asking whether to abandon it

    def open(self, arg=None):
        app = self.app
        o = app.journal.open_match()
        items = (NEW, HISTORY, STORAGE, SETTINGS)
        if o is not None and not effective(o[2]):
            items = (RESUME, ABANDON) + items
        elif o is not None or app.session.match is not None:
            items = (RESUME,) + items
        self.items = items
        self.sel = 0
        self.ask = None

    def key(self, kind, k):
        k = nav(k)
        if self.ask:
            if k == OK:
                self.abandon()
            elif k == BACK:
                self.ask = None  # keep it
            return
        n = len(self.items)
        if k == UP:
            self.sel = (self.sel - 1) % n
        elif k == DOWN:
            self.sel = (self.sel + 1) % n
        elif k == OK:
            app = self.app
            item = self.items[self.sel]
            o = app.journal.open_match()
            if (item == NEW or item == ABANDON) and o is not None and not effective(o[2]):
                self.ask = (o[0], item)
            elif item == NEW:
                if app.session.match is not None or o is not None:
                    app.message("A match is open: resume it and finish it first.", app.home)
                else:
                    app.go(app.setup)
            elif item == RESUME:
                app.resume()
            elif item == HISTORY:
                app.go(app.history)
            elif item == STORAGE:
                app.go(app.storage)
            else:
                app.go(app.settings)

    def abandon(self):
        """Finish the open match as abandoned (docs/journal.md). Only a match with nothing in
        effect is offered, so no arrow or move is lost; the box writes both sides'
        confirmations with it (there is no result to agree on), so that it neither waits for
        them at boot nor is held back from the PC. Then New match starts the next."""
        app = self.app
        item = self.ask[1]
        self.ask = None
        j = app.journal
        j.finish({"abandoned": True})
        app.session.close()  # first: should a confirmation fail, the match is closed all the same
        j.confirm(0)
        j.confirm(1)
        app.go(app.setup if item == NEW else app.home)

    def draw(self, fb):
        title(fb, "Scorebox")
        menu(fb, self.items, self.sel)
        app = self.app
        sp = app.space
        if sp and sp.get("warn"):
            fb.fill_rect(0, 55, 128, 9, 0)
            fb.text("storage low!", 0, 56, 1)
        if self.ask:
            keys = "OK=abandon back=keep" if app.board.layout == "buttons" else "#=abandon *=keep"
            banner(fb, "Abandon match %d? Nothing in it counts. %s" % (self.ask[0], keys))


class Storage(Screen):
    def key(self, kind, k):
        if nav(k) in (BACK, OK):
            self.app.go(self.app.home)

    def open(self, arg=None):
        self.app.refresh_space()

    def draw(self, fb):
        app = self.app
        title(fb, "Storage+battery")
        sp = app.space or {}
        fb.text("used", 0, 12, 1)
        fb.text(num(sp.get("percent_full", 0)) + "%", 64, 12, 1)
        fb.text("free KB", 0, 21, 1)
        fb.text(num(sp.get("free", 0) // 1024), 64, 21, 1)
        fb.text("matches", 0, 30, 1)
        fb.text("~" + num(sp.get("matches_left", 0)), 64, 30, 1)
        if sp.get("warn"):
            fb.text("sync to PC soon", 0, 35, 1)
        mv = app.board.battery_mv()
        fb.text("battery", 0, 44, 1)  # on VSYS (ADC3): App.check_battery
        pc = "USB" if app.on_usb() else "%d%%" % battery.percent(mv, app.battery)  # a rough estimate
        fb.text("%d.%02d V  %s" % (mv // 1000, mv % 1000 // 10, pc), 0, 54, 1)


# Settings: name, label, choices.
_SETTINGS = (
    ("dim_s", "Dim after s", (10, 20, 30, 60, 120, 300)),
    ("sleep_s", "Off after s", (30, 60, 120, 300, 600, 0)),
    ("contrast", "Contrast", (32, 96, 160, 255)),
    ("sound", "Sound", (True, False)),
    ("cells", "Cells", battery.CHOICES),  # absent: pins.BATTERY's (App.cells)
)


class Settings(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.sel = 0

    def open(self, arg=None):
        self.sel = 0

    def key(self, kind, k):
        k = nav(k)
        st = self.app.store
        if k == UP:
            self.sel = (self.sel - 1) % len(_SETTINGS)
        elif k == DOWN:
            self.sel = (self.sel + 1) % len(_SETTINGS)
        elif k in (LEFT, RIGHT):
            name, _, choices = _SETTINGS[self.sel]
            cur = st.get(name)
            if cur is None and name == "cells":
                cur = self.app.cells()
            i = choices.index(cur) if cur in choices else 0
            i = (i + (1 if k == RIGHT else -1)) % len(choices)
            st.set(name, choices[i])
            self.app.apply_settings()
        elif k in (BACK, OK):
            st.save()
            self.app.go(self.app.home)

    def draw(self, fb):
        title(fb, "Settings")
        st = self.app.store
        items = []
        for name, label, _ in _SETTINGS:
            v = st.get(name)
            if name == "cells":
                v = battery.LABELS[self.app.cells()]
            elif v is True or v is False:
                v = "on" if v else "off"
            else:
                v = "never" if (name == "sleep_s" and v == 0) else num(v)
            items.append("%-*s%s" % (15 - len(v), label, v))
        menu(fb, items, self.sel)
        help_line(fb, self.app, "4/6 change", "< > change")


class Message(Screen):
    """A sentence and OK: where the box cannot do what was asked, it says why."""

    def __init__(self, app):
        super().__init__(app)
        self.text = ""
        self.then = None

    def open(self, arg=None):
        self.text, self.then = arg

    def key(self, kind, k):
        k = nav(k)
        if k in (OK, BACK) and kind != LONG:
            self.app.go(self.then or self.app.home)

    def draw(self, fb):
        title(fb, "Scorebox")
        lines = wrap(self.text)[:5]
        for i in range(len(lines)):
            fb.text(lines[i], 0, 12 + 9 * i, 1)
        if not self.app.halted:  # halted (battery empty): no key is taken
            help_line(fb, self.app, "#=ok", "OK")
