"""A retired archer stays retired (#21 item 3): the box still lists them until the sync after
the retirement sends it the store's list, and that sync's merge brought them back unretired
(store/roster.py merge_from_box), against the README, docs/sync.md and `archers retire`'s
own "off the box's list at the next sync". Through the real command line and a virtual
Pico (the real firmware on MicroPython) over a pseudo-terminal, on a real SQLite store."""

import os
import subprocess
import sys

import pytest

from scorebox.device import link
from scorebox.sim.vpico import VirtualPico
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database

pytestmark = pytest.mark.micropython


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)


class Box:
    """The virtual Pico on its pty, with a client for the roster's frames."""

    def __init__(self, flash):
        self.vp = VirtualPico(flash)
        self.ser = link.open_port(self.vp.port)
        self.client = link.Client(self.ser, timeout=3.0)
        self.vp.wait_ready(self.client)

    def names(self):
        got, out = None, []
        while got is None or len(out) < got["total"]:
            got = self.client.request("NAMES", {"from": len(out)})
            out += got["names"]
        return out

    def sync(self, db):
        self.ser.close()
        p = scorebox("sync", "--port", self.vp.port, "--db", db)
        self.ser = link.open_port(self.vp.port)
        self.client = link.Client(self.ser, timeout=3.0)
        return p

    def close(self):
        self.ser.close()
        self.vp.close()


def listed(db, *more):
    p = scorebox("archers", "list", "--db", db, *more)
    assert p.returncode == 0, p.stderr
    return [ln.split()[0] for ln in p.stdout.splitlines()[1:-1]]


def test_a_retired_archer_stays_retired_and_leaves_the_box(tmp_path):
    db = str(tmp_path / "club.sqlite")
    assert scorebox("archers", "add", "Ann", "Bob", "Dan", "--db", db).returncode == 0
    box = Box(str(tmp_path / "box.flash"))
    try:
        p = box.sync(db)
        assert p.returncode == 0 and "roster on the box: 3 archers" in p.stdout, p.stdout + p.stderr
        assert sorted(box.names()) == ["Ann", "Bob", "Dan"]
        p = scorebox("archers", "retire", "dan", "--db", db)
        assert p.returncode == 0 and "off the box's list at the next sync" in p.stdout
        p = box.sync(db)  # the box still lists Dan: he must not come back
        assert p.returncode == 0 and "roster on the box: 2 archers" in p.stdout, p.stdout + p.stderr
        assert "added to the store" not in p.stdout
        assert sorted(box.names()) == ["Ann", "Bob"]
        assert listed(db) == ["Ann", "Bob"] and listed(db, "--retired") == ["Ann", "Bob", "Dan"]
        p = box.sync(db)
        assert p.returncode == 0 and "roster on the box: 2 archers" in p.stdout
    finally:
        box.close()


def test_the_merge_leaves_a_retired_name_as_it_is(store_at):
    """merge_from_box alone: a name the store has retired, in any case, is neither added
    again nor brought back."""
    s = open_store(store_at, create=True)
    for name in ("Ann", "Dan"):
        s.add_archer(name)
    s.retire_archer("Dan")
    s.merge_from_box(["Ann", "DAN", "Eve"])
    assert [(r[0], r[1]) for r in s.archers(retired=True)] == [("Ann", 0), ("Dan", 1), ("Eve", 0)]
    assert s.box_names() == ["Ann", "Eve"]
    s.close()
