"""A store another program holds during sync's roster step (issue 23): the matches are
stored and acknowledged by then, so the sync stands and its summary says in one line that
the roster was not sent, naming the holder. Before, store/lock.py's StoreLocked was no
StoreError, push_roster let it through and it ended the sync with exit status 2.

The holder is a real process with a real write transaction on the store (which holds both
games); the box is the virtual Pico. The wait is shortened (lock.LOCK_WAIT), nothing timed."""

import subprocess
import sys

import pytest
from bothstore import both_games

from scorebox.device import link
from scorebox.sim.vpico import VirtualPico
from scorebox.store import lock
from scorebox.store.errors import StoreError, StoreLocked
from scorebox.store.sqlite import Store
from scorebox.sync.protocol import push_roster

pytestmark = pytest.mark.micropython

HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE devices SET last_seen = last_seen")
print("held", flush=True)
sys.stdin.readline()
db.execute("COMMIT")
"""


def test_a_lock_during_the_roster_step_is_one_line_and_the_sync_stands(tmp_path, monkeypatch):
    monkeypatch.setattr(lock, "LOCK_WAIT", 0.5)
    path = both_games(str(tmp_path / "club.sqlite"))
    store = Store(path)
    vp = VirtualPico(str(tmp_path / "box.flash"))
    try:
        ser = link.open_port(vp.port)
        try:
            client = link.Client(ser, timeout=3.0)
            vp.wait_ready(client)
            holder = subprocess.Popen(
                [sys.executable, "-c", HOLDER, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            try:
                assert holder.stdout.readline().strip() == "held"
                lines = push_roster(client, store)
            finally:
                holder.communicate("\n", timeout=30)
            assert len(lines) == 1, lines
            assert lines[0].startswith("roster not sent (the matches are synced): ")
            assert "being written by" in lines[0] and "pid %d" % holder.pid in lines[0], lines
            # once the holder is gone the roster goes, both games' archers on it
            got = push_roster(client, store)
            assert got[-1].startswith("roster on the box: ") and got[-1] != "roster on the box: 0 archers", got
        finally:
            ser.close()
    finally:
        vp.close()
        store.close()
    assert issubclass(StoreLocked, StoreError)
