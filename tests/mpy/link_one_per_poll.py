"""The box answers one request per poll (issue 22 item 6): a sync sends its READs
together, and the app's loop must run between two replies, not after the last. Three
requests that arrive together are answered one a call, in order; a partial fourth waits
for its end. Its own Journal on a RAM flash, its own Link; the port gives the bytes once.

Prints one line per check; exits 1 if any failed (tests/mpy/verdict.py).

    micropython -X heapsize=8m tests/mpy/link_one_per_poll.py
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import jt
from verdict import done, want

from box.journal import Journal
from box.link import Link
from box.store import Store
from scorebox_core import frames


class Port:
    """What arrived (given once, as the USB port's read_ready does), and what was written."""

    def __init__(self):
        self.arrived = b""
        self.out = b""

    def read_ready(self):
        data, self.arrived = bytearray(self.arrived), b""
        return data

    def write(self, data):
        self.out += bytes(data)


def replies(port):
    """The sequence numbers of the frames written since the last call."""
    got = [frames.decode(line)[0] for line in port.out.split(b"\n") if line.startswith(frames.PREFIX)]
    port.out = b""
    return got


jt.fresh()
j = Journal(jt.ROOT)
j.recover()
port = Port()
link = Link(port, j, Store(jt.ROOT), lambda: {"device": "v-test"})
fourth = frames.encode(4, "GET", {})
port.arrived = b"".join(frames.encode(n, "GET", {}) for n in (1, 2, 3)) + fourth[:10]
seen = []
for _ in range(3):
    answered = link.poll()
    got = replies(port)
    seen.append(got)
    want(answered and len(got) == 1, "one reply a poll: %r" % (got,))
want(seen == [[1], [2], [3]], "in order: %r" % (seen,))
want(not link.poll() and replies(port) == [], "the partial fourth waits")
port.arrived = fourth[10:]
want(link.poll() and replies(port) == [4], "answered once whole")
want(not link.poll(), "nothing left")
print("ok one per poll")
done()
