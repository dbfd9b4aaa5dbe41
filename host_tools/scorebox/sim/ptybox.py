"""A box behind a pseudo-terminal, as the PC sees one on USB (POSIX only): what the virtual
Pico (sim/vpico.py) and the emulated one (sim/rp2/emu.py) share. The box's process has the
pty's master side; the PC opens `port`, the slave path, with pyserial as it would a Pico's
/dev/ttyACM0. The pty is set raw before the box starts (a cooked pty echoes and turns \\n
into \\r\\n). The flash lives in a host file, so a power cut keeps what was written."""

import os
import pty
import time
import tty


class PtyBox:
    def __init__(self, flash, log=None):
        self.flash = os.path.abspath(flash)
        self.log = log or (self.flash + ".log")
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.proc = None
        # Threads that copy between the pty and the box's process (the emulated Pico's): they
        # hold fd numbers, so they stop before those fds close. A closed fd's number is the next
        # file's that this process opens: a late relay read bytes out of a trace or a flash
        # image being read, or wrote console text into one being written (drives and traces
        # that differed now and then).
        self.relays = []
        self.ptys = [(self.master, self.slave)]

    def kill(self):
        """Pull the power: the process dies wherever it is."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def drain(self):
        """Throw away what the dead box left in the pty."""
        os.set_blocking(self.master, False)
        try:
            while os.read(self.master, 65536):
                pass
        except (BlockingIOError, OSError):
            pass
        os.set_blocking(self.master, True)

    def tail(self):
        """The end of the box's log, for an error message."""
        try:
            with open(self.log, "rb") as f:
                return f.read()[-2000:].decode(errors="replace")
        except OSError:
            return ""

    def stop_relays(self, timeout=10):
        """Wait for the relay threads of a box whose process has ended; what the box left in
        the ptys is read away meanwhile (a relay blocked writing to a full pty gets free)."""
        deadline = time.monotonic() + timeout
        for t in self.relays:
            while t.is_alive():
                if time.monotonic() > deadline:
                    raise RuntimeError("a relay thread of the box's pty did not stop")
                for _, slave in self.ptys:
                    _read_away(slave)
                t.join(0.05)
        self.relays = []

    def close(self):
        self.kill()
        self.stop_relays()
        for master, slave in self.ptys:
            os.close(master)
            os.close(slave)


def _read_away(fd):
    os.set_blocking(fd, False)
    try:
        while os.read(fd, 65536):
            pass
    except (BlockingIOError, OSError):
        pass
    os.set_blocking(fd, True)
