"""The sync protocol on the box's VM (issue 22, item 6): its own Journal on a RAM flash of
the Pico's geometry and its own Link; the port is a byte sink.

- READ answers a BIN frame and the file's bytes as they are, in chunks of
  frames.CHUNK bytes each followed by its CRC-32; past the end, or more than MAX_STREAM,
  is refused;
- LIST gives runs [first, last]: acknowledged, unconfirmed and open matches
  left out, MAX_RUNS runs at most and `more`;
- ACK of a run (first..last) takes only what LIST gives (an ACK sent again is taken
  again), never an unconfirmed, open or unknown match, and writes journal.ack once;
- the journal's space is read once: HELLO with {"space": false} does not, SPACE does,
  and the screen's figure after the sync (new_space) is that one.

Prints one line per check; exits 1 if any failed (tests/mpy/verdict.py).

    micropython -X heapsize=8m tests/mpy/link_stream.py
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import binascii

import jt
from verdict import done, want

from box import acks
from box.journal import Journal
from box.link import Link, journal_files
from box.store import Store
from scorebox_core import frames


class Sink:
    """The USB port's output side: what the last request's reply wrote."""

    def __init__(self):
        self.out = b""

    def write(self, data):
        self.out += bytes(data)


def ask(kind, body):
    """(reply kind, body, bytes after the reply's frame line)."""
    link.port.out = b""
    link.handle(frames.encode(7, kind, body)[:-1])
    line, _, rest = link.port.out.partition(b"\n")
    _, reply, got = frames.decode(line)
    return reply, got, rest


def case(name, kind, body, want_kind, text=""):
    reply, got, rest = ask(kind, body)
    want(reply == want_kind and text in str(got), "%s: %s %r" % (name, reply, got))
    print("ok" if reply == want_kind else "FAIL", name)
    return got, rest


def chunks(rest, n):
    """The bytes of a stream of n bytes, every chunk's CRC checked; None if one fails."""
    out, pos = b"", 0
    while len(out) < n:
        k = min(frames.CHUNK, n - len(out))
        data, crc = rest[pos : pos + k], rest[pos + k : pos + k + 4]
        if len(crc) != 4 or binascii.crc32(data) != int.from_bytes(crc, "big"):
            return None
        out += data
        pos += k + 4
    return out if pos == len(rest) else None


jt.fresh()
j = Journal(jt.ROOT)
j.recover()
for seed in range(1, 80):  # several group files, the first longer than a chunk
    jt.write(j, *jt.typical(seed))
h, evs, res = jt.typical(80)  # finished, confirmed by one side only
j.start_match(h)
for ev in evs:
    j.append(ev)
j.finish(res)
j.confirm(0)
store = Store(jt.ROOT)
link = Link(Sink(), j, store, lambda: {"device": "v-test"})
STORE = "0123456789abcdef"  # the store the ACKs name: the box's own from the first

reads = [0]
space = j.space


def counted():
    reads[0] += 1
    return space()


j.space = counted  # the walks of the file system a sync costs

# HELLO: protocol 2; the space only when asked for
got, _ = case("hello", "HELLO", {}, "OK", "'protocol': 2")
want("space" in got and reads[0] == 1, "hello reads the space: %r" % reads)
got, _ = case("hello without space", "HELLO", {"space": False}, "OK")
want("space" not in got and reads[0] == 1, "no space read: %r %r" % (got, reads))

# READ, streamed: the bytes as they are, a CRC-32 each CHUNK bytes
name, size = journal_files(jt.ROOT)[0]
with open(jt.ROOT + "/" + name, "rb") as f:
    whole = f.read()
want(size > 3 * frames.CHUNK, "a file of several chunks: %d" % size)
got, rest = case("stream a file", "READ", {"file": name, "offset": 0, "length": size}, "BIN")
want(got == {"length": size}, "BIN says its length: %r" % got)
want(chunks(rest, size) == whole, "the file, chunk by chunk")
want(len(rest) == size + 4 * ((size + frames.CHUNK - 1) // frames.CHUNK), "4 bytes a chunk: %d" % len(rest))
at = frames.CHUNK + 5
got, rest = case("stream from inside", "READ", {"file": name, "offset": at, "length": 100}, "BIN")
want(got == {"length": 100} and chunks(rest, 100) == whole[at : at + 100], "100 bytes from %d" % at)
got, rest = case("stream past what is left", "READ", {"file": name, "offset": size - 3, "length": 9}, "BIN")
want(got == {"length": 3} and chunks(rest, 3) == whole[-3:], "the last 3: %r" % got)
got, rest = case("stream at the end", "READ", {"file": name, "offset": size, "length": 9}, "BIN")
want(got == {"length": 0} and rest == b"", "nothing at the end")
case(
    "stream past the end",
    "READ",
    {"file": name, "offset": size + 1, "length": 9},
    "ERR",
    "past the end",
)
case(
    "stream too long",
    "READ",
    {"file": name, "offset": 0, "length": frames.MAX_STREAM + 1},
    "ERR",
    "read 1-",
)
case(
    "stream no file",
    "READ",
    {"file": "../settings.json", "offset": 0, "length": 9},
    "ERR",
    "no journal",
)

# LIST of runs: 1-79 finished and confirmed; 80 waits for its confirmation
got, _ = case("list runs", "LIST", {"after": 0}, "OK")
want(got["ranges"] == [[1, 79]] and got["more"] is False, "one run: %r" % got["ranges"])
want([[n, s] for n, s in got["files"]] == [list(f) for f in journal_files(jt.ROOT)], "files")
got, _ = case("list runs after 70", "LIST", {"after": 70}, "OK")
want(got["ranges"] == [[71, 79]], "after 70: %r" % got["ranges"])

# ACK of a run: only what LIST gives, one write of journal.ack
saves = [0]
save = acks.save


def counted_save(jj):
    saves[0] += 1
    save(jj)


acks.save = counted_save
case("ack a run with the unconfirmed one", "ACK", {"first": 10, "last": 80, "store": STORE}, "ERR", "no match 80")
case("ack a run past the last", "ACK", {"first": 10, "last": 200, "store": STORE}, "ERR", "no match 80")
case("ack from 0", "ACK", {"first": 0, "last": 5, "store": STORE}, "ERR", "no match 0")
case("ack first after last", "ACK", {"first": 9, "last": 5, "store": STORE}, "ERR", "after last")
case("ack not numbers", "ACK", {"first": "1", "last": 5, "store": STORE}, "ERR", "not a whole number")
want(saves[0] == 0 and not j.acked(10), "refused: nothing written")
got, _ = case("ack 10-20", "ACK", {"first": 10, "last": 20, "store": STORE}, "OK")
want(got == {"first": 10, "last": 20} and saves[0] == 1, "one write, no space: %r %r" % (got, saves))
case("ack 10-20 again (a lost reply)", "ACK", {"first": 10, "last": 20, "store": STORE}, "OK")
got, _ = case("list after", "LIST", {"after": 0}, "OK")
want(got["ranges"] == [[1, 9], [21, 79]], "the gap: %r" % got["ranges"])
case("ack a run over the acknowledged", "ACK", {"first": 5, "last": 30, "store": STORE}, "OK")
j.confirm(1)
h, evs, _ = jt.typical(81)  # the match in progress
j.start_match(h)
j.append(evs[0])
case("ack the open one", "ACK", {"first": 80, "last": 81, "store": STORE}, "ERR", "no match 81")
got, _ = case("list with one open", "LIST", {"after": 0}, "OK")
want(got["ranges"] == [[1, 4], [31, 80]], "confirmed now, the open one left out: %r" % got["ranges"])
got, _ = case("ack all listed", "ACK", {"first": 1, "last": 80, "store": STORE}, "OK")
want(j.acked(1) and j.acked(80) and not j.acked(81), "acknowledged")
got, _ = case("list empty", "LIST", {"after": 0}, "OK")
want(got["ranges"] == [] and got["more"] is False, "nothing left: %r" % got)

# the space: once, by SPACE; the screen's figure after the sync is that one
before = reads[0]
got, _ = case("space", "SPACE", {}, "OK")
want(reads[0] == before + 1 and got["space"]["unacked"] == 1, "read once: %r %r" % (reads, got))
want(link.new_space() == got["space"] and reads[0] == before + 1, "the screen's figure: no second walk")
want(link.new_space() is None, "then nothing new")
case("ack after", "ACK", {"first": 1, "last": 80, "store": STORE}, "OK")
sp = link.new_space()
want(sp is not None and reads[0] == before + 2, "an ACK without SPACE: read when the PC pauses")

# runs beyond a reply: MAX_RUNS and more (every other match acknowledged)
jt.umount()
jt.fresh()
j = Journal(jt.ROOT)
j.recover()
for seed in range(1, 2 * frames.MAX_RUNS + 6):
    jt.write(j, *jt.typical(seed % 7 + 1))
link = Link(Sink(), j, Store(jt.ROOT), lambda: {"device": "v-test"})
evens = list(range(2, 2 * frames.MAX_RUNS + 6, 2))  # 1, 3 ... 205 left: 103 runs of one
acks.add(j, [[n, n] for n in evens])
got, _ = case("list runs of one", "LIST", {"after": 0}, "OK")
want(len(got["ranges"]) == frames.MAX_RUNS and got["more"] is True, "%d runs, more" % len(got["ranges"]))
want(got["ranges"][:2] == [[1, 1], [3, 3]], "runs of one: %r" % got["ranges"][:2])
last = got["ranges"][-1][1]
got, _ = case("list the rest", "LIST", {"after": last}, "OK")
want(got["ranges"] == [[n, n] for n in (201, 203, 205)] and got["more"] is False, "the rest: %r" % got["ranges"])

done()
