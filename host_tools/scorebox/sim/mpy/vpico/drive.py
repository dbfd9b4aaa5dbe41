"""Driving the app on the virtual board: key presses in virtual time, and key scripts.

Time is virtual and event-driven: the driver moves the clock straight to the next moment
that matters (a key going down or up, the debouncer's deadlines, the dim/sleep timers)
and polls the app there, so a 100,000-key monkey test runs in seconds while the app sees
exactly what a 5 ms polling loop on a board would.

Key scripts are read by vpico/keyscript.py.
"""

from box.keys import NONE, code

HOLD_MS = 80  # a brisk press
GAP_MS = 120  # between presses
LONG_MS = 1000  # a held key


class Driver:
    def __init__(self, app, board, on_frame=None):
        self.app = app
        self.board = board
        self.on_frame = on_frame
        self.frames = 0
        self.presses = 0
        board.panel.changed = True  # the first frame: the screen as booted
        self._frame()

    def _frame(self):
        p = self.board.panel
        if p.changed:
            p.changed = False
            self.frames += 1
            if self.on_frame:
                self.on_frame(p)

    def poll(self):
        ev = self.app.poll()
        self._frame()
        return ev

    def advance(self, ms):
        """Let ms pass, polling the app at every moment that matters."""
        clock = self.board.clock
        end = clock.now + ms
        guard = 0
        while True:
            w = self.app.next_wake()
            if w is None or w > end:
                break
            if w > clock.now:
                clock.now = w
            else:
                guard += 1
                if guard > 1000:
                    raise RuntimeError("the app asks to be polled again and again at %d" % clock.now)
            self.poll()
        clock.now = end

    def press(self, key, hold=HOLD_MS, gap=GAP_MS):
        """Press key (a code from box.keys) for hold ms, then leave gap ms before the next."""
        b = self.board
        b.raw = key
        self.presses += 1
        self.poll()
        self.advance(hold)
        b.raw = NONE
        self.poll()
        self.advance(gap)

    def long(self, key):
        self.press(key, LONG_MS)

    def play(self, steps):
        """Run parsed key-script steps."""
        for k, ms in steps:
            if k == NONE:
                self.advance(ms)
            else:
                self.press(k, ms)

    def keys(self, text):
        """Press keys named in a short string: '5A5B' (one character per key), spaces skipped."""
        for ch in text:
            if ch != " ":
                self.press(code(ch))
