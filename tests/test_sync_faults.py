"""Sync under faults: the cable pulled mid-transfer, bytes corrupted on the wire, the host
killed mid-import, the box rebooting during sync. Over 200 injected faults, no match is
lost (each is in the store or still unacknowledged on the box), none is stored twice, and
the store always passes SQLite's integrity checks. A clean sync then finishes the job."""

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest
from test_sync import fill

from scorebox import device
from scorebox.device import DeviceError
from scorebox.store import Store
from scorebox.sync import sync
from scorebox.vpico import VirtualPico

pytestmark = pytest.mark.micropython

ROUNDS = 8
FAULTS_PER_ROUND = 26  # 208 faults in all
MATCHES = 30


class Pulled(Exception):
    pass


class FaultySerial:
    """A pyserial port with a fault armed: flip a byte of the n-th chunk read or written,
    or pull the cable (SerialException) once n bytes have been read."""

    def __init__(self, ser, rnd, kind):
        self.ser = ser
        self.kind = kind
        self.after = rnd.randrange(1, 6000)
        self.seen = 0
        self.rnd = rnd
        self.fired = False

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
        return self.ser.write(data)

    def __getattr__(self, name):
        return getattr(self.ser, name)


def box_unacked(vp):
    ser = device.open_port(vp.port)
    try:
        c = device.Client(ser, timeout=1.0, retries=6)
        vp.wait_ready(c)
        out, after = [], 0
        while True:
            got = c.request("LIST", {"after": after})
            out += got["matches"]
            if not got["more"]:
                return out
            after = got["matches"][-1]
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


def faulty_sync(vp, db, rnd, kind):
    """One sync with one fault; True if the fault stopped it (else the retries beat it)."""
    if kind == "kill-host":
        exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
        p = subprocess.Popen(
            [exe, "sync", "--port", vp.port, "--db", db, "--timeout", "0.5"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rnd.uniform(0.05, 1.2))
        p.send_signal(signal.SIGKILL)
        return p.wait() == -signal.SIGKILL
    ser = device.open_port(vp.port)
    store = Store(db)
    timer = None
    if kind == "reboot":
        timer = threading.Timer(rnd.uniform(0.01, 0.6), vp.reboot)
        timer.start()
    port = ser if kind == "reboot" else FaultySerial(ser, rnd, kind)
    try:
        sync(device.Client(port, timeout=0.5, retries=3), store)
        return False
    except DeviceError:
        return True  # the sync stopped with a clear error
    finally:
        if timer:
            timer.join()
        store.close()
        ser.close()


def test_two_hundred_faults(tmp_path):
    rnd = random.Random(20261130)
    kinds = ["pull", "corrupt-in", "corrupt-out", "kill-host", "reboot"]
    injected = {k: 0 for k in kinds}
    stopped = 0
    for r in range(ROUNDS):
        folder = tmp_path / ("round%d" % r)
        folder.mkdir()
        flash, matches = fill(folder, MATCHES, seed=r)
        db = str(folder / "club.sqlite")
        vp = VirtualPico(flash)
        try:
            ser = device.open_port(vp.port)
            uid = vp.wait_ready(device.Client(ser, timeout=1.0))["device"]
            ser.close()
            for _ in range(FAULTS_PER_ROUND):
                kind = rnd.choice(kinds)
                injected[kind] += 1
                stopped += faulty_sync(vp, db, rnd, kind)
                check(db, vp, matches, uid)
            ser = device.open_port(vp.port)
            try:
                sync(device.Client(ser, timeout=2.0), Store(db))
            finally:
                ser.close()
            assert check(db, vp, matches, uid) == MATCHES
            assert box_unacked(vp) == []
        finally:
            vp.close()
    assert sum(injected.values()) >= 200
    print("faults injected: %s; %d stopped a sync, the others were beaten by retries" % (injected, stopped))
    assert stopped >= 50, "too few faults hit a sync under way"
