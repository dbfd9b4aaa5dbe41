"""A late reply is never taken for the next request's (issue 22 item 6): a Client whose
request timed out (rp2help.wait_hello's HELLO) and the Client after it on the same port
(`scorebox sync`'s) each started their sequence numbers at 1, so the box's late reply to
the first HELLO was taken for the reply to the next Client's first request."""

import os
import pty
import threading
import tty

import pytest

from scorebox.device import link
from scorebox_core import frames


class LateBox:
    """A box on a pseudo-terminal that answers its first request only once the second has
    come: then the late reply first, the second's after it."""

    def __init__(self):
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.t = threading.Thread(target=self.serve, daemon=True)
        self.t.start()

    def serve(self):
        buf, held = b"", None
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                seq, kind, _ = frames.decode(line)
                if held is None:
                    held = seq  # say nothing yet
                    continue
                os.write(self.master, frames.encode(held, "OK", {"late": "HELLO"}))
                os.write(self.master, frames.encode(seq, "OK", {"reply to": kind}))

    def close(self):
        os.close(self.slave)  # the master's read then fails: the thread ends before its fd closes
        self.t.join(5)
        os.close(self.master)


def test_a_late_reply_to_another_clients_request_is_not_taken():
    box = LateBox()
    try:
        first = link.open_port(box.port)
        with pytest.raises(link.DeviceError, match="^the box does not answer: is the Scorebox firmware running on it"):
            link.Client(first, timeout=0.3, retries=0).request("HELLO")
        first.close()
        second = link.open_port(box.port)
        try:
            got = link.Client(second, timeout=5.0, retries=0).request("LIST", {"after": 0})
        finally:
            second.close()
        assert got == {"reply to": "LIST"}  # not {"late": "HELLO"}
    finally:
        box.close()


def test_the_sequence_wraps_past_0():
    seqs = [link.SEQUENCE.next() for _ in range(3)]
    assert seqs[1] == seqs[0] % 65535 + 1 and seqs[2] == seqs[1] % 65535 + 1
    link.SEQUENCE.last = 65534
    assert [link.SEQUENCE.next() for _ in range(3)] == [65535, 1, 2]  # never 0: the box's "unreadable"
