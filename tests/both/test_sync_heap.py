"""Sync on the box's own heap: the firmware as .mpy under `-X heapsize=192k` (the heap the app
is tested on) behind a pty, as a Pico would run it. Every frame the box reads is at most
frames.MAX_REQUEST bytes and every reply is written in pieces (docs/sync.md "Sizes"), so a
first sync of a box holding 1,000 matches completes, and frames the box cannot hold get an
ERR and leave it answering."""

import binascii
import json
import os
import subprocess
import sys

import pytest
from boxfill import fill
from picoheap import PicoHeapVirtualPico
from test_sync import raw_request, signed
from test_sync_faults import box_unacked

from scorebox.device import link
from scorebox.store.sqlite import Store
from scorebox_core import frames

pytestmark = pytest.mark.micropython


def start(folder, count):
    flash, matches = fill(folder, count)
    vp = PicoHeapVirtualPico(flash)
    ser = link.open_port(vp.port)
    try:
        vp.wait_ready(link.Client(ser, timeout=1.0, retries=0))
    finally:
        ser.close()
    return vp, matches


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    vp, matches = start(tmp_path_factory.mktemp("heapbox"), 300)
    yield vp, matches
    vp.close()


def test_a_first_sync_of_1000_matches_on_the_pico_heap(tmp_path):
    """Failed before: READ of 12,288 bytes could not be allocated (16 KB of base64)."""
    vp, matches = start(tmp_path, 1000)
    try:
        db = str(tmp_path / "club.sqlite")
        exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
        p = subprocess.run([exe, "sync", "--port", vp.port, "--db", db], capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stdout + p.stderr + vp.tail()
        assert "1000 new matches stored" in p.stdout
        s = Store(db)
        logs = [json.loads(r[0]) for r in s.db.execute("SELECT log FROM matches ORDER BY number")]
        assert logs == [m["events"] for m in matches]
        assert box_unacked(vp) == []  # the ACK of the run reached the box
        assert vp.proc.poll() is None
    finally:
        vp.close()


def hello_padded(chars):
    """A HELLO frame (valid CRC) whose body carries chars of padding."""
    return signed(b"~SB1 9 HELLO " + binascii.b2a_base64(json.dumps({"pad": "a" * chars}).encode()).strip() + b" ")


@pytest.mark.parametrize(
    "line, error",
    [
        # before: a HELLO of 8 KB ended the app
        (hello_padded(60000), "frame too long: at most %d bytes" % frames.MAX_REQUEST),
        (hello_padded(6000), "frame too long"),
        (frames.encode(5, "ROSTER", {"names": ["Archer %05d" % i for i in range(200)]}), "frame too long"),
    ],
)
def test_frames_the_box_cannot_hold_get_an_error(box, line, error):
    vp, _ = box
    ser = link.open_port(vp.port)
    try:
        c = link.Client(ser, timeout=3.0)
        before = c.request("LIST", {"after": 0})
        kind, body = raw_request(ser, line)
        assert kind == "ERR" and error in body["error"], body
        assert c.request("HELLO")["matches"] == 300  # still answering
        assert c.request("LIST", {"after": 0}) == before
    finally:
        ser.close()


def test_reads_lists_and_acks_of_the_largest_size_fit(box):
    """The largest READ, a full LIST of runs and an ACK of every match on the Pico heap."""
    vp, _ = box
    ser = link.open_port(vp.port)
    try:
        c = link.Client(ser, timeout=3.0)
        store = {"store": "0123456789abcdef"}
        for n in range(2, 2 * frames.MAX_RUNS + 1, 2):  # 1, 3 ... 199, then 201-300: MAX_RUNS + 1 runs
            c.request("ACK", dict(store, first=n, last=n))
        got = c.request("LIST", {"after": 0})
        assert len(got["ranges"]) == frames.MAX_RUNS and got["more"]
        name, size = max(got["files"], key=lambda f: f[1])
        data = c.request("READ", {"file": name, "offset": 0, "length": frames.MAX_STREAM})
        assert len(data) == size
        assert c.request("READ", {"file": name, "offset": 1, "length": 5}) == data[1:6]
        assert c.request("READ", {"file": name, "offset": size - 3, "length": 100}) == data[-3:]
        every = dict(store, first=1, last=300)
        assert c.request("ACK", every) == {"first": 1, "last": 300}
        assert c.request("ACK", every) == {"first": 1, "last": 300}  # sent again (a lost reply): the same answer
        assert c.request("LIST", {"after": 0})["ranges"] == []
    finally:
        ser.close()


def test_the_pc_never_sends_more_than_the_box_takes(box):
    vp, _ = box
    ser = link.open_port(vp.port)
    try:
        c = link.Client(ser, timeout=3.0)
        with pytest.raises(link.DeviceError, match="longer than a box takes"):
            c.request("HELLO", {"pad": "a" * frames.MAX_REQUEST})
    finally:
        ser.close()
