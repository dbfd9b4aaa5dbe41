"""Sync under faults: the cable pulled mid-transfer, bytes corrupted on the wire, the host
killed mid-import, the box rebooting during sync. Over 200 injected faults, no match is
lost (each is in the store or still unacknowledged on the box), none is stored twice, and
the store always passes SQLite's integrity checks. A clean sync then finishes the job."""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest
from boxfill import fill
from picoheap import PicoHeapVirtualPico as VirtualPico  # the Pico's budget: .mpy, 192 KB heap

from scorebox.device import link
from scorebox.device.link import DeviceError
from scorebox.store.sqlite import Store
from scorebox.sync import workers
from scorebox.sync.pull import sync

pytestmark = pytest.mark.micropython

FAULTS = 200
MATCHES = 40


class Pulled(Exception):
    pass


class FaultySerial:
    """A pyserial port with a fault armed: flip a byte of the n-th chunk read or written,
    or pull the cable (SerialException) once n bytes have been read."""

    def __init__(self, ser, rnd, kind, span):
        self.ser = ser
        self.kind = kind
        self.after = rnd.randrange(1, span)  # span: bytes a whole sync moves that way
        self.seen = 0
        self.rnd = rnd
        self.fired = False
        self.written = 0

    def _flip(self, data):
        if self.fired or not data or self.seen + len(data) < self.after:
            self.seen += len(data)
            return data
        self.fired = True
        b = bytearray(data)
        i = self.rnd.randrange(len(b))
        b[i] ^= 1 << self.rnd.randrange(8)
        return bytes(b)

    def read(self, n):
        if self.kind == "count":
            data = self.ser.read(n)
            self.seen += len(data)
            return data
        if self.kind == "pull" and self.seen >= self.after:
            import serial

            self.fired = True
            raise serial.SerialException("device reports readiness to read but returned no data (cable pulled)")
        data = self.ser.read(n)
        if self.kind == "corrupt-in":
            return self._flip(data)
        self.seen += len(data)
        return data

    def write(self, data):
        if self.kind == "corrupt-out":
            data = self._flip(data)
        if self.kind == "count":
            self.written += len(data)
        return self.ser.write(data)

    def __getattr__(self, name):
        return getattr(self.ser, name)


def box_unacked(vp):
    ser = link.open_port(vp.port)
    try:
        c = link.Client(ser, timeout=1.0, retries=6)
        vp.wait_ready(c)
        out, after = [], 0
        while True:
            got = c.request("LIST", {"after": after})
            out += [n for a, b in got["ranges"] for n in range(a, b + 1)]
            if not got["more"]:
                return out
            after = got["ranges"][-1][1]
    finally:
        ser.close()


def check(store_path, vp, matches, uid):
    """The invariants: consistent store, no duplicate, nothing lost, stored = as keyed."""
    s = Store(store_path)
    try:
        assert s.check() == []
        rows = s.db.execute(
            "SELECT m.number, m.log FROM matches m JOIN devices d ON d.id = m.device_id WHERE d.uid = ?", (uid,)
        ).fetchall()
    finally:
        s.close()
    numbers = [r[0] for r in rows]
    assert len(numbers) == len(set(numbers)), "a match stored twice"
    for n, log in rows:
        assert json.loads(log) == matches[n - 1]["events"]
    missing = set(range(1, len(matches) + 1)) - set(numbers) - set(box_unacked(vp))
    assert not missing, "lost: %s" % sorted(missing)
    return len(numbers)


def cli_sync(vp, db):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.Popen(
        [exe, "sync", "--port", vp.port, "--db", db, "--timeout", "0.5"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def calibrate(template, folder):
    """What a clean sync of the template box costs: bytes each way, seconds in-process and
    seconds through the command line, so that faults land while a sync is under way."""
    cal = {}
    for how in ("in", "cli"):
        flash = str(folder / ("cal-%s.flash" % how))
        shutil.copyfile(template, flash)
        vp = VirtualPico(flash)
        try:
            ser = link.open_port(vp.port)
            vp.wait_ready(link.Client(ser, timeout=1.0))
            t0 = time.monotonic()
            if how == "in":
                port = FaultySerial(ser, random.Random(0), "count", 2)
                sync(link.Client(port, timeout=2.0), Store(str(folder / "cal.sqlite")))
                cal.update(read=port.seen, written=port.written, seconds=time.monotonic() - t0)
            else:
                ser.close()
                cli_sync(vp, str(folder / "cal-cli.sqlite")).wait(timeout=120)
                cal["cli_seconds"] = time.monotonic() - t0
            ser.close()
        finally:
            vp.close()
    return cal


def faulty_sync(vp, db, rnd, kind, cal):
    """One sync with one fault; True if the fault stopped it (else the retries beat it)."""
    if kind == "kill-host":
        p = cli_sync(vp, db)
        time.sleep(rnd.uniform(0, cal["cli_seconds"]))
        p.send_signal(signal.SIGKILL)
        return p.wait() == -signal.SIGKILL
    ser = link.open_port(vp.port)
    store = Store(db)
    timer = None
    if kind == "reboot":
        timer = threading.Timer(rnd.uniform(0, cal["seconds"]), vp.reboot)
        timer.start()
        port = ser
    else:
        port = FaultySerial(ser, rnd, kind, cal["written" if kind == "corrupt-out" else "read"])
    try:
        sync(link.Client(port, timeout=0.5, retries=3), store)
        return False
    except DeviceError:
        return True  # the sync stopped with a clear error
    finally:
        if timer:
            timer.join()
        store.close()
        ser.close()


def test_two_hundred_faults(tmp_path, monkeypatch):
    """Rounds start from the same box (a copy of one flash image with MATCHES matches) and
    an empty store; faults are injected until everything is synced, so every fault hits a
    sync that still has matches to move. The in-process syncs hand their decoding to a
    worker process, as long syncs do; the killed ones (command line) work in one."""
    monkeypatch.setattr(workers, "MIN_JOBS", 1)
    rnd = random.Random(20261130)
    kinds = ["pull", "corrupt-in", "corrupt-out", "kill-host", "reboot"]
    injected = {k: 0 for k in kinds}
    stopped = rounds = 0
    template, matches = fill(tmp_path, MATCHES, seed=5)
    cal = calibrate(template, tmp_path)
    while sum(injected.values()) < FAULTS:
        rounds += 1
        folder = tmp_path / ("round%d" % rounds)
        folder.mkdir()
        flash = str(folder / "box.flash")
        shutil.copyfile(template, flash)
        db = str(folder / "club.sqlite")
        vp = VirtualPico(flash)
        try:
            ser = link.open_port(vp.port)
            uid = vp.wait_ready(link.Client(ser, timeout=1.0))["device"]
            ser.close()
            while box_unacked(vp):
                kind = rnd.choice(kinds)
                injected[kind] += 1
                stopped += faulty_sync(vp, db, rnd, kind, cal)
                check(db, vp, matches, uid)
            assert check(db, vp, matches, uid) == MATCHES
        finally:
            vp.close()
    print("calibration %s; %d rounds, faults injected: %s; %d stopped a sync" % (cal, rounds, injected, stopped))
    # The faults land at random moments: at least a fifth must stop a sync under way (48 of
    # 200 did in a CI run at a load of about 4, the sync being faster since issue 22).
    assert stopped >= FAULTS // 5, "too few faults hit a sync under way"
