"""The link's refusals (issue 21, item 15), on the box's VM with its own Journal on a RAM
flash of the Pico's geometry and its own Link; the port is a byte sink. Each request below
must be answered ERR and change nothing, and the app's link must go on answering:

- ROSTER with a part below 0 (answered "OK null" before);
- READ at an offset past the file's end, 2**40 among them (data from the file's start
  before: the offset wrapped);
- ACK naming an empty or malformed store id, with take_over or on a box of no store (the
  box belonged to "" before).

Prints `ok NAME` per check, then ALL OK, or exits with status 1 (verdict.py: never relying
on assert).

    micropython -X heapsize=4m tests/mpy/link_bounds.py
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import jt
from verdict import done, want

from box.journal import Journal
from box.link import Link, journal_files
from box.store import Store
from scorebox_core import frames


class Sink:
    """The USB port's output side: the last reply written."""

    def __init__(self):
        self.out = b""

    def write(self, data):
        self.out += data


def ask(link, kind, body):
    """(reply kind, body); a READ's body: the bytes of its stream (after its BIN frame)."""
    link.port.out = b""
    link.handle(frames.encode(7, kind, body)[:-1])
    line, _, rest = link.port.out.partition(b"\n")
    _, reply, got = frames.decode(line)
    if reply == "BIN":  # chunks of frames.CHUNK bytes, each followed by its CRC-32
        got = b"".join(rest[i : i + frames.CHUNK + 4][:-4] for i in range(0, len(rest), frames.CHUNK + 4))
    return reply, got


def check(name, ok, detail=""):
    if want(ok, "%s %s" % (name, detail)):
        print("ok", name, detail)


def case(name, kind, body, reply_kind, text=""):
    """Ask; the reply's kind must be reply_kind and its body hold text."""
    reply, got = ask(link, kind, body)
    check(name, reply == reply_kind and text in str(got), "%s %r" % (reply, got if reply != "BIN" else len(got)))
    return got


jt.fresh()
j = Journal(jt.ROOT)
j.recover()
for seed in (1, 2):
    jt.write(j, *jt.typical(seed))
store = Store(jt.ROOT)
link = Link(Sink(), j, store, None)

# ROSTER: a part below 0 is refused, first thing (the link's own "no part yet" is -1) or later
case("roster part -1 first", "ROSTER", {"names": ["Ann"], "part": -1, "last": True}, "ERR", "part")
case("roster part -1 not last", "ROSTER", {"names": ["Ann"], "part": -1, "last": False}, "ERR", "part")
case("roster part 0", "ROSTER", {"names": ["Ann", "Bob"], "part": 0, "last": False}, "OK", "'roster': 2")
case("roster part 1", "ROSTER", {"names": ["Cat"], "part": 1, "last": True}, "OK", "'roster': 3")
case("roster part -1 after", "ROSTER", {"names": ["Eve"], "part": -1, "last": True}, "ERR", "part")
case("roster part -5", "ROSTER", {"names": ["Eve"], "part": -5}, "ERR", "part")
check("roster kept", store.roster() == ["Ann", "Bob", "Cat"], repr(store.roster()))
case("roster part 1 again (a lost reply)", "ROSTER", {"names": ["Cat"], "part": 1, "last": True}, "OK", "'roster': 3")

# READ: never past the file's end, whatever the offset's size
name, size = journal_files(jt.ROOT)[0]
with open(jt.ROOT + "/" + name, "rb") as f:
    whole = f.read()
check("file size", len(whole) == size > 10, "%s %d" % (name, size))
for offset in (size + 1, 2**31, 2**32, 2**32 + 4, 2**40, 2**64):
    case("read at %d" % offset, "READ", {"file": name, "offset": offset, "length": 100}, "ERR", "past the end")
got = case("read at 0", "READ", {"file": name, "offset": 0, "length": frames.MAX_STREAM}, "BIN")
check("read at 0 is the file", got == whole)
got = case("read the last 10", "READ", {"file": name, "offset": size - 10, "length": 100}, "BIN")
check("the last 10 bytes", got == whole[-10:], repr(got))
got = case("read at the end", "READ", {"file": name, "offset": size, "length": 100}, "BIN")
check("nothing at the end", got == b"", repr(got))

# ACK: a store id is 1-32 printable characters; a box of no store stays of none
for sid in ("", " ", "a b", "x" * 33, "a\nb", "\u00e9t\u00e9", 5, ["x"], True):
    case("ack store %r on a new box" % (sid,), "ACK", {"store": sid}, "ERR", "store")
    check("  still no store", store.get("store") is None, repr(store.get("store")))
case("ack without a store", "ACK", {"first": 1, "last": 1}, "ERR", "store")
check("  still no store", store.get("store") is None, repr(store.get("store")))
case("ack to its first store", "ACK", {"first": 1, "last": 1, "store": "0123456789abcdef"}, "OK", "'first': 1")
for sid in ("", " ", "a b", "x" * 33, "a\nb", 5):
    case("ack store %r, take over" % (sid,), "ACK", {"store": sid, "take_over": True}, "ERR", "store")
    check("  still its store", store.get("store") == "0123456789abcdef", repr(store.get("store")))
case("ack from another store", "ACK", {"first": 2, "last": 2, "store": "fedcba9876543210"}, "ERR", "another store")
case("taken over", "ACK", {"first": 2, "last": 2, "store": "fedcba9876543210", "take_over": True}, "OK", "'first': 2")
check("its new store", store.get("store") == "fedcba9876543210", repr(store.get("store")))
check("saved", Store(jt.ROOT).get("store") == "fedcba9876543210")

# the link answers on
# taken over, the box lists again what the store before acknowledged and it kept (docs/sync.md)
case("list after all that", "LIST", {"after": 0}, "OK", "'ranges': [[1, 1]]")

done()
