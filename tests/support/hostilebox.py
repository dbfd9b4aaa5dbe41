"""Boxes on a real pseudo-terminal that say what a test makes them say: real frames
(scorebox_core.frames) to the PC's real link client, for the replies no honest box gives
and for a box that goes quiet."""

import os
import pty
import threading
import tty

from scorebox_core import frames


class RawBox:
    """A box on a pty that answers each request with answer(seq, kind, body) -> the raw
    bytes it writes back (a frame, a BIN frame and what follows it, or nothing)."""

    def __init__(self, answer):
        self.answer = answer
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.t = threading.Thread(target=self.serve, daemon=True)
        self.t.start()

    def serve(self):
        buf = b""
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                out = self.answer(*frames.decode(line))
                if out:
                    os.write(self.master, out)

    def close(self):
        # The thread is waited for: one left reading would take the next test's frames
        # (file descriptor numbers come round again).
        os.close(self.slave)  # the master's read then fails (EIO): the thread ends
        self.t.join(5)
        os.close(self.master)


class HostileBox(RawBox):
    """Answers each request with reply(kind, body) -> (reply kind, body; bytes for DATA), or
    says nothing while quiet(kind); every request it was sent is kept in `got`, with whether
    it was answered."""

    def __init__(self, reply, quiet=lambda kind: False):
        self.reply, self.quiet = reply, quiet
        self.got = []  # (kind, answered)
        super().__init__(self._answer)

    def _answer(self, seq, kind, body):
        silent = self.quiet(kind)
        self.got.append((kind, not silent))
        if silent:
            return b""
        rk, rb = self.reply(kind, body)
        return frames.encode_raw(seq, rk, rb) if rk == "DATA" else frames.encode(seq, rk, rb)

    def unanswered(self):
        return [k for k, answered in self.got if not answered]
