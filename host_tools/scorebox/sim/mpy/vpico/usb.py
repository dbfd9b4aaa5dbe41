"""The virtual Pico plugged in over USB: the app, with the sync link on stdin/stdout.

    micropython -i host_tools/scorebox/sim/mpy/vpico/usb.py --flash FILE [--keys FILE] [--frames FILE]

stdin/stdout are the box's USB serial port (the tests put a pseudo-terminal there, as a
real Pico's USB CDC port). A key script, if given, is played first in virtual time; then
the box runs firmware/main.py's own loop in real time, answering the PC between key
samples, as on the Pico. A Ctrl-C byte ends the app and leaves the REPL (hence -i), which
is what mpremote talks to.
"""

import sys
import time

from vpico.run import FrameOut, _arg


class RealClock:
    """Real milliseconds, carrying on from the virtual time a key script left."""

    def __init__(self, start):
        self.base = start - time.ticks_ms()

    @property
    def now(self):  # what vpico.board.Board.ms() reads
        return self.base + time.ticks_ms()


def main(argv):
    import main as entry  # firmware/main.py: the Pico's own loop, run on the virtual board

    from box.app import App
    from vpico import board as vboard
    from vpico.drive import Driver
    from vpico.keyscript import play

    path = _arg(argv, "--flash")
    if not path:
        sys.stderr.write("--flash FILE is needed\n")
        return 2
    b = vboard.Board(path=path)
    out = FrameOut(_arg(argv, "--frames"))
    app = App(b)
    keys = _arg(argv, "--keys")
    if keys:
        play(keys, Driver(app, b, out))
    b.clock = RealClock(b.ms())
    entry.main(b, app)
    out.close()


main(sys.argv[1:])
