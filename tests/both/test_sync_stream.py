"""A sync at the speed of the cable (issue 22, item 6): the sync protocol against the real
firmware on the virtual Pico, the real `scorebox sync`, a real SQLite store.

The box streams each journal file's bytes in one READ (chunks of frames.CHUNK bytes with a
CRC-32 each, no base64), lists its matches as runs, takes a whole run in one ACK and reads
its space once (SPACE, at the end). Counted here: the requests and the bytes a sync of
300 matches costs (before: 3 LISTs of numbers, a READ per 12 KB of base64, 4 ACKs of up to
100 numbers, each with the box's space in its reply). A damaged chunk is read again from
where it begins; a box whose HELLO says another protocol (or none) is one line from `sync`
and `doctor`, nothing stored, nothing acknowledged; a hostile box's stream ends the sync in
one line; a box stopped at
its REPL (which echoes the request back) is told in one line (before: "the box refused
HELLO: {}")."""

import collections
import json
import os
import re
import subprocess
import sys

import mpy
import pytest
from boxfill import fill
from hostilebox import PROTOCOL, RawBox, chunked
from picoheap import PicoHeapVirtualPico
from test_sync_faults import box_unacked

from scorebox.device import link
from scorebox.store.sqlite import Store
from scorebox.sync.pull import sync
from scorebox_core import frames

pytestmark = pytest.mark.micropython

MATCHES = 300


def test_the_box_streams_lists_runs_acks_a_run_and_reads_its_space_once():
    r = mpy.run(["tests/mpy/link_stream.py"], heapsize="8m")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr


class Watched:
    """A pyserial port that keeps the requests written ((kind, body)) and counts the bytes
    read; flip: (n, bit) flips that bit of the n-th byte read, once."""

    def __init__(self, ser, flip=None):
        self.ser, self.flip = ser, flip
        self.sent = []
        self.read_bytes = 0

    def write(self, data):
        self.sent += [frames.decode(line)[1:] for line in data.splitlines()]
        return self.ser.write(data)

    def read(self, n):
        data = self.ser.read(n)
        if self.flip and self.read_bytes <= self.flip[0] < self.read_bytes + len(data):
            b = bytearray(data)
            b[self.flip[0] - self.read_bytes] ^= 1 << self.flip[1]
            data, self.flip = bytes(b), None
        self.read_bytes += len(data)
        return data

    def kinds(self):
        return collections.Counter(kind for kind, _ in self.sent)

    def __getattr__(self, name):
        return getattr(self.ser, name)


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    folder = tmp_path_factory.mktemp("stream")
    flash, matches = fill(folder, MATCHES, seed=3)
    return flash, matches


def boot(template, tmp_path):
    flash = str(tmp_path / "box.flash")
    with open(template[0], "rb") as f, open(flash, "wb") as g:
        g.write(f.read())
    vp = PicoHeapVirtualPico(flash)
    ser = link.open_port(vp.port)
    vp.wait_ready(link.Client(ser, timeout=1.0))
    return vp, ser


def stored(db, matches):
    s = Store(db)
    try:
        rows = s.db.execute("SELECT number, log FROM matches ORDER BY number").fetchall()
        assert s.check() == []
    finally:
        s.close()
    assert [n for n, _ in rows] == list(range(1, len(matches) + 1))
    assert [json.loads(log) for _, log in rows] == [m["events"] for m in matches]


def test_a_sync_streams_each_file_once_and_acknowledges_one_run(template, tmp_path):
    vp, ser = boot(template, tmp_path)
    try:
        port = Watched(ser)
        db = str(tmp_path / "club.sqlite")
        client = link.Client(port, timeout=10.0)  # counted: no resend on a slow machine
        files = link.Client(ser, timeout=3.0).request("LIST", {"after": 0})["files"]
        s = sync(client, Store(db))
        assert len(s.new) == MATCHES and s.acked == MATCHES
        stored(db, template[1])
        groups = [(name, size) for name, size in files if name.endswith(".tbj")]
        kinds = port.kinds()
        reads = [body for kind, body in port.sent if kind == "READ"]
        assert len(reads) == 1 and reads[0]["files"] == [list(g) for g in groups] and len(groups) >= 6, (
            reads
        )  # one READ of every file
        assert kinds["LIST"] == 1 and kinds["SPACE"] == 1, kinds  # before: 2 LISTs, no SPACE
        acks = [body for kind, body in port.sent if kind == "ACK"]
        assert acks[-1] == {"store": Store(db).identity(), "first": 1, "last": MATCHES}, acks  # before: 3 of 100
        assert len(acks) == 2 and "first" not in acks[0]  # the claim of a new box, then the run
        hello = dict(port.sent)["HELLO"]
        assert hello["space"] is False and isinstance(hello["time"], int)  # its clock set: no CLOCK
        assert set(kinds) == {"HELLO", "ACK", "LIST", "NAMES", "READ", "ROSTER", "SPACE"}, kinds
        journal = sum(size for _, size in groups)
        assert port.read_bytes < journal * 1.05, (port.read_bytes, journal)  # before: 4/3 of it (base64)
        assert "space on the box: " in s.lines()[-1]
        ser.close()
        assert box_unacked(vp) == []
    finally:
        ser.close()
        vp.close()


def test_a_damaged_chunk_is_read_again_from_where_it_begins(template, tmp_path):
    """A bit flipped inside the second chunk of the first file: the chunks before it are
    kept, the READ after asks from that chunk's first byte on, and every match is stored."""
    vp, ser = boot(template, tmp_path)
    try:
        hello_list = 2500  # bytes of HELLO's and LIST's replies, about: the flip lands in READ's data
        port = Watched(ser, flip=(hello_list + frames.CHUNK + 100, 3))
        db = str(tmp_path / "club.sqlite")
        client = link.Client(port, timeout=10.0)
        s = sync(client, Store(db))
        assert len(s.new) == MATCHES
        stored(db, template[1])
        reads = [body for kind, body in port.sent if kind == "READ"]
        first = reads[0]["files"][0][0]  # one READ of every file, then this one alone from its damaged chunk
        again = [r for r in reads[1:] if r["file"] == first]
        assert [r["offset"] for r in again] == [frames.CHUNK], reads[:3]
        assert client.damaged == 1 and client.resent == 0
        ser.close()
        assert box_unacked(vp) == []
    finally:
        ser.close()
        vp.close()


class OtherFirmware(Watched):
    """A box whose HELLO says another sync protocol than this scorebox's (protocol: the one
    it says; None: none), the rest of the reply as the firmware sent it, CRC and all."""

    def __init__(self, ser, protocol):
        super().__init__(ser)
        self.pending = b""
        self.protocol = protocol

    def read(self, n):
        self.pending += self.ser.read(n)
        line, nl, rest = self.pending.rpartition(b"\n")
        if not nl:
            return b""
        self.pending = rest
        out = []
        for one in (line + b"\n").splitlines(keepends=True):
            try:
                seq, kind, body = frames.decode(one)
            except frames.FrameError:
                out.append(one)
                continue
            if kind == "OK" and isinstance(body, dict) and body.get("protocol") == link.PROTOCOL:
                body = {k: v for k, v in body.items() if k != "protocol"}
                one = frames.encode(seq, kind, body if self.protocol is None else dict(body, protocol=self.protocol))
            out.append(one)
        return b"".join(out)

    def reset_input_buffer(self):
        self.pending = b""
        self.ser.reset_input_buffer()


NOT_THIS = "the box's firmware is not this scorebox's (its sync protocol is %s, this scorebox's 2): `scorebox deploy`"


@pytest.mark.parametrize("protocol", [1, None, 3], ids=["protocol 1", "no protocol", "protocol 3"])
def test_a_box_of_another_protocol_is_one_line_nothing_stored_nothing_acknowledged(template, tmp_path, protocol):
    vp, ser = boot(template, tmp_path)
    try:
        port = OtherFirmware(ser, protocol)
        store = Store(str(tmp_path / "club.sqlite"))
        with pytest.raises(link.DeviceError) as e:
            sync(link.Client(port, timeout=10.0), store)
        said = "not said" if protocol is None else protocol
        assert str(e.value).startswith(NOT_THIS % said) and "\n" not in str(e.value), e.value
        assert [kind for kind, _ in port.sent] == ["HELLO"]  # nothing asked after it
        assert store.count() == 0
        ser.close()
        assert len(box_unacked(vp)) == MATCHES  # nothing acknowledged
    finally:
        ser.close()
        vp.close()


@pytest.mark.parametrize("command", ["sync", "doctor"])
def test_sync_and_doctor_say_a_box_of_another_protocol_in_one_line(tmp_path, command):
    box = RawBox(
        lambda seq, kind, body: frames.encode(seq, "OK", {"device": "v-old", "firmware": "0.9.0", "protocol": 1})
    )
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    db = str(tmp_path / "club.sqlite")
    try:
        p = subprocess.run(
            [exe, command, "--port", box.port] + (["--db", db] if command == "sync" else []),
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        box.close()
    assert p.returncode == 2, p.stdout + p.stderr
    said = [line for line in (p.stdout + p.stderr).splitlines() if "firmware is not this scorebox's" in line]
    assert len(said) == 1 and NOT_THIS % 1 in said[0], p.stdout + p.stderr
    if command == "sync":
        assert p.stderr.splitlines() == said and not os.path.exists(db)  # one line, no store left behind
    else:
        assert said[0].startswith("FAIL ") and "battery" not in p.stdout and "matches" not in p.stdout


def test_a_box_at_its_repl_is_told_in_one_line(template, tmp_path):
    """mpremote's or Thonny's Ctrl-C leaves the box at its REPL, which echoes each request
    back: before, `scorebox sync` said "the box refused HELLO: {}"."""
    vp, ser = boot(template, tmp_path)
    try:
        ser.write(b"\x03")  # between frames: the app stops, the REPL starts
        ser.close()
        exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
        p = subprocess.run(
            [exe, "sync", "--port", vp.port, "--db", str(tmp_path / "club.sqlite")],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert p.returncode == 2, p.stdout + p.stderr
        lines = p.stderr.splitlines()
        assert len(lines) == 1 and "the box is at its REPL" in lines[0], p.stderr
        assert "unplug it and plug it in again" in lines[0] and "scorebox deploy" in lines[0]
    finally:
        vp.close()


# --- a hostile box of protocol 2 -----------------------------------------------------------
HELLO2 = dict(PROTOCOL, device="v-hostile", firmware="1.0.0")
FILE = ["g000001.tbj", 5000]


def stream_box(stream):
    """A box of protocol 2 with one match in one file, whose READs stream(seq, body)
    answers."""

    def answer(seq, kind, body):
        if kind == "READ":  # the sync's READ of several files (one here), or a READ of one
            (name, n), at = body.get("files", [[body.get("file"), body.get("length")]])[0], body.get("offset", 0)
            return stream(seq, {"file": name, "offset": at, "length": n})
        if kind == "HELLO":
            return frames.encode(seq, "OK", HELLO2)
        return frames.encode(seq, "OK", {"ranges": [[1, 1]], "files": [FILE], "more": False})

    return RawBox(answer)


HOSTILE = {
    "a stream longer than asked": (
        lambda seq, body: frames.encode(seq, "BIN", {"length": body["length"] + 1}) + chunked(b"x" * 5001),
        "is not valid (length 5001)",
    ),
    "a length that is not a number": (
        lambda seq, body: frames.encode(seq, "BIN", {"length": "all"}),
        "is not valid (length 'all')",
    ),
    "every chunk damaged": (
        lambda seq, body: frames.encode(seq, "BIN", {"length": body["length"]}) + chunked(b"x" * body["length"], 1),
        "replies to READ arrived damaged",
    ),
    "a stream that stops": (
        lambda seq, body: frames.encode(seq, "BIN", {"length": body["length"]}) + b"x" * 100,
        "replies to READ arrived damaged",
    ),
    "junk instead of a stream": (
        lambda seq, body: bytes(range(256)) * 40 + b"\n",
        "stopped answering (no reply to READ",
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_stream_ends_the_sync_in_one_line(tmp_path, name):
    stream, why = HOSTILE[name]
    box = stream_box(stream)
    ser = link.open_port(box.port)
    store = Store(str(tmp_path / "club.sqlite"))
    try:
        with pytest.raises(link.DeviceError, match=re.escape(why)) as e:
            sync(link.Client(ser, timeout=0.5, retries=2, deadline=3.0), store, roster=False, clock=False)
        assert "\n" not in str(e.value)
        assert store.count() == 0
    finally:
        store.close()
        ser.close()
        box.close()


@pytest.mark.parametrize(
    "ranges, why",
    [
        ([[1, 200000]], "too many matches"),
        ([[1, 2**31]], "run [1, 2147483648] after 0"),
        ([[5, 3]], "run [5, 3] after 0"),
        ([[3, 4], [2, 6]], "run [2, 6] after 4"),
        ([[1, "2"]], "run [1, '2']"),
        ([[i, i] for i in range(1, 2 * frames.MAX_RUNS, 2)] + [[999, 999]], "too many matches"),
    ],
)
def test_a_hostile_list_of_runs_ends_the_sync_in_one_line(tmp_path, ranges, why):
    def answer(seq, kind, body):
        return frames.encode(seq, "OK", HELLO2 if kind == "HELLO" else {"ranges": ranges, "files": [], "more": False})

    box = RawBox(answer)
    ser = link.open_port(box.port)
    store = Store(str(tmp_path / "club.sqlite"))
    try:
        with pytest.raises(link.DeviceError, match=re.escape(why)):
            sync(link.Client(ser, timeout=2.0, retries=0), store, roster=False, clock=False)
        assert store.count() == 0
    finally:
        store.close()
        ser.close()
        box.close()


def test_a_protocol_that_is_not_a_number_is_not_this_scorebox_s(tmp_path):
    box = RawBox(lambda seq, kind, body: frames.encode(seq, "OK", dict(HELLO2, protocol="2")))
    ser = link.open_port(box.port)
    try:
        with pytest.raises(link.DeviceError, match=re.escape(NOT_THIS % "'2'")):
            sync(link.Client(ser, timeout=2.0, retries=0), Store(str(tmp_path / "c.sqlite")), roster=False)
    finally:
        ser.close()
        box.close()
