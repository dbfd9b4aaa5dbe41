"""The app loop: keys -> screen -> rules core -> journal -> render.

    board.scan() --Debouncer--> key event --> screen.key() --> Session (Match + Journal)
                                                           --> screen.draw(fb) --> Display.show()

The board is a boards.base.Board (the contract: boards/pico.py, and vpico/board.py the
virtual one). Nothing here imports `machine`. In the steady state (arrows keyed on the play
screen) the loop allocates only what the rules core and the journal must: screens keep
their strings and buffers from open(), numbers are drawn from tables.

Idle: after `dim_s` seconds without a key the screen dims, after `sleep_s` it goes off
(defaults 30 s and 300 s: longer than a turn at the range, so the first key of a turn finds the
screen dimmed, and a key on a dimmed screen counts; docs/power.md). The key that wakes a dark
screen does nothing else (nobody saw what it would press), but for a digit on the play
screen: it only frames a square, which the screen then shows.
"""

import gc

from box import battery
from box.keys import BACK, DIGIT, DOWN, K2, K4, K6, K8, KSTAR, LEFT, RIGHT, UP, Debouncer, mask
from box.session import Session
from box.store import Store
from scorebox_core.games import drop

# Screens: attribute -> (module, class, group). A screen is loaded when first asked for
# (app.home, app.play ...); going to a screen of one group lets the other group's screens
# and modules go, so that only the code in use is in the heap (the menus while a match is
# shot, the match screens while in the menus). The MATCH group's screens are the game's own:
# its box surface's SCREENS (box/games), asked of the session's game.
MENU = 0
MATCH = 1
_SCREENS = {
    "home": ("box.home", "Home", MENU),
    "setup": ("box.setup", "NewMatch", MENU),
    "history": ("box.history", "History", MENU),
    "detail": ("box.history", "Detail", MENU),
    "storage": ("box.home", "Storage", MENU),
    "settings": ("box.home", "Settings", MENU),
    "msg": ("box.home", "Message", MENU),
}

AWAKE = 0
DIM = 1
ASLEEP = 2

DIM_LEVEL = 1

# The battery watch (docs/power.md): the thresholds per chemistry are box/battery.py's, the
# chemistry the `cells` setting (absent: pins.BATTERY's).
BAT_OK = 0
BAT_LOW = 1
BAT_EMPTY = 2
BAT_EVERY_MS = 10000  # a reading every 10 s; READINGS in a row past a threshold to get worse
BAT_READINGS = 3
BAT_HYSTERESIS = 150  # mV above a threshold to get better (new batteries, a charged cell)
EMPTY_SHOW_MS = 30000  # at EMPTY the message stays this long, then the panel off and deep sleep
QUIET_MS = 1000  # no key in use for this long: the box is quiet (App.quiet)


def _box_part(game):
    """The box's surface of game (box/games): the box's registry is imported with a match, not
    at boot (the heap at home, where a sync runs)."""
    from box.games import of

    return of(game)


class App:
    def __init__(self, board, journal=None, strict=False):
        self.board = board
        self.display = board.display
        self.fb = self.display.fb
        self.strict = strict  # tests: let an exception through instead of showing it
        self.store = Store(board.root)
        self.store.roster()  # read now, while the heap is whole (box/store.py)
        if journal is None:
            from box.journal import Journal

            journal = Journal(board.root)
        self.journal = journal
        self.recovery = journal.recover()
        self.session = Session(journal, self.store)
        # A press counts at its first edge (box/keys.py: eager down, deferred up): its
        # screen comes 20 ms sooner than after a full debounce; pins.py's
        # KEY_PRESS_MS = 20 filters a keypad that glitches.
        self.keys = Debouncer(
            long_keys=mask(KSTAR, BACK),
            repeat_keys=mask(UP, DOWN, LEFT, RIGHT, K2, K8, K4, K6),
            press_ms=board.press_ms,
        )
        self._later = []  # (fn, args) to run once the key's frame is sent: App.later()
        self.keys.reset(board.ms())
        self.names = (("A",), ("B",))
        self.space = None
        self.state = AWAKE
        self.last_key = board.ms()
        self._polled = self._used = self.last_key  # the last poll(); the last with a key in use
        self.events = 0  # key events handled (statistics)
        self.collect = True  # collect the heap after each key (tests switch it off to measure)
        self.battery = None  # (EMPTY, LOW, half, full) mV at VSYS: apply_settings()
        self.battery_state = BAT_OK
        self.battery_mv = 0
        self._bat = [0, 0]  # readings in a row past the next threshold, next reading at
        self.halted = False
        self._off_at = 0  # halted at EMPTY: when the panel goes off and the board deep-sleeps

        self.screen = None
        self._loaded = ([], [])  # the (attribute, module) of each loaded screen of MENU, MATCH
        self.apply_settings()
        if journal.open_match() is not None:
            self.resume()  # after a power cut the box comes back where it was
        elif self.session.resume_unconfirmed():
            self.resume()  # the result still waits for a side's confirmation
        else:
            self.go(self.home)
        self.render()
        # The storage figure walks the whole file system (os.statvfs: about 80 ms on the
        # emulated Pico with 1,000 matches kept, docs/sync.md): after the first frame, which
        # it changes only when storage is low.
        self.refresh_space()
        if self.space and self.space.get("warn"):
            self.render()

    # --- screens ---------------------------------------------------------------------
    def __getattr__(self, name):
        """A screen (app.home, app.play ...), loaded when first asked for."""
        got = _SCREENS.get(name)
        if got is not None:
            mod, cls, group = got
        else:
            game = self.session.game
            got = _box_part(game).SCREENS.get(name) if game is not None else None
            if got is None:
                raise AttributeError(name)
            mod, cls = got
            group = MATCH
        gc.collect()  # a module's code needs whole blocks: give it the heap's garbage first
        screen = getattr(__import__(mod, None, None, (cls,)), cls)(self)
        screen.group = group
        setattr(self, name, screen)
        self._loaded[group].append((name, mod))
        return screen

    def release(self, group):
        """Let a group's screens and their modules go."""
        loaded = self._loaded[group]
        if not loaded:
            return  # the usual case (going from screen to screen in one group): no work
        while loaded:
            name, mod = loaded.pop()
            if name in self.__dict__:
                setattr(self, name, None)  # MicroPython keeps a deleted attribute's value in its slot
                delattr(self, name)
            self.unload(mod)

    def unload(self, mod):
        """Let module mod go (it goes once nothing refers to it)."""
        drop(mod)

    def go(self, screen, arg=None):
        if self.screen is not None:
            self.screen.hide()
        self.screen = screen
        self.release(1 - screen.group)
        screen.open(arg)

    def message(self, text, then=None):
        self.go(self.msg, (text, then))

    def refresh_space(self):
        try:
            self.space = self.journal.space()
        except Exception:
            self.space = None

    def cells(self):
        """The battery's chemistry judged: the `cells` setting's, or pins.BATTERY's."""
        return battery.chemistry(self.store.get("cells"), self.board.battery_type)

    def apply_settings(self):
        self.battery = battery.thresholds(self.cells())
        if self.state == AWAKE:
            self.display.contrast(self.store.get("contrast"))

    def match_opened(self, skipped=0):
        """A match opened or resumed: its game's play module shows the screen it is at."""
        gc.collect()  # as for a screen: the module's code needs whole blocks
        __import__(_box_part(self.session.game).PLAY, None, None, ("enter",)).enter(self, skipped)

    def resume(self):
        """Open the journal's open match and show the screen it is at."""
        s = self.session
        if s.match is None and not s.resume():
            self.go(self.home)
            return
        self.match_opened(s.skipped)

    # --- the loop ----------------------------------------------------------------------
    def poll(self):
        """Sample the keys once; handle an event if one came. Returns the event or 0."""
        now = self._polled = self.board.ms()
        ev = self.keys.update(self.board.scan(), now)
        if ev:
            self.on_key(ev, now)
        else:
            self.idle(now)
        return ev

    def quiet(self):
        """No key down or settling at the last poll(), nor at any poll for QUIET_MS before it
        that was followed by this question (main.py asks after each): its loop then samples the
        keys every 20 ms, as the Pico does on battery, so that an idle box's CPU wakes a quarter
        as often (the 5 ms polls took about 10% of it on the emulated Pico, 22% on CircuitPython).
        The keys' hardware keeps each change's time (boards/keypad.py's rings, CircuitPython's
        keypad queue): a first press after a pause waits at most 15 ms more for its screen."""
        if not self.keys.idle():
            self._used = self._polled
            return False
        return self._polled - self._used >= QUIET_MS

    def wake(self, now):
        """The screen on at full contrast, as a key finds it; returns the state it was in."""
        self.last_key = now
        was = self.state
        if was != AWAKE:
            self.state = AWAKE
            self.display.power(True)
            self.display.contrast(self.store.get("contrast"))
        return was

    def on_key(self, ev, now):
        self.events += 1
        was = self.wake(now)
        if self.halted:  # battery empty: the message again, nothing more is written
            self._off_at = now + EMPTY_SHOW_MS
            return
        if was == ASLEEP and not (self.screen.frames_on_wake and DIGIT[ev & 31] > 0):
            return  # nobody saw the screen: only a digit on the play screen (it frames a square) counts
        try:
            self.screen.key(ev >> 5, ev & 31)
        except Exception as e:
            if self.strict:
                raise
            self.message("error: %s" % e, self.home)
        self.render()
        later = self._later
        while later:
            fn, args = later.pop(0)
            try:
                fn(*args)
            except Exception as e:
                if self.strict:
                    raise
                self.message("error: %s" % e, self.home)
                self.render()
        if self.collect:
            # Collect now, with the frame already sent and the archers busy shooting: garbage
            # freed early keeps the heap from fragmenting (the next arrow's list growth finds
            # room), and no collection lands in the middle of a key later.
            gc.collect()

    def later(self, fn, *args):
        """Run fn(*args) once the frame of the key being handled is sent: work that the
        screen need not wait for and that may be lost to a power cut (the roster's order
        after a match starts: a file rewritten, with a flash erase of 45 ms, or 400 ms at
        the chip's maximum, now and then). Never the journal's records: the screen shows
        only what is committed."""
        self._later.append((fn, args))

    def render(self):
        fb = self.fb
        fb.fill(0)
        try:
            self.screen.draw(fb)
        except Exception as e:
            if self.strict:
                raise
            fb.fill(0)
            fb.text("draw error", 0, 0, 1)
            fb.text(str(e)[:16], 0, 10, 1)
        if self.battery_state:  # a small empty battery, bottom right
            fb.fill_rect(114, 56, 14, 8, 0)
            fb.rect(114, 57, 12, 7, 1)
            fb.fill_rect(126, 59, 2, 3, 1)
            fb.fill_rect(116, 59, 2, 3, 1)
        self.display.show()

    def idle(self, now):
        if now >= self._bat[1]:
            self.check_battery(now)
        if self._off_at and now >= self._off_at and not self.on_usb():
            self.power_off()
        t = now - self.last_key
        st = self.store
        if self.state == AWAKE and st.get("dim_s") and t >= st.get("dim_s") * 1000:
            self.state = DIM
            self.display.contrast(DIM_LEVEL)
        if self.state == DIM and st.get("sleep_s") and t >= st.get("sleep_s") * 1000:
            self.state = ASLEEP
            self.display.power(False)

    def on_usb(self):
        return self.board.usb_powered()

    def battery_level(self, mv):
        t = self.battery
        return BAT_EMPTY if mv <= t[0] else BAT_LOW if mv <= t[1] else BAT_OK

    def check_battery(self, now):
        """Every BAT_EVERY_MS, unless on USB power. LOW: the mark on every screen. EMPTY
        (above the unsafe voltage, docs/power.md): the journal's file is closed (every
        record was already flushed) and the box stops taking keys until its batteries are
        changed; sync over USB still works. A sag while the flash or the screen draws
        current is not a flat battery: it takes BAT_READINGS readings in a row."""
        n = self._bat
        n[1] = now + BAT_EVERY_MS
        if self.on_usb():
            n[0] = 0
            return
        mv = self.battery_mv = self.board.battery_mv()
        was = self.battery_state
        lv = self.battery_level(mv)
        if lv > was:
            n[0] += 1
            if n[0] < BAT_READINGS:
                return
            self.battery_state = lv
        elif lv < was and self.battery_level(mv - BAT_HYSTERESIS) < was:
            self.battery_state = lv
        n[0] = 0
        if self.battery_state == was:
            return
        if self.battery_state == BAT_EMPTY and not self.halted:
            self.halted = True
            self.journal.close()
            self.wake(now)
            what = "charge the cell" if self.cells() == "lipo" else "change the cells"
            self.message("Battery empty. Every arrow is saved. Switch off and %s." % what)
            self._off_at = now + EMPTY_SHOW_MS
        self.render()

    def power_off(self):
        """EMPTY_SHOW_MS after EMPTY (never on USB power, where a PC may sync): the panel
        off and the board's deepest sleep, so that a box left on draws the least it can
        until it is switched off (docs/power.md). Every record is on the flash already and
        the journal's file closed. The Pico's deepsleep never returns: a key or USB power
        wakes it as a reset (boards/pico.py); where it returns, a key shows the message again."""
        self._off_at = 0
        self.state = ASLEEP
        self.display.power(False)
        self.board.deepsleep()

    def next_wake(self):
        """When poll() must run next even if no key changes (for an event-driven driver)."""
        w = self.keys.wake_at()
        st = self.store
        d = None
        if self.state == AWAKE and st.get("dim_s"):
            d = self.last_key + st.get("dim_s") * 1000
        elif self.state == DIM and st.get("sleep_s"):
            d = self.last_key + st.get("sleep_s") * 1000
        if w is None:
            return d
        if d is None:
            return w
        return w if w < d else d
