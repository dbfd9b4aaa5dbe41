"""The key's frame sooner (issue 22, run by tests/both/test_app_key_latency.py), on the virtual
Pico with the app's own debouncer, in both games:
- a press counts at its first edge: the poll that first reads the key down sends its frame
  (before, 20 ms later); chatter while it is held gives no second press;
- the first frame at boot goes out before the storage figure's walk of the file system;
- a board whose pins.py says KEY_PRESS_MS = 20 takes a press only once it read down 20 ms;
- the key that starts a match sends the play screen's frame with the match already in the
  journal, and only then rewrites the roster's order (App.later): its flash write is not in
  the key's time.
Prints `ALL OK`, or the checks that failed and exits with status 1 (tests/mpy/verdict.py)."""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

from verdict import done, want

from box.app import App
from box.keys import NONE, code
from scorebox_core.journal import Reader
from vpico.board import Board
from vpico.drive import Driver

ROSTER = ["Ann", "Bob", "Cat", "Dan"]
# From Home to the Start key's last press, each game with Ann against Cat (the demo's keys for
# Tic Tac BOW; Try-Tac-Toe's rows as tests/mpy/app_ttt_screens.py keys them).
GAMES = (
    ("Tic Tac BOW", "# 8 8 6 8 8 6 6 6 # #"),
    ("Try-Tac-Toe", "# 4 8 8 8 8 8 6 8 8 6 6 6 # #"),
)


def roster_on_flash(b):
    with open(b.root + "/roster.txt") as f:
        return f.read().split()


def first_edge(name, b, app, d):
    """A press is taken by the poll that reads its first edge, and sends its frame."""
    was, frames = app.events, d.frames
    b.raw = code("#")  # Home: New match
    d.poll()
    want(app.events == was + 1, "%s: the press counted at its first edge" % name)
    want(d.frames == frames + 1 and app.screen is app.setup, "%s: its frame sent at its first edge" % name)
    for t in (3, 6, 30):  # the contact chatters while held (up 1-19 ms): no release, no second press
        d.advance(t)
        b.raw = NONE
        d.poll()
        d.advance(t if t < 20 else 1)
        b.raw = code("#")
        d.poll()
    want(app.events == was + 1, "%s: chatter while held is one press (%d events)" % (name, app.events - was))
    b.raw = NONE
    d.poll()
    d.advance(120)
    want(app.events == was + 1 and app.keys.down() == NONE, "%s: let go, no event" % name)


def start_match(name, keys, b, app, d):
    """The Start key: its frame goes out with the match in the journal and the old roster."""
    presses = keys.split()
    for k in presses[:-1]:
        d.press(code(k))
    seen = []  # at each panel write of the Start key: (the roster on flash, match open in the journal)
    write = b.panel.write

    def watched(page, col, data):
        r = Reader(b.root)
        r.recover()
        seen.append((roster_on_flash(b), r.open_match() is not None))
        write(page, col, data)

    b.panel.write = watched
    d.press(code(presses[-1]))
    b.panel.write = write
    want(app.screen is not app.setup and app.session.match is not None, "%s: the match started" % name)
    want(app.session.header["archers"] == [["Ann"], ["Cat"]], "%s: Ann against Cat" % name)
    want(len(seen) > 0, "%s: the Start key sent a frame" % name)
    if seen:
        want(
            seen[0] == (ROSTER, True),
            "%s: the first frame's bytes with the match committed, before the roster: %r" % (name, seen[0]),
        )
    want(roster_on_flash(b) == ["Ann", "Cat", "Bob", "Dan"], "%s: the roster's new order after the frame" % name)
    want(app.store.roster() == ["Ann", "Cat", "Bob", "Dan"], "%s: and in the store" % name)


def filtered(path):
    """A board whose pins.py says KEY_PRESS_MS = 20 (a keypad that glitches): a reading down
    for one scan is no press; one down for 20 ms is."""
    b = Board(path=path)
    b.press_ms = 20
    app = App(b, strict=True)
    d = Driver(app, b)
    was = app.events
    b.raw = code("#")
    d.poll()
    d.advance(1)
    b.raw = NONE
    d.poll()
    d.advance(120)
    d.poll()
    want(app.events == was and app.screen is app.home, "a 1 ms glitch is no press at KEY_PRESS_MS = 20")
    b.raw = code("#")
    d.poll()
    want(app.events == was, "not at its first edge either")
    d.advance(25)
    d.poll()
    want(app.events == was + 1 and app.screen is app.setup, "a key held 20 ms is a press")


def boot_frame_first(path):
    """The box's first frame goes out before the storage figure's walk of the file system
    (os.statvfs, about 140 ms on the Pico once a match is kept): Home shows it only when low."""
    from box.journal import Journal

    b = Board(path=path)
    j = Journal(b.root)
    writes = []
    space = j.space
    j.space = lambda: (writes.append(b.panel.bytes_in), space())[1]
    App(b, journal=j, strict=True)
    want(writes and writes[0] > 0, "boot: the first frame before the storage walk: %r" % writes)


def main(path):
    boot_frame_first(path + ".boot")
    filtered(path + ".filtered")
    for i, (name, keys) in enumerate(GAMES):
        b = Board(path="%s.%d" % (path, i))
        app = App(b, strict=True)
        app.store.set_roster(ROSTER)
        d = Driver(app, b)
        first_edge(name, b, app, d)
        d.press(code("*"))  # back to Home
        want(app.screen is app.home, "%s: back home" % name)
        start_match(name, keys, b, app, d)
    done()


main(sys.argv[1])
