"""Waking the screen on the virtual Pico (run by tests/both/test_wake.py): a key on a dimmed
screen counts; a dark screen stays dark for longer than a turn at the range (5 minutes);
a digit that wakes the dark play screen frames its square, any other waking key does
nothing else. Prints `ok`, or the checks that failed and exits with status 1
(tests/mpy/verdict.py)."""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

from verdict import done, want

from box import app as A
from box.app import App
from box.keys import code
from vpico.board import Board
from vpico.drive import Driver


def wait(d, b, ms):
    end = b.clock.now + ms
    while b.clock.now < end:
        b.clock.now += 500
        d.poll()


def main(path):
    b = Board(path=path)
    app = App(b, strict=True)
    d = Driver(app, b)
    for k in "# # #".split():  # New match, to Start, start: the play screen
        d.press(code(k))
    log = app.session.match.log
    want(app.screen is app.play, "app.screen is app.play")
    wait(d, b, 60000)  # a minute: dimmed, as at the end of a short turn
    want(app.state == A.DIM, "app.state == A.DIM")
    d.press(code("A"))
    want(app.state == A.AWAKE and len(log) == 1, "a key on a dimmed screen counts")
    wait(d, b, 240000)  # four minutes: shoot, walk, pull, walk back: still only dimmed
    want(app.state == A.DIM, "the screen went off within a turn at the range")
    wait(d, b, 70000)
    want(app.state == A.ASLEEP, "app.state == A.ASLEEP")
    d.press(code("7"))
    want(app.state == A.AWAKE and app.play.sel == 7, "a waking digit frames its square")
    wait(d, b, 400000)
    want(app.state == A.ASLEEP, "app.state == A.ASLEEP")
    d.press(code("B"))
    want(app.state == A.AWAKE and len(log) == 1, "a waking value key does nothing unseen")
    d.press(code("B"))
    want(len(log) == 2 and log[-1] >> 2 & 15 == 7, "len(log) == 2 and log[-1] >> 2 & 15 == 7")
    done("ok")


main(sys.argv[1])
