"""Boxes on a real pseudo-terminal that say what a test makes them say: real frames
(scorebox_core.frames) to the PC's real link client, for the replies no honest box gives
and for a box that goes quiet."""

import binascii
import os
import pty
import threading
import tty

from scorebox_core import frames

# What every HELLO of these boxes says: the sync protocol, and the files a READ may ask for.
PROTOCOL = {"protocol": 2, "reads": 32}


def chunked(data, crc_xor=0):
    """data as a READ's stream sends it after its BIN frame: chunks of frames.CHUNK bytes,
    each followed by its CRC-32 (xor crc_xor: 1 damages every one)."""
    out = b""
    for i in range(0, len(data), frames.CHUNK):
        piece = data[i : i + frames.CHUNK]
        out += piece + ((binascii.crc32(piece) ^ crc_xor) & 0xFFFFFFFF).to_bytes(4, "big")
    return out


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
    """Answers each request with reply(kind, body) -> (reply kind, body; for "BIN" the bytes
    a READ streams), or says nothing while quiet(kind); every request it was sent is kept in
    `got`, with whether it was answered. A READ of several files is answered as the box does:
    each file as a READ of its own, from its start, under its own seq."""

    def __init__(self, reply, quiet=lambda kind: False):
        self.reply, self.quiet = reply, quiet
        self.got = []  # (kind, answered)
        super().__init__(self._answer)

    def _answer(self, seq, kind, body):
        if kind == "READ" and isinstance(body, dict) and "files" in body:
            return b"".join(
                self._answer((seq + i - 1) % 65535 + 1, kind, {"file": name, "offset": 0, "length": n})
                for i, (name, n) in enumerate(body["files"])
            )
        silent = self.quiet(kind)
        self.got.append((kind, not silent))
        if silent:
            return b""
        rk, rb = self.reply(kind, body)
        if rk == "BIN":
            return frames.encode(seq, rk, {"length": len(rb)}) + chunked(rb)
        return frames.encode(seq, rk, rb)

    def unanswered(self):
        return [k for k, answered in self.got if not answered]
