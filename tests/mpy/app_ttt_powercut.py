"""Power cuts in a Try-Tac-Toe game (run by micropython with a large heap).

    micropython -X heapsize=24M tests/mpy/app_ttt_powercut.py

As app_powercut.py does for Tic Tac BOW: while a move is committed (#), the flash
(vpico/blockdev.py's RamBlockDev) is copied before every block write, and every write is
also replayed cut halfway. The box is booted on each copy and must come back on the
Try-Tac-Toe play screen with the game either without the move or with it: its log and its
screen exactly those of the box booted on the flash just before the key or just after it.
Then it must go on. Last, a reboot after match 1 ended comes back to the match's end (and
an undo of match 2's start goes back to it), one after X confirmed the game's result comes
back to it, waiting for O (TTT-6); a refused move buzzes as a refused arrow does; and a
10-move limit ends a match (TTT-5).
Prints one line per cut and `cuts N before B after A`.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

from box.app import App
from box.keys import code
from vpico.blockdev import RamBlockDev
from vpico.board import Board, unmount
from vpico.drive import Driver


def boot(dev):
    unmount("/flash")
    b = Board(bdev=dev)
    app = App(b, strict=True)
    return b, app, Driver(app, b)


def state(b, app):
    m = app.session.match
    return (None if m is None else list(m.log), bytes(b.panel.ram))


def keys(d, s):
    for ch in s.split():
        d.press(code(ch))


def main():
    dev = RamBlockDev()
    b, app, d = boot(dev)
    keys(d, "# 4 # #")  # New match: Try-Tac-Toe, Start
    keys(d, "3 1 # 4 4 # 3 0 # D 3 2")  # X 31, O 44, X 30, O misses; X keys 32 ...
    pre = dev.snapshot()
    snaps = []
    ops = []

    def hook(dev_, block, offset, data):
        snaps.append(dev_.snapshot())
        ops.append((len(snaps) - 1, block, offset, None if data is None else bytes(data)))

    dev.on_write = hook
    d.press(code("#"))  # ... and commits it
    dev.on_write = None
    log_after = list(app.session.match.log)
    post = dev.snapshot()
    snaps.append(post)
    for i, block, offset, data in ops:
        torn = RamBlockDev(data=snaps[i])
        torn.apply(block, offset, data, 0.5)
        snaps.append(torn.snapshot())
    b1, app1, _ = boot(RamBlockDev(data=pre))
    before = state(b1, app1)
    b1, app1, _ = boot(RamBlockDev(data=post))
    after = state(b1, app1)
    if after[0] != log_after or before[0] != log_after[:-1]:
        raise RuntimeError("the reference boots do not hold the game: %r %r" % (before[0], after[0]))
    n_before = n_after = 0
    for i in range(len(snaps)):
        b2, app2, d2 = boot(RamBlockDev(data=snaps[i]))
        snaps[i] = None
        if app2.screen is not app2.play:
            raise RuntimeError("cut %d: the box did not come back to the game" % i)
        got = state(b2, app2)
        if got == before:
            n_before += 1
            which = "without the move"
        elif got == after:
            n_after += 1
            which = "with the move"
        else:
            raise RuntimeError("cut %d: log %r and a screen that match neither side of the cut" % (i, got[0]))
        keys(d2, "4 5 #")  # the box goes on: O marks 45
        if app2.session.match.log[-1] != 45:
            raise RuntimeError("cut %d: the game did not go on" % i)
        print("cut %d: resumed %s, then keyed on: %r" % (i, which, app2.session.match.log))
    keys(d, "C #")  # match 1 ended by agreement (TTT-5)
    dev3 = RamBlockDev(data=dev.snapshot())
    b3, app3, d3 = boot(dev3)
    if app3.screen is not app3.play.end:
        raise RuntimeError("after match 1 the box came back to %s" % type(app3.screen).__name__)
    keys(d3, "# *")  # match 2 started, and taken back: match 1's end again
    if app3.screen is not app3.play.end or len(app3.session.match.matches) != 1:
        raise RuntimeError("undoing match 2's start left the box on %s" % type(app3.screen).__name__)
    keys(d3, "# 4 4 # C # #")  # match 2: O 44, ended by agreement; X confirms the result
    b4, app4, _ = boot(RamBlockDev(data=dev3.snapshot()))
    s = app4.session
    if app4.screen is not app4.play.over or s.confirmed != [True, False]:
        raise RuntimeError("the result came back as %s, %r" % (type(app4.screen).__name__, s.confirmed))
    print("landed: match 1's end; the result with X's confirmation kept")
    keys(d3, "# * *")  # O confirms; history, home
    b3 = app3.board
    n = b3.beeped
    keys(d3, "# 4 # # 5 # 5 #")  # a new game: X 5, then O on 5: refused, with Tic Tac BOW's buzz
    if b3.beeped != n + 1 or b3.beeps[-1][1:] != (2000, 250) or app3.play.msg is None:
        raise RuntimeError("a refused move did not buzz: %r" % (b3.beeps[-1:],))
    keys(d3, "* C # # C # # # *")  # X's 5 undone; both matches ended by agreement; confirmed; home
    keys(d3, "# 4 8 8 8 8 6 # #")  # a new game, 10 moves a match (TTT-5)
    for n in range(1, 11):
        keys(d3, " ".join(str(n)) + " #")
    m = app3.session.match.match
    if app3.screen is not app3.play.end or m.reason != "move limit" or len(m.moves) != 10:
        raise RuntimeError("the move limit did not end match 1: %s %r" % (type(app3.screen).__name__, m.reason))
    print("move limit: match 1 over after 10 moves")
    print("cuts %d before %d after %d" % (len(snaps), n_before, n_after))


main()
