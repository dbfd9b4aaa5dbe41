"""After `scorebox sync --raw` the box runs its app again: mpremote's Ctrl-C leaves the box
at the REPL, where the next sync got "the box refused HELLO" and doctor said to deploy
again. The rescue soft-resets the box once the matches are stored, as `scorebox deploy`
does, and says whether the app answers.

The virtual Pico here is the firmware as .mpy on the Pico's heap. Its soft reset is a
Pico's (vpico/softreset.py): "MPY: soft reboot", and main.py runs again in the same
process, on the same pseudo-terminal. Its journal holds matches of both games, written by
the box's own writer."""

import os
import sqlite3
import subprocess
import sys
import time

import pytest
from flashfill import matches, write
from picoheap import PicoHeapVirtualPico
from test_sync_faults import box_unacked

from scorebox.device import deploy, link
from scorebox.store.sqlite import Store
from scorebox_core.games.ttt.game import ID as TTT

pytestmark = pytest.mark.micropython


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)


def both_games(folder):
    """A flash holding 3 Tic Tac BOW matches and 2 Try-Tac-Toe games."""
    flash = str(folder / "box.flash")
    write(folder, flash, matches("ttb", 3, 1) + matches("ttt", 2, 1))
    return flash


def test_after_a_rescue_the_box_answers_the_next_sync(tmp_path):
    vp = PicoHeapVirtualPico(both_games(tmp_path))
    try:
        vp.hello()
        pid = vp.proc.pid
        db = str(tmp_path / "club.sqlite")
        p = scorebox("sync", "--raw", "--port", vp.port, "--db", db)
        assert p.returncode == 0, p.stdout + p.stderr
        assert "5 new matches stored" in p.stdout
        assert "the box's app runs again" in p.stdout, p.stdout
        assert vp.proc.poll() is None and vp.proc.pid == pid  # a soft reset, not a new process
        again = scorebox("sync", "--port", vp.port, "--db", db)  # no reboot by hand
        assert again.returncode == 0, again.stdout + again.stderr
        assert "0 new matches stored" in again.stdout
        assert box_unacked(vp) == []  # the rescued matches compared, then acknowledged
        doctor = scorebox("doctor", "--port", vp.port)
        assert "ok    matches waiting for a sync: 0 (and 5 already on a PC)" in doctor.stdout, doctor.stdout
    finally:
        vp.close()
    games = [r["game"] for r in Store(db).matches()]
    assert games == ["tictacbow"] * 3 + [TTT] * 2


# `scorebox sync` as the CLI runs it, waiting 1 s, not 30, for a store another program writes.
QUICK_LOCK = """
import sys
from scorebox.store import lock
lock.LOCK_WAIT = 1.0
from scorebox import cli
sys.exit(cli.main(sys.argv[1:]))
"""


def test_a_rescue_the_store_refuses_still_restarts_the_box(tmp_path):
    """The copy is made (mpremote's Ctrl-C has stopped the app), then the store refuses it:
    another program holds its write lock. Before, the box was left at the REPL; now the
    error's one line says the app runs again, and the next sync stores the matches."""
    vp = PicoHeapVirtualPico(both_games(tmp_path))
    try:
        vp.hello()
        pid = vp.proc.pid
        db = str(tmp_path / "club.sqlite")
        Store(db).close()
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program writing the store through the rescue
        try:
            p = subprocess.run(
                [sys.executable, "-c", QUICK_LOCK, "sync", "--raw", "--port", vp.port, "--db", db],
                capture_output=True,
                text=True,
                timeout=300,
            )
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1, p.stdout + p.stderr
        assert "the store is being written by" in p.stderr, p.stderr
        assert p.stderr.rstrip().endswith("; the box's app runs again (restarted after the copy)"), p.stderr
        assert vp.proc.poll() is None and vp.proc.pid == pid
        again = scorebox("sync", "--port", vp.port, "--db", db)  # no reboot by hand
        assert again.returncode == 0 and "5 new matches stored" in again.stdout, again.stdout + again.stderr
    finally:
        vp.close()


def read_until(ser, end, timeout=10):
    """What the box sent up to and including end."""
    got = b""
    deadline = time.monotonic() + timeout
    while not got.endswith(end) and time.monotonic() < deadline:
        got += ser.read(1)
    assert got.endswith(end), got
    return got


def test_ctrl_d_at_the_repl_runs_main_py_again_in_the_same_process(tmp_path):
    """A Pico's soft reset: Ctrl-D at the friendly REPL says "MPY: soft reboot" and main.py
    answers the sync link again; the REPL's names and the firmware's modules start afresh."""
    vp = PicoHeapVirtualPico(both_games(tmp_path))
    try:
        assert vp.hello()["matches"] == 5
        pid = vp.proc.pid
        ser = link.open_port(vp.port)
        try:
            ser.write(b"\r\x03")  # Ctrl-C between frames: the app stops, the REPL starts
            assert b"MicroPython " in read_until(ser, b">>> ")
            ser.write(b"x = 'before'\r")
            read_until(ser, b">>> ")
            ser.write(b"import sys; 'box.link' in sys.modules, x\r")
            assert b"(True, 'before')" in read_until(ser, b">>> ")
            ser.write(b"\x04")
            read_until(ser, b"\r\nMPY: soft reboot\r\n")
            assert link.Client(ser, timeout=2.0).request("HELLO")["matches"] == 5  # main.py runs again
            ser.write(b"\r\x03")
            read_until(ser, b">>> ")
            ser.write(b"x\r")
            assert b"NameError" in read_until(ser, b">>> ")
            ser.write(b"\x02\x04")
            read_until(ser, b"MPY: soft reboot\r\n")
        finally:
            ser.close()
        assert vp.hello()["matches"] == 5
        assert vp.proc.poll() is None and vp.proc.pid == pid
    finally:
        vp.close()


def mpremote(port, *args):
    p = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", port, *args], capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def test_mpremote_soft_resets_the_box_in_the_raw_repl(tmp_path):
    """mpremote's soft-reset (and its exec without `resume`) is a soft reset in the raw REPL:
    the box stays at the REPL there, as a Pico does, its flash mounted again; deploy's soft
    reset from the friendly REPL then runs main.py."""
    vp = PicoHeapVirtualPico(both_games(tmp_path))
    try:
        vp.hello()
        pid = vp.proc.pid
        mpremote(vp.port, "resume", "exec", "x = 1")
        assert mpremote(vp.port, "soft-reset", "exec", "print('x' in globals())").strip() == "False"
        assert "device.id" in mpremote(vp.port, "exec", "import os; print(os.listdir('/flash'))")
        deploy.restart(vp.port)
        assert deploy.hello(vp.port, timeout=10)["matches"] == 5
        assert vp.proc.poll() is None and vp.proc.pid == pid
    finally:
        vp.close()


def test_sim_rescue_restarts_the_sims_box(tmp_path):
    """`scorebox sync --raw --sim` rescues the simulator's box and soft-resets it as a box's;
    doctor --sim and the next sync --sim find its app."""
    state, db = both_games(tmp_path), str(tmp_path / "club.sqlite")
    p = scorebox("sync", "--raw", "--sim", state, "--db", db)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "5 new matches stored" in p.stdout and "the box's app runs again" in p.stdout, p.stdout
    doctor = scorebox("doctor", "--sim", state)
    assert "ok    matches waiting for a sync: 5 (and 0 already on a PC)" in doctor.stdout, doctor.stdout
    again = scorebox("sync", "--sim", state, "--db", db, "--no-roster")
    assert again.returncode == 0 and "0 new matches stored" in again.stdout, again.stdout + again.stderr
    doctor = scorebox("doctor", "--sim", state)
    assert "ok    matches waiting for a sync: 0 (and 5 already on a PC)" in doctor.stdout, doctor.stdout
    assert [r["game"] for r in Store(db).matches()] == ["tictacbow"] * 3 + [TTT] * 2
