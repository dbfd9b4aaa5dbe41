"""A long sync decodes and replays in a worker process (scorebox/sync/workers.py) while this
process stores: the store must come out as the one-process sync makes it, and a sync
killed mid-way must leave no process behind and nothing half-stored."""

import os
import pty
import random
import select
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest
from boxfill import fill
from picoheap import PicoHeapVirtualPico as VirtualPico  # the Pico's budget: .mpy, 192 KB heap
from test_sync_faults import FaultySerial, cli_sync

from scorebox.device import link
from scorebox.device.link import DeviceError
from scorebox.store.sqlite import Store
from scorebox.sync import workers
from scorebox.sync.pull import sync

pytestmark = pytest.mark.micropython

MATCHES = 200  # three group files: a sync that starts a worker


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return fill(tmp_path_factory.mktemp("big"), MATCHES, seed=3)


def boot(template, folder):
    flash = str(folder / "box.flash")
    shutil.copyfile(template[0], flash)
    vp = VirtualPico(flash)
    ser = link.open_port(vp.port)
    client = link.Client(ser, timeout=2.0)
    vp.wait_ready(client)
    return vp, ser, client


def dump(store):
    """Every stored row but import times, in a fixed order."""
    tables = {
        "matches": "id, device_id, number, started, options, header, log, extras, winner, wins_a, wins_b, draws, "
        "finished",
        "archers": "*",
        "match_archers": "*",
        "games": "*",
        "turns": "*",
        "arrows": "*",
    }
    return {t: sorted(store.db.execute("SELECT %s FROM %s" % (c, t)), key=repr) for t, c in tables.items()}


def stat(pid):
    """(state, parent pid) of a process, or None once it is gone (Linux /proc)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1])


def alive(pid):
    st = stat(pid)
    return st is not None and st[0] not in "ZX"


def children(pid):
    """Pids of the live processes whose parent is pid."""
    return {int(n) for n in os.listdir("/proc") if n.isdigit() and alive(int(n)) and stat(int(n))[1] == pid}


def test_a_worker_process_stores_what_one_process_stores(template, tmp_path, monkeypatch):
    got = {}
    for min_jobs in (1, 10**6):  # a worker for every sync; never a worker
        monkeypatch.setattr(workers, "MIN_JOBS", min_jobs)
        folder = tmp_path / str(min_jobs)
        folder.mkdir()
        vp, ser, client = boot(template, folder)
        try:
            store = Store(str(folder / "club.sqlite"))
            before = children(os.getpid())
            s = sync(client, store)
            assert len(s.new) == MATCHES and not s.refused and store.check() == []
            assert children(os.getpid()) == before  # the worker is gone with the sync
            got[min_jobs] = dump(store)
        finally:
            ser.close()
            vp.close()
    assert got[1] == got[10**6]
    assert len(got[1]["arrows"]) > 10 * MATCHES


def test_a_killed_sync_leaves_no_worker_and_loses_nothing(template, tmp_path):
    vp, ser, client = boot(template, tmp_path)
    ser.close()
    db = str(tmp_path / "club.sqlite")
    try:
        p = cli_sync(vp, db)
        deadline = time.monotonic() + 60
        while not children(p.pid) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        started = children(p.pid)
        assert started, "the sync started no worker process"
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(alive(w) for w in started):
            assert time.monotonic() < deadline, "a worker outlived the killed sync"
            time.sleep(0.05)
        store = Store(db)
        assert store.check() == []
        ser = link.open_port(vp.port)
        sync(link.Client(ser, timeout=2.0), store)
        assert store.count() == MATCHES and store.check() == []
    finally:
        ser.close()
        vp.close()


def test_a_sync_that_fails_midway_leaves_no_thread_or_worker(template, tmp_path, monkeypatch):
    """The cable pulled during the second file's READ: the sync raises DeviceError, and
    its fetching and acknowledging threads and its worker are gone when it returns; what
    it stored, the next sync acknowledges."""
    monkeypatch.setattr(workers, "MIN_JOBS", 1)
    vp, ser, client = boot(template, tmp_path)
    try:
        store = Store(str(tmp_path / "club.sqlite"))
        threads, kids = threading.active_count(), children(os.getpid())
        port = FaultySerial(ser, random.Random(1), "pull", 2)
        port.after = 30000  # bytes read: inside the second group file
        with pytest.raises(DeviceError):
            sync(link.Client(port, timeout=0.5, retries=1), store)
        assert threading.active_count() == threads and children(os.getpid()) == kids
        assert store.check() == []
        sync(link.Client(ser, timeout=2.0), store)
        assert store.count() == MATCHES
    finally:
        ser.close()
        vp.close()


def test_a_long_sync_shows_a_progress_bar_on_a_terminal(template, tmp_path):
    """The bar goes to a terminal (here a pty as the command's stderr), never into a log."""
    vp, ser, client = boot(template, tmp_path)
    ser.close()
    master, slave = pty.openpty()
    try:
        exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
        db = str(tmp_path / "club.sqlite")
        p = subprocess.run(
            [exe, "sync", "--port", vp.port, "--db", db], stdout=subprocess.PIPE, stderr=slave, text=True, timeout=120
        )
        assert p.returncode == 0 and "%d new matches stored" % MATCHES in p.stdout
        shown = b""
        while select.select([master], [], [], 0.2)[0]:
            shown += os.read(master, 4096)
        shown = shown.decode()
        steps = [s for s in shown.split("\r") if s.startswith("[")]
        assert steps and steps[-1].strip() == "[%s] %d/%d matches" % ("#" * 30, MATCHES, MATCHES), shown
        assert "[" not in p.stdout  # the summary on stdout, without the bar
    finally:
        os.close(slave)
        os.close(master)
        vp.close()
