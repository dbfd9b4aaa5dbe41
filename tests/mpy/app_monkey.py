"""A monkey on the keypad and the buttons: random keys through the firmware (micropython).

    micropython -X heapsize=512k tests/mpy/app_monkey.py FLASH_FILE SEED PRESSES

Every key goes through the real app on the virtual board: any exception fails the run
(the app is strict). After every press it checks that the panel holds what was drawn and
that the app is on a screen; every 250 presses, that the open match in the journal has the
same events as the match on screen and that they replay through the rules core.
Long presses and idle waits (dim, sleep, wake) come in now and then.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

from box.app import App
from box.keys import NAMES
from scorebox_core.games.ttb.rules import Match
from vpico.board import Board
from vpico.drive import LONG_MS, Driver


class Rng:
    def __init__(self, seed):
        self.s = seed * 2654435761 & 0xFFFFFFFF or 1

    def below(self, n):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s % n


def check(app, b, i):
    if app.screen is None:
        raise RuntimeError("press %d: no screen" % i)
    if b.panel.on and b.panel.ram != b.display.buf:
        raise RuntimeError("press %d: the panel does not hold the frame drawn" % i)


def deep_check(app, i):
    s = app.session
    got = app.journal.open_match()
    if s.match is None or s.finished:
        return
    if got is None:
        raise RuntimeError("press %d: a match on screen but none open in the journal" % i)
    if got[2] != s.match.log:
        raise RuntimeError("press %d: journal %r, screen %r" % (i, got[2], s.match.log))
    if s.game.NAME == "Try-Tac-Toe":  # a Try-Tac-Toe game (box/games/ttt/play.py): its rules fold the same events
        g = type(s.match).replay(got[2], s.match.opts, s.match.archers)
        if g.events != s.match.events:
            raise RuntimeError("press %d: replay differs" % i)
        return
    m = Match(s.match.opts, s.match.archers)
    m._face0 = s.match._face0
    for ev in got[2]:
        m.apply(ev)  # raises Refused if the journal holds anything the rules reject
    if m.events != s.match.events:
        raise RuntimeError("press %d: replay differs" % i)


def main(path, seed, presses):
    b = Board(path=path)  # the flash in a host file: the heap stays small, collections quick
    app = App(b, strict=True)
    app.collect = False  # speed: the heap is large here, garbage is collected when needed
    d = Driver(app, b)
    rng = Rng(seed)
    n = len(NAMES)
    matches = 0
    for i in range(presses):
        r = rng.below(1000)
        k = rng.below(n)
        if r < 15:
            d.press(k, LONG_MS)
        elif r < 17:
            d.advance(30000 + rng.below(200000))  # idle: dim, then sleep
        else:
            d.press(k)
        check(app, b, i)
        if i % 250 == 0:
            deep_check(app, i)
        if app.session.finished:
            matches += 1
    deep_check(app, presses)
    print("presses %d events %d frames %d" % (d.presses, app.events, d.frames))


main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
