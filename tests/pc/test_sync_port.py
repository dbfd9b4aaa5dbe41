"""`scorebox sync` when the box cannot be reached: no box plugged in, a port that does not
exist, a port another program holds, a port the user may not open. Each gets one clear
sentence saying what to do, exit status 2, no traceback, and no store change."""

import os
import pty
import shutil
import subprocess
import sys

import pytest
import serial

from scorebox.store.sqlite import Store


def sync(*args, wrap=()):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([*wrap, exe, "sync", *args], capture_output=True, text=True, timeout=120)


def refused(p, db, *phrases):
    assert p.returncode == 2, p.stdout + p.stderr
    said = p.stdout + p.stderr
    assert "Traceback" not in said and len(said.strip().splitlines()) == 1, said
    for phrase in phrases:
        assert phrase in said, said
    assert Store(db).count() == 0


@pytest.fixture
def pts():
    """A serial port nobody answers on: the slave side of a fresh pseudo-terminal."""
    master, slave = pty.openpty()
    yield os.ttyname(slave)
    os.close(slave)
    os.close(master)


def test_no_box_plugged_in(tmp_path):
    """No Pico on USB: the search by USB id finds nothing."""
    from serial.tools import list_ports

    from scorebox.device import link

    if any(p.vid == link.RPI_VID for p in list_ports.comports()):
        pytest.skip("a Pico is plugged into this machine: unplug it to test the message for none")
    db = str(tmp_path / "club.sqlite")
    refused(sync("--db", db), db, "no Scorebox found", "data USB cable", "--port")


def test_a_port_that_does_not_exist(tmp_path):
    db = str(tmp_path / "club.sqlite")
    refused(sync("--port", str(tmp_path / "ttyACM9"), "--db", db), db, "does not exist", "plugged in")


def test_a_port_another_program_holds(tmp_path, pts):
    db = str(tmp_path / "club.sqlite")
    other = serial.Serial(pts, 115200, exclusive=True)  # as Thonny or mpremote would
    try:
        p = sync("--port", pts, "--db", db)
    finally:
        other.close()
    finder = "lsof %s" % pts if sys.platform == "darwin" else "fuser -v %s" % pts
    refused(p, db, "%s is busy" % pts, "another program has it open", finder)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="file modes and setpriv: Linux")
def test_a_port_the_user_may_not_open(tmp_path, pts):
    """As a user outside the port's group: root (the test's user here) is made to obey
    file modes by dropping its capabilities that override them."""
    db = str(tmp_path / "club.sqlite")
    Store(db).close()
    os.chmod(pts, 0)
    wrap = ()
    if os.geteuid() == 0:
        assert shutil.which("setpriv"), "setpriv (util-linux) is needed to test as a user root is not"
        drop = "-dac_override,-dac_read_search"
        wrap = ("setpriv", "--inh-caps=" + drop, "--bounding-set=" + drop)
    refused(sync("--port", pts, "--db", db, wrap=wrap), db, "no permission to open %s" % pts, "dialout")
