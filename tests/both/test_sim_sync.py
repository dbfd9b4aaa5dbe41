"""`scorebox sim` keeps the box's memory and syncs like a box on a cable (issue #12 must-fix 3,
#13 item 12): a match keyed in the interactive sim (on a real pty) reaches the store with
`scorebox sync --sim`; a file that is not the sim's flash is refused untouched."""

import fcntl
import hashlib
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

from scorebox.sim import run as sim

pytestmark = pytest.mark.micropython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")


def scorebox(*args, env=None):
    return subprocess.run([SCOREBOX, *args], capture_output=True, text=True, timeout=300, env=env)


def demo_keys():
    """docs/demo.keys as the characters an archer types in the interactive sim."""
    keys = []
    with open(os.path.join(ROOT, "docs", "demo.keys")) as f:
        for line in f:
            keys += line.split(";")[0].split()
    return "".join(k.lower() for k in keys)


def user_env(tmp_path):
    return dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path / "home"))


def interactive(keys, env, cols=140, rows=40):
    """Run `scorebox sim` on a pty of cols x rows, type keys, then q; returns what it printed."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    p = subprocess.Popen([SCOREBOX, "sim"], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    out = bytearray()

    def read(seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    out.extend(os.read(master, 65536))
                except OSError:  # the child closed the pty
                    return

    read(3)  # the box boots and draws its home screen
    for ch in keys + "q":
        os.write(master, ch.encode())
        read(0.15)
    end = time.monotonic() + 30
    while p.poll() is None and time.monotonic() < end:
        read(0.2)
    read(0.2)
    os.close(master)
    assert p.wait(timeout=5) == 0, out.decode(errors="replace")[-2000:]
    return out.decode(errors="replace")


def test_a_match_keyed_in_the_sim_reaches_the_store_with_one_command(tmp_path):
    env = user_env(tmp_path)
    state = os.path.join(str(tmp_path / "data"), "scorebox", "sim.flash")
    out = interactive(demo_keys(), env)
    said = re.sub(r"\s+", " ", out[out.rindex("The box's memory") :])
    assert "kept in %s" % state in said and "`scorebox sync --sim`" in said, said
    assert os.path.getsize(state) == sim.FLASH_SIZE
    db = str(tmp_path / "club.sqlite")
    p = scorebox("sync", "--sim", "--db", db, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 new match stored" in p.stdout and "A wins 1-0" in p.stdout, p.stdout
    p = scorebox("sync", "--sim", "--db", db, env=env)  # the box keeps it, acknowledged: nothing new
    assert p.returncode == 0 and "0 new matches" in p.stdout, p.stdout + p.stderr


def test_a_file_that_is_not_the_sims_flash_is_refused_untouched(tmp_path):
    store = tmp_path / "club.sqlite"
    store.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 64)
    wrong = tmp_path / "same-size.img"
    wrong.write_bytes(b"\x00" * sim.FLASH_SIZE)  # the right size, but not LittleFS nor erased
    keys = os.path.join(ROOT, "docs", "demo.keys")
    db = tmp_path / "x.db"
    for path in (store, wrong):
        before = hashlib.sha256(path.read_bytes()).hexdigest()
        for args in (("sim", "--keys", keys, "--state", str(path)), ("sync", "--sim", str(path), "--db", str(db))):
            p = scorebox(*args)
            assert p.returncode == 2 and "is not a simulator state" in p.stderr, p.stdout + p.stderr
            assert p.stderr.count("\n") == 1
        assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert not db.exists()


def test_the_sims_own_state_is_taken_and_kept(tmp_path):
    state = str(tmp_path / "box.flash")
    keys = os.path.join(ROOT, "docs", "demo.keys")
    assert scorebox("sim", "--keys", keys, "--state", state).returncode == 0
    sim.check_state(state)  # its own image passes
    p = scorebox("sim", "--keys", keys, "--state", state)  # and is used again (a second match on it)
    assert p.returncode == 0, p.stderr


def test_sync_sim_without_a_state_says_what_to_do(tmp_path):
    p = scorebox("sync", "--sim", "--db", str(tmp_path / "db.sqlite"), env=user_env(tmp_path))
    assert p.returncode == 2 and "key a match with `scorebox sim` first" in p.stderr, p.stderr
