"""The USB serial port (sys.stdin/sys.stdout on a Pico, a pseudo-terminal on the virtual
Pico) and the sync link behind it (box/link.py).

The link's code is loaded when the PC first sends a byte: on the range, where no PC is
plugged in, it never takes heap from a match (box/link.py with its frames is about 6 KB
on the 64-bit unix port).
"""

import select
import sys


class Port:
    """Non-blocking byte input and blocking output over two streams (stdin/stdout)."""

    def __init__(self, stream_in=None, stream_out=None):
        self.inp = stream_in or sys.stdin
        self.out = stream_out or sys.stdout
        self.raw_in = getattr(self.inp, "buffer", self.inp)
        self.raw_out = getattr(self.out, "buffer", self.out)
        # The Pico's stdout.buffer has no flush (its writes wait until the bytes are queued
        # for USB): looked up once, not an AttributeError raised and caught at every write.
        self.flush = getattr(self.raw_out, "flush", None)
        self.poller = select.poll()
        self.poller.register(self.inp, select.POLLIN)
        self.one = bytearray(1)
        self.closed = False  # the input ended: nobody will ever write again

    def read_ready(self, limit=4096):
        """Bytes available now (up to limit); b"" when none. One byte a call: a read of n
        bytes from the Pico's stdin waits for all n (MicroPython 1.28's stdio reads byte by
        byte until it has them, and nothing says how many are waiting), so a read would
        stall the app on a frame cut short. Stops after a Ctrl-C byte so that what follows
        it stays for the REPL. The loop runs for every byte of a request, so it does the
        least a byte can cost (it was about 50 us a byte on the Pico):
        local names (a Pico looks each attribute up every time), ipoll (no list made per
        byte, as poll makes)."""
        out = bytearray()
        one = self.one
        ready = self.poller.ipoll
        readinto = self.raw_in.readinto  # type: ignore[misc]  # stdin.buffer: bytes, not text
        n = 0
        while n < limit:
            for _ in ready(0):
                break
            else:
                break  # nothing waiting
            try:
                got = readinto(one)
            except OSError:  # EIO: a pty whose other side is gone
                got = 0
            if not got:
                self.closed = True  # the input ended
                break
            out += one
            n += 1
            if one[0] == 3:
                break
        return out

    def write(self, data):
        self.raw_out.write(data)
        if self.flush is not None:
            self.flush()


class Sync:
    """The sync link, made on the first byte from the PC; poll() it between key samples."""

    def __init__(self, app, info, set_clock=None, port=None):
        self.app = app
        self.info = info
        self.set_clock = set_clock
        self.port = port or app.board.sync_port() or Port()
        self.link = None

    def poll(self):
        """Answer what the PC sent; True if anything was answered."""
        if self.link is None:
            if not self.port.poller.poll(0):
                return False
            from box.link import Link

            self.link = Link(self.port, self.app.journal, self.app.store, self.info, self.set_clock)
        return self.link.poll()
