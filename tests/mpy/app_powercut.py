"""Power cuts in the middle of a turn (run by micropython with a large heap).

    micropython -X heapsize=24M tests/mpy/app_powercut.py

The flash is vpico/blockdev.py's RamBlockDev. While the second arrow of a turn is keyed,
the device's on_write hook copies the whole flash before every block write: each copy is
the flash as a power cut at that moment would leave it; each write is also replayed cut
halfway through its bytes (a torn write). The box is then booted on each
copy (a new mount, a new App) and must come back in the turn, on the play screen, with
either the arrow or without it, its screen identical to the one shown then. Prints one
line per cut and `cuts N before B after A`.
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


def main():
    dev = RamBlockDev()
    b, app, d = boot(dev)
    for ch in "###5A":  # a new match; A: 5:3
        d.press(code(ch))
    d.press(code("5"))  # frame square 5 again (no change): the screen before the arrow
    before = (list(app.session.match.log), bytes(b.panel.ram))
    snaps = []
    ops = []

    def hook(dev_, block, offset, data):
        snaps.append(dev_.snapshot())
        ops.append((len(snaps) - 1, block, offset, None if data is None else bytes(data)))

    dev.on_write = hook
    d.press(code("B"))  # 5:2 -> claims square 5, mid-turn
    dev.on_write = None
    after = (list(app.session.match.log), bytes(b.panel.ram))
    snaps.append(dev.snapshot())
    # Torn writes: each write (or erase) cut halfway through its bytes.
    for i, block, offset, data in ops:
        torn = RamBlockDev(data=snaps[i])
        torn.apply(block, offset, data, 0.5)
        snaps.append(torn.snapshot())
    n_before = n_after = 0
    for i in range(len(snaps)):
        b2, app2, d2 = boot(RamBlockDev(data=snaps[i]))
        snaps[i] = None
        m = app2.session.match
        if m is None or app2.screen is not app2.play:
            raise RuntimeError("cut %d: the box did not come back to the match" % i)
        got = (list(m.log), bytes(b2.panel.ram))
        if got == before:
            n_before += 1
            which = "without the arrow"
        elif got == after:
            n_after += 1
            which = "with the arrow"
        else:
            raise RuntimeError("cut %d: log %r and a screen that match neither side of the cut" % (i, m.log))
        # The box goes on: the turn's last arrow, then B shoots.
        for ch in "1C3A":
            d2.press(code(ch))
        print("cut %d: resumed %s, then keyed on: %r" % (i, which, app2.session.match.log))
    print("cuts %d before %d after %d" % (len(snaps), n_before, n_after))


main()
