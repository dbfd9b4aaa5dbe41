"""The virtual Pico plugged in over USB: the app, with the sync link on stdin/stdout.

    micropython host_tools/scorebox/sim/mpy/vpico/usb.py --flash FILE [--keys FILE] [--frames FILE]

stdin/stdout are the box's USB serial port (the tests put a pseudo-terminal there, as a
real Pico's USB CDC port). A key script, if given, is played first in virtual time; then
the box runs firmware/main.py's own loop in real time, answering the PC between key
samples, as on the Pico. A Ctrl-C byte ends the app and leaves the REPL, which is what
mpremote talks to; a soft reset there runs main.py again (vpico/softreset.py).
"""

import sys
import time

from vpico.run import FrameOut, _arg
from vpico.softreset import live


class RealClock:
    """Real milliseconds, carrying on from the virtual time a key script left."""

    def __init__(self, start):
        self.base = start - time.ticks_ms()

    @property
    def now(self):  # what vpico.board.Board.ms() reads
        return self.base + time.ticks_ms()


class Box:
    """The box for vpico.softreset.live: the repository's firmware on the flash in a file."""

    def __init__(self, path, keys, out):
        self.path = path
        self.keys = keys  # played at the first boot only: a soft reset resumes from the journal
        self.out = out
        self.clock = None  # the box's milliseconds go on through a soft reset, as a Pico's do
        self.b = None

    def mount(self):
        from vpico import board as vboard

        self.b = vboard.Board(path=self.path)

    def main(self):
        import main as entry  # firmware/main.py: the Pico's own loop, run on the virtual board

        from box.app import App

        b = self.b
        app = App(b)
        if self.keys:
            from vpico.drive import Driver
            from vpico.keyscript import play

            play(self.keys, Driver(app, b, self.out))
            self.keys = None
        if self.clock is None:
            self.clock = RealClock(b.ms())
        b.clock = self.clock
        entry.main(b, app)

    def unmount(self):
        from vpico import board as vboard

        vboard.unmount(self.b.root)
        self.b.bdev.close()
        self.b = None


def main(argv):
    path = _arg(argv, "--flash")
    if not path:
        sys.stderr.write("--flash FILE is needed\n")
        return 2
    out = FrameOut(_arg(argv, "--frames"))
    live(Box(path, _arg(argv, "--keys"), out))
    out.close()


main(sys.argv[1:])
