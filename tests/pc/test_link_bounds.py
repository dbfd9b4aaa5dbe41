"""The link's bounds (issue 21, item 15).

A box that stops answering ends a sync at the link's deadline (link.DEADLINE, 10 s), with
one line saying what to do and exit status 2: counted here as the requests the box is
sent after it went quiet (the deadline allows ceil(10 / 3) = 4 at the CLI's 3 s timeout,
its retries would allow 5, and before, each request waiting for the line had 5 more:
30-60 s). The box refuses a ROSTER part below 0, a READ past a file's end and a store id
that is not 1-32 printable characters (tests/mpy/link_bounds.py, on the box's VM).

The quiet box is tests/support/hostilebox.py's, gone quiet, or the real firmware on the virtual
Pico frozen with SIGSTOP mid-sync.
"""

import math
import os
import signal
import subprocess
import sys
import threading
import time

import mpy
import pytest
from boxfill import fill
from hostilebox import PROTOCOL, HostileBox
from picoheap import PicoHeapVirtualPico

from scorebox.device import link
from scorebox.store.sqlite import Store
from scorebox.sync.protocol import PIPELINE
from scorebox.sync.pull import sync
from scorebox_core import frames

CLI_TIMEOUT = 3.0  # `scorebox sync`'s --timeout by default (sync/commands.py)
HELLO = dict(PROTOCOL, device="v-quiet", firmware="1.0.0", store=None)


def one_match(kind, body):
    return {
        "HELLO": ("OK", HELLO),
        "ACK": ("OK", {}),
        "LIST": ("OK", {"ranges": [[1, 1]], "files": [["g000001.tbj", 100]], "more": False}),
    }.get(kind, ("ERR", {"error": "unknown request %s" % kind}))


def test_cli_sync_ends_at_the_deadline_when_the_box_stops_answering(tmp_path):
    box = HostileBox(one_match, quiet=lambda kind: kind == "READ")
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    try:
        t0 = time.monotonic()
        p = subprocess.run(
            [exe, "sync", "--port", box.port, "--db", str(tmp_path / "club.sqlite")],
            capture_output=True,
            text=True,
            timeout=300,  # a sanity bound only: what ended it is counted below
        )
        took = time.monotonic() - t0
    finally:
        box.close()
    assert p.returncode == 2, p.stdout + p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and "the box stopped answering (no reply to READ" in lines[0], p.stderr
    assert "sync again" in lines[0]
    # the deadline ended it: 4 READs of 3 s (the last cut to 1 s), not the 5 the retries allow
    quiet = box.unanswered()
    assert set(quiet) == {"READ"} and len(quiet) <= math.ceil(link.DEADLINE / CLI_TIMEOUT) < 5, box.got
    assert took < 120, took  # 10 s and a start-up; 15 s before; never near this


def test_requests_waiting_for_the_line_fail_at_once_with_the_first(tmp_path):
    """The sync reads and acknowledges from two threads: when one request has gone
    unanswered until the deadline, the one waiting for the line fails with it instead of
    waiting out a deadline of its own; a later request tries once; an answer ends it."""
    quiet = threading.Event()
    box = HostileBox(one_match, quiet=lambda kind: quiet.is_set())
    ser = link.open_port(box.port)
    try:
        c = link.Client(ser, timeout=0.5, retries=100, deadline=4.0)
        c.request("HELLO")
        quiet.set()
        errors, asking = {}, threading.Event()

        def ask(kind):
            if kind == "ACK":
                asking.set()
            try:
                c.request(kind, {"after": 0} if kind == "LIST" else {"store": "0123456789abcdef"})
            except link.DeviceError as e:
                errors[kind] = str(e)

        first = threading.Thread(target=ask, args=("LIST",))
        first.start()
        for _ in range(3000):
            if box.got[1:]:  # the LIST is on the line, the lock held
                break
            time.sleep(0.01)
        waiting = threading.Thread(target=ask, args=("ACK",))
        waiting.start()
        asking.wait()
        first.join(60)
        waiting.join(60)
        assert errors["LIST"] == errors["ACK"] and "stopped answering (no reply to LIST" in errors["LIST"]
        # the deadline ended it: 8 tries of 0.5 s, not 101; the ACK never went on the line
        assert box.unanswered() == ["LIST"] * len(box.unanswered()) and len(box.unanswered()) <= 8, box.got
        ask("ACK")  # later: one try
        assert box.unanswered()[-1] == "ACK" and box.unanswered().count("ACK") == 1, box.got
        assert "stopped answering (no reply to ACK" in errors["ACK"]
        quiet.clear()
        assert c.request("LIST", {"after": 0})["ranges"] == [[1, 1]]  # the box is back
        assert c.gone is None
    finally:
        ser.close()
        box.close()


class Freezer:
    """A pyserial port that freezes the virtual Pico (SIGSTOP) as it writes the n-th READ,
    and keeps the kinds of the requests written after: those of the freeze's burst (the
    READs the PC sends together before it flushes, in flight as the box froze) in flight,
    those sent after it (the PC asking again) in again."""

    def __init__(self, ser, pid, n):
        self.ser, self.pid, self.n = ser, pid, n
        self.reads = 0
        self.after = None  # kinds written since the freeze
        self.burst = []  # (kind, body) written from the freeze until the PC's next flush
        self.in_flight = None  # the burst, once flushed
        self.again = []  # (kind, body) written after that flush

    def write(self, data):
        _seq, kind, body = frames.decode(data)
        if self.after is not None:
            self.after.append(kind)
            (self.again if self.in_flight is not None else self.burst).append((kind, body))
        elif kind == "READ":
            self.reads += len(body["files"]) if "files" in body else 1  # a READ of several files counts each
            if self.reads >= self.n:
                os.kill(self.pid, signal.SIGSTOP)
                self.after = [kind]
                self.burst.append((kind, body))
        return self.ser.write(data)

    def flush(self):
        if self.after is not None and self.in_flight is None:
            self.in_flight = self.burst
        return self.ser.flush()

    def __getattr__(self, name):
        return getattr(self.ser, name)


@pytest.mark.micropython
def test_a_frozen_virtual_pico_ends_the_sync_at_the_deadline_and_loses_nothing(tmp_path):
    flash, _ = fill(tmp_path, 100)  # two group files: three READs
    vp = PicoHeapVirtualPico(flash)
    ser = link.open_port(vp.port)
    store = Store(str(tmp_path / "club.sqlite"))
    try:
        vp.wait_ready(link.Client(ser, timeout=1.0, retries=0))
        port = Freezer(ser, vp.proc.pid, 2)
        with pytest.raises(link.DeviceError, match=r"stopped answering \(no reply to READ.*sync again"):
            sync(link.Client(port, timeout=CLI_TIMEOUT), store)  # as `scorebox sync` makes it
        assert port.after and set(port.after) == {"READ"}, port.after
        # The deadline governs the asking again, not the READs already in flight as the box
        # froze (up to PIPELINE sent together): one try a timeout, until the deadline.
        assert 1 <= len(port.in_flight) <= PIPELINE, port.in_flight
        assert 1 <= len(port.again) <= math.ceil(link.DEADLINE / CLI_TIMEOUT) < 5, port.again
        assert all(a == port.again[0] for a in port.again), port.again  # one request, asked again
        os.kill(vp.proc.pid, signal.SIGCONT)  # the box plays on: the next sync brings every match
        sync(link.Client(ser, timeout=CLI_TIMEOUT), store)
        assert store.count() == 100
        assert link.Client(ser, timeout=CLI_TIMEOUT).request("LIST", {"after": 0})["ranges"] == []  # all acknowledged
    finally:
        os.kill(vp.proc.pid, signal.SIGCONT)
        store.close()
        ser.close()
        vp.close()


@pytest.mark.micropython
def test_the_box_refuses_a_roster_part_below_0_a_read_past_the_end_and_an_empty_store_id():
    r = mpy.run(["tests/mpy/link_bounds.py"], heapsize="4m")
    assert r.returncode == 0 and "ALL OK" in r.stdout and "FAIL" not in r.stdout, r.stdout + r.stderr
