"""When the box is quiet (run by tests/both/test_wake.py): main.py samples the keys every
20 ms instead of 5 while App.quiet() holds. Not within a second of a key, nor while a key is
down, nor while a press is settling; quiet again a second after the last key, and on a
dark screen. Prints `ok`, or the checks that failed and exits with status 1
(tests/mpy/verdict.py)."""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

from verdict import done, want

from box import app as A
from box.keys import NONE, code
from vpico.board import Board
from vpico.drive import Driver


def main(path):
    b = Board(path=path)
    app = A.App(b, strict=True)
    d = Driver(app, b)
    d.poll()
    want(not app.quiet(), "not quiet just after the boot")
    d.advance(A.QUIET_MS)
    d.poll()
    want(app.quiet(), "quiet a second after the boot")
    b.raw = code("8")
    d.poll()
    want(not app.quiet(), "not quiet with a key down")
    d.advance(3 * A.QUIET_MS)  # held: a long press, still in use
    d.poll()
    want(not app.quiet(), "not quiet while the key stays down")
    b.raw = NONE
    d.poll()
    d.advance(A.QUIET_MS - 100)
    d.poll()
    want(not app.quiet(), "not quiet within a second of the key")
    d.advance(200)
    d.poll()
    want(app.quiet(), "quiet a second after the key")
    keys = app.keys
    keys.press_ms = 20  # pins.py's KEY_PRESS_MS = 20: a press counts once it held 20 ms
    b.raw = code("8")
    d.poll()
    want(keys.down() == NONE and not app.quiet(), "not quiet while a press settles")
    b.raw = NONE
    d.advance(400000)  # past sleep_s: the screen dark
    d.poll()
    want(app.state == A.ASLEEP and app.quiet(), "quiet on a dark screen")
    done("ok")


main(sys.argv[1])
