"""A READ of several files on the box's VM (issue 22, item 6): its own Journal on a RAM
flash of the Pico's geometry and its own Link; the port is a byte sink.

- HELLO says how many files a READ may ask for ("reads");
- READ with "files" streams each file as a streamed READ of its own would (its BIN frame,
  its chunks with their CRC-32), one a poll, under the request's seq and the ones after it
  (65535 goes round to 1);
- a file missing when its turn comes gets an ERR under its own seq, the next is streamed;
- a list that is not one, empty or longer than READS, a name outside the journal (a path
  out of its folder too, in a READ of one file as well), a length that is not 1-MAX_STREAM:
  refused whole with ERR, nothing streamed, nothing left to stream.

Prints one line per check; exits 1 if any failed (tests/mpy/verdict.py).

    micropython -X heapsize=8m tests/mpy/link_reads.py
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import binascii

import jt
from verdict import done, want

from box.journal import Journal
from box.link import READS, Link, journal_files
from box.store import Store
from scorebox_core import frames


class Sink:
    """The USB port: nothing to read, and what the replies wrote."""

    def __init__(self):
        self.out = b""

    def write(self, data):
        self.out += bytes(data)

    def read_ready(self):
        return b""


def streamed(out, n):
    """The bytes of a stream of n bytes at out's start, every chunk's CRC checked, and what
    follows it; (None, out) if a chunk fails."""
    got, pos = b"", 0
    while len(got) < n:
        k = min(frames.CHUNK, n - len(got))
        data, crc = out[pos : pos + k], out[pos + k : pos + k + 4]
        if len(crc) != 4 or binascii.crc32(data) != int.from_bytes(crc, "big"):
            return None, out
        got += data
        pos += k + 4
    return got, out[pos:]


def reply():
    """(seq, kind, body, what follows the frame line) of what the link wrote last."""
    line, _, rest = link.port.out.partition(b"\n")
    link.port.out = b""
    seq, kind, body = frames.decode(line)
    return seq, kind, body, rest


def content(name):
    with open(jt.ROOT + "/" + name, "rb") as f:
        return f.read()


jt.fresh()
j = Journal(jt.ROOT)
j.recover()
for seed in range(1, 80):  # several group files, the first longer than a chunk
    jt.write(j, *jt.typical(seed))
link = Link(Sink(), j, Store(jt.ROOT), lambda: {"device": "v-test"})
files = [[name, size] for name, size in journal_files(jt.ROOT) if name[0] == "g"]
want(len(files) >= 2, "group files %r" % (files,))

# HELLO: how many files a READ takes
link.handle(frames.encode(1, "HELLO", {"space": False})[:-1])
_, kind, body, _ = reply()
want(kind == "OK" and body.get("reads") == READS == 32, "hello %r" % (body,))
print("ok hello says reads")

# every file, the seqs going round past 65535; one file a poll, each its own stream
asked = files + [["g999999.tbj", 100]] + files[:1]  # one not on the box, then one again
link.handle(frames.encode(65534, "READ", {"files": asked})[:-1])
seqs = []
for i, (name, size) in enumerate(asked):
    if i:
        want(link.files is not None, "files left before %d" % i)
        want(link.poll() is True, "poll answers file %d" % i)
    seq, kind, body, rest = reply()
    seqs.append(seq)
    if name == "g999999.tbj":
        want(kind == "ERR" and rest == b"", "missing file: %s %r" % (kind, body))
        continue
    data, after = streamed(rest, size)
    want(kind == "BIN" and body == {"length": size}, "file %d: %s %r" % (i, kind, body))
    want(data == content(name) and after == b"", "file %d: its bytes, then nothing (one a poll)" % i)
want(seqs == [65534, 65535] + list(range(1, len(asked) - 1)), "seqs %r" % (seqs,))
want(link.files is None and link.poll() is False and link.port.out == b"", "nothing left after the last")
print("ok %d files streamed, one a poll, seqs %d.." % (len(asked), seqs[0]))

# hostile requests: refused whole, nothing streamed, nothing pending
name = files[0][0]
too_many = [[name, 10]] * (READS + 1)
HOSTILE = {
    "not a list": "g000001.tbj",
    "empty": [],
    "READS + 1 files": too_many,
    "an entry not a list": [name],
    "an entry of three": [[name, 0, 10]],
    "a name not a string": [[1, 10]],
    "a path out of the journal": [["g/../../main.py.tbj", 10]],
    "a path to the parent": [["../" + name, 10]],
    "a name without digits": [["gabcdef.tbj", 10]],
    "another file": [["main.py", 10]],
    "length 0": [[name, 0]],
    "length past MAX_STREAM": [[name, frames.MAX_STREAM + 1]],
    "length true": [[name, True]],
    "length a string": [[name, "10"]],
    "a good file, then a bad one": [[name, 10], ["../" + name, 10]],
}
for why, bad in HOSTILE.items():
    link.handle(frames.encode(7, "READ", {"files": bad})[:-1])
    seq, kind, body, rest = reply()
    ok = seq == 7 and kind == "ERR" and rest == b"" and link.files is None and link.poll() is False
    want(ok, "%s: %s %r" % (why, kind, body))
    print("ok" if ok else "FAIL", "refused:", why)

# a READ of one file by a path out of the journal's folder: refused as well
link.handle(frames.encode(8, "READ", {"file": "g/../../main.py.tbj", "offset": 0, "length": 10})[:-1])
seq, kind, body, rest = reply()
want(kind == "ERR" and "no journal file" in body["error"], "one file out of the journal: %s %r" % (kind, body))
print("ok one file out of the journal refused")

done()
