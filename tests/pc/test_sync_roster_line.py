"""The roster's line in `scorebox sync`'s summary says what the box's roster holds after the
sync, and then which names the box brought to the store: it said only the names added
("archers from the box added to the store: Zed"), which a club's secretary read as the
roster. Through the real command line and a virtual Pico (the real firmware on MicroPython)
over a pseudo-terminal, on a real SQLite store."""

import os
import subprocess
import sys

import pytest

from scorebox.device import link
from scorebox.sim.vpico import VirtualPico

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

    def sync(self, db):
        """`scorebox sync`'s lines that speak of the roster."""
        self.ser.close()
        p = scorebox("sync", "--port", self.vp.port, "--db", db)
        self.ser = link.open_port(self.vp.port)
        self.client = link.Client(self.ser, timeout=3.0)
        assert p.returncode == 0, p.stdout + p.stderr
        return [ln for ln in p.stdout.splitlines() if ln.startswith("roster") or "added to the store" in ln]

    def close(self):
        self.ser.close()
        self.vp.close()


@pytest.fixture
def box(tmp_path):
    b = Box(str(tmp_path / "box.flash"))
    yield b
    b.close()


def test_the_line_names_the_whole_roster_and_then_the_names_added(box, tmp_path):
    db = str(tmp_path / "club.sqlite")
    assert scorebox("archers", "add", "Ann", "Bob", "Cat", "--db", db).returncode == 0
    box.client.request("ROSTER", {"names": ["Zed", "Ann"]})  # Zed on the box only
    assert box.sync(db) == ["roster on the box: 4 archers: Ann, Bob, Cat, Zed; added to the store from the box: Zed"]
    assert box.sync(db) == ["roster on the box: 4 archers: Ann, Bob, Cat, Zed"]  # nothing new: no names added


def test_a_long_roster_is_shortened_on_its_one_line(box, tmp_path):
    db = str(tmp_path / "club.sqlite")
    assert scorebox("archers", "add", "Ann", "Bob", "--db", db).returncode == 0
    box.client.request("ROSTER", {"names": ["Box %02d" % i for i in range(10)]})
    assert box.sync(db) == [
        "roster on the box: 12 archers: Ann, Bob, Box 00, Box 01, Box 02 and 7 more; "
        "added to the store from the box: Box 00, Box 01, Box 02, Box 03, Box 04 and 5 more"
    ]
