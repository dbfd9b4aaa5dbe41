"""A box on a real pseudo-terminal that says what a test makes it say: real frames
(scorebox_core.frames) to the PC's real link client, for the replies no honest box gives
and for a box that goes quiet."""

import os
import pty
import threading
import tty

from scorebox_core import frames


class HostileBox:
    """Answers each request with reply(kind, body) -> (reply kind, body; bytes for DATA), or
    says nothing while quiet(kind); every request it was sent is kept in `got`, with whether
    it was answered."""

    def __init__(self, reply, quiet=lambda kind: False):
        self.reply, self.quiet = reply, quiet
        self.got = []  # (kind, answered)
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
                seq, kind, body = frames.decode(line)
                silent = self.quiet(kind)
                self.got.append((kind, not silent))
                if not silent:
                    rk, rb = self.reply(kind, body)
                    out = frames.encode_raw(seq, rk, rb) if rk == "DATA" else frames.encode(seq, rk, rb)
                    os.write(self.master, out)

    def unanswered(self):
        return [k for k, answered in self.got if not answered]

    def close(self):
        os.close(self.slave)
        os.close(self.master)
