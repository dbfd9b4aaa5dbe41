"""`scorebox doctor` counts the matches waiting for a sync, not those a PC already holds
(issue #12): after a sync the box still keeps its match, and doctor says none is waiting."""

import os
import subprocess
import sys

import pytest

from scorebox.sim.vpico import plugged_in

pytestmark = pytest.mark.micropython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")


def scorebox(*args):
    return subprocess.run([SCOREBOX, *args], capture_output=True, text=True, timeout=300)


def box_line(state):
    with plugged_in(state) as port:
        out = scorebox("doctor", "--port", port).stdout
    return [line for line in out.splitlines() if "matches waiting" in line]


def test_doctor_does_not_count_a_synced_match(tmp_path):
    state, db = str(tmp_path / "box.flash"), str(tmp_path / "club.sqlite")
    assert scorebox("sim", "--keys", os.path.join(ROOT, "docs", "demo.keys"), "--state", state).returncode == 0
    assert box_line(state) == ["ok    matches waiting for a sync: 1 (and 0 already on a PC)"]
    p = scorebox("sync", "--sim", state, "--db", db, "--no-roster")
    assert p.returncode == 0 and "1 new match stored" in p.stdout, p.stdout + p.stderr
    assert box_line(state) == ["ok    matches waiting for a sync: 0 (and 1 already on a PC)"]
