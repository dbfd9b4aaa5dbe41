"""ACK takes only numbers LIST gives (issue 13, item 7): never an open, unconfirmed or
unknown match; a number already acknowledged is taken again (a lost reply's ACK comes
again). SET takes only the values the Settings screen offers (item 8). The box's own
Journal on a RAM flash with the Pico's geometry, its own Link; the port is a byte sink.
Prints one line per case, then ALL OK.

    micropython -X heapsize=4m tests/mpy/link_ack.py
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import jt

from box.journal import Journal
from box.link import Link
from box.store import Store
from scorebox_core import frames


class Sink:
    """The USB port's output side: the last reply written."""

    def __init__(self):
        self.out = b""

    def write(self, data):
        self.out += data


def ask(link, kind, body):
    link.port.out = b""
    link.handle(frames.encode(7, kind, body)[:-1])
    _, reply, got = frames.decode(link.port.out)
    return reply, got


jt.fresh()
j = Journal(jt.ROOT)
j.recover()
for seed in (1, 2, 3):
    jt.write(j, *jt.typical(seed))
h, evs, res = jt.typical(4)  # finished, confirmed by one side only
j.start_match(h)
for ev in evs:
    j.append(ev)
j.finish(res)
j.confirm(0)
link = Link(Sink(), j, Store(jt.ROOT), None)
bad = 0


def case(name, kind, body, want, text=""):
    global bad
    reply, got = ask(link, kind, body)
    ok = reply == want and text in str(got)
    print("ok" if ok else "FAIL", name, reply, got)
    bad += not ok


STORE = "0123456789abcdef"


def run(a, b=None):
    """An ACK's body: the run a..b, from this test's store."""
    return {"first": a, "last": a if b is None else b, "store": STORE}


case("listed", "LIST", {"after": 0}, "OK", "[[1, 3]]")
case("unconfirmed", "ACK", run(4), "ERR", "no match 4 to acknowledge")
case("never existed", "ACK", run(9), "ERR", "no match 9")
case("zero", "ACK", run(0), "ERR", "no match 0")
case("no store", "ACK", {"first": 2, "last": 2}, "ERR", "a store id")
case("one listed", "ACK", run(2), "OK", "'first': 2")
case("again (a lost reply)", "ACK", run(2), "OK", "'first': 2")
j.confirm(1)
h, evs, _ = jt.typical(5)  # the match in progress
j.start_match(h)
j.append(evs[0])
case("open", "ACK", run(5), "ERR", "no match 5")
case("confirmed now", "ACK", run(4), "OK", "'first': 4")
case("listed after", "LIST", {"after": 0}, "OK", "[[1, 1], [3, 3]]")
# SET (item 8): only what the Settings screen offers
case("dim -5", "SET", {"values": {"dim_s": -5}}, "ERR", "dim_s is one of")
case("sleep 1", "SET", {"values": {"sleep_s": 1}}, "ERR", "sleep_s is one of")
case("contrast 7", "SET", {"values": {"contrast": 7}}, "ERR", "contrast is one of")
case("not an object", "SET", {"values": [1]}, "ERR", "values is an object")
case("offered", "SET", {"values": {"sleep_s": 0, "contrast": 96}}, "OK", "'contrast': 96")
from box import home  # noqa: E402
from box.link import CHOICES  # noqa: E402

for name, _, choices in home._SETTINGS:
    if name in CHOICES and CHOICES[name] != choices:
        print("FAIL link.CHOICES[%s] is not the screen's %s" % (name, choices))
        bad += 1
print("ALL OK" if not bad else "%d FAILED" % bad)
