"""Keys: debounce, long press and auto-repeat as one small pure state machine.

The board samples its keypad (or buttons) and feeds `update(raw, now)` with the key it
sees down (a key code, or NONE) and a monotonic time in ms. A key counts as pressed once
the raw reading has been stable for `press_ms` from a clean release (`stable_ms` by default),
and as let go, or changed for another, once stable for `stable_ms` (switch bounce is a few
ms). `update` returns one event, a small int (no heap object per key): `kind << 5 | key`.

The app uses the board's `press_ms` (pins.py's KEY_PRESS_MS, 0 by default): a press counts
at its first edge (eager on the way down, deferred on the way up, as QMK's
asym_eager_defer_pk): bounce after the edge, and chatter
while the key is held, are not a release until the reading stays up `stable_ms`, so they
give nothing, and the key's screen comes 20 ms sooner. A glitch of a single
reading then counts as a press: for a keypad that has them, pins.py sets KEY_PRESS_MS = 20.

- Most keys give PRESS as soon as they are stably down.
- Keys in `long_keys` (a bit mask) have two meanings: PRESS on release when held less
  than `long_ms`, LONG once when held that long (and nothing on release then).
- Keys in `repeat_keys` give PRESS, then REPEAT every `repeat_ms` after `delay_ms`.

No I/O and no clock of its own, so it is tested on its own and the virtual board can run it
event by event: `wake_at()` says when a call matters next even if the reading stays put.
"""

try:
    from micropython import const
except ImportError:  # CPython
    from scorebox_core.compat import const


NONE = -1
NOTHING = 0
PRESS = const(1)
LONG = const(2)
REPEAT = const(3)

# Key codes. The 4x4 keypad in reading order (docs/keys.md), then the six buttons.
K1 = const(0)
K2 = const(1)
K3 = const(2)
KA = const(3)
K4 = const(4)
K5 = const(5)
K6 = const(6)
KB = const(7)
K7 = const(8)
K8 = const(9)
K9 = const(10)
KC = const(11)
KSTAR = const(12)
K0 = const(13)
KHASH = const(14)
KD = const(15)
UP = const(16)
DOWN = const(17)
LEFT = const(18)
RIGHT = const(19)
OK = const(20)
BACK = const(21)

# One name per key code, as used in key scripts and the docs.
NAMES = ("1", "2", "3", "A", "4", "5", "6", "B", "7", "8", "9", "C", "*", "0", "#", "D") + (
    "up",
    "down",
    "left",
    "right",
    "ok",
    "back",
)

# Key code -> digit for the digit keys, -1 for the others.
DIGIT = (1, 2, 3, -1, 4, 5, 6, -1, 7, 8, 9, -1, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1)


def code(name):
    """The key code for a name from NAMES, or NONE."""
    for i in range(len(NAMES)):
        if NAMES[i] == name:
            return i
    return NONE


def kind(ev):
    return ev >> 5


def key(ev):
    return ev & 31


def mask(*keys):
    m = 0
    for k in keys:
        m |= 1 << k
    return m


class Debouncer:
    def __init__(
        self, stable_ms=20, long_ms=800, delay_ms=500, repeat_ms=150, long_keys=0, repeat_keys=0, press_ms=None
    ):
        self.stable_ms = stable_ms
        self.press_ms = stable_ms if press_ms is None else press_ms
        self.long_ms = long_ms
        self.delay_ms = delay_ms
        self.repeat_ms = repeat_ms
        self.long_keys = long_keys
        self.repeat_keys = repeat_keys
        self.reset(0)

    def reset(self, now):
        self._raw = NONE  # last raw reading
        self._since = now  # when the raw reading last changed
        self._key = NONE  # the debounced key
        self._t0 = now  # when the debounced key went down
        self._long_done = False
        self._next = now  # next auto-repeat
        self._events = []  # events found and not returned yet, oldest first

    def down(self):
        """The debounced key held now, or NONE."""
        return self._key

    def idle(self):
        """No key down, none settling, no event waiting."""
        return self._raw == NONE and self._key == NONE and not self._events

    def update(self, raw, now):
        """The next event, NOTHING when none. A reading that changes counts for what it did
        since the last call too: events due while it held (its press, a long press, repeats)
        come first. A board that was not read for a while (boards/pico.py after the flash
        stalled the CPU) calls once for each change it saw, at the change's time."""
        ev = self._events
        if raw != self._raw:
            w = self._due()
            while w is not None and w <= now:
                self._step(self._raw, w)
                w = self._due()
            self._raw = raw
            self._since = now
        self._step(raw, now)
        return ev.pop(0) if ev else NOTHING

    def _step(self, raw, now):
        """The events of reading raw at now (raw held since self._since), queued."""
        ev = self._events
        k = self._key
        if raw != k:
            if now - self._since < self._hold():
                return
            if k != NONE and self.long_keys >> k & 1 and not self._long_done:
                ev.append(PRESS << 5 | k)  # a short press of a two-meaning key counts on release
            self._key = raw
            if raw != NONE:
                self._t0 = now
                self._long_done = False
                self._next = now + self.delay_ms
                if not self.long_keys >> raw & 1:
                    ev.append(PRESS << 5 | raw)
            return
        if k == NONE:
            return
        if self.long_keys >> k & 1:
            if not self._long_done and now - self._t0 >= self.long_ms:
                self._long_done = True
                ev.append(LONG << 5 | k)
        elif self.repeat_keys >> k & 1 and now >= self._next:
            self._next += self.repeat_ms
            ev.append(REPEAT << 5 | k)

    def wake_at(self):
        """The time at which update() must be called next even if the reading does not
        change, or None when only a change of the reading matters."""
        if self._events:
            return self._since
        return self._due()

    def _hold(self):
        """How long the reading must stay before it counts: a press from no key down, or any
        other change (a release, another key)."""
        return self.press_ms if self._key == NONE else self.stable_ms

    def _due(self):
        k = self._key
        if self._raw != k:
            return self._since + self._hold()
        if k == NONE:
            return None
        if self.long_keys >> k & 1:
            return None if self._long_done else self._t0 + self.long_ms
        if self.repeat_keys >> k & 1:
            return self._next
        return None
