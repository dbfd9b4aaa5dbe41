"""`scorebox doctor` counts the matches waiting for a sync, not those a PC already holds
(issue #12): after a sync the box still keeps its match, and doctor says none is waiting."""

import os
import subprocess
import sys

import pytest

from scorebox.sim.vpico import plugged_in
from scorebox.store.sqlite import Store

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


def box_lines(state, *more):
    with plugged_in(state) as port:
        p = scorebox("doctor", "--port", port, *more)
    assert p.returncode == 0, p.stdout + p.stderr
    return [line for line in p.stdout.splitlines() if line.startswith(("ok    box ", "warn  box ", "warn  the club"))]


def test_doctor_says_the_name_the_club_gave_the_box(tmp_path):
    """Issue 12: `scorebox boxes name` names a box; doctor says that name beside the box's id
    (the device layer asks through a lookup cli.py passes in: it has no store of its own)."""
    state, db = str(tmp_path / "box.flash"), str(tmp_path / "club.sqlite")
    assert scorebox("sim", "--keys", os.path.join(ROOT, "docs", "demo.keys"), "--state", state).returncode == 0
    assert scorebox("sync", "--sim", state, "--db", db, "--no-roster").returncode == 0
    store = Store(db)
    ((uid, name, _, _),) = store.boxes()
    store.close()
    assert name is None
    (line,) = box_lines(state, "--db", db)  # met but not named: its id only
    assert line.startswith("ok    box %s: firmware " % uid), line
    p = scorebox("boxes", "name", uid, "Range 2", "--db", db)
    assert p.returncode == 0, p.stdout + p.stderr
    (line,) = box_lines(state, "--db", db)
    assert line.startswith("ok    box %s ('Range 2'): firmware " % uid), line
    # No store there yet: nothing extra, and doctor makes none.
    home = str(tmp_path / "home")
    with plugged_in(state) as port:
        env = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"))
        p = subprocess.run([SCOREBOX, "doctor", "--port", port], capture_output=True, text=True, timeout=300, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "ok    box %s: firmware " % uid in p.stdout and "the club's name" not in p.stdout, p.stdout
    assert not os.path.exists(os.path.join(home, "data", "scorebox", "scorebox.sqlite"))
    # A --db that is not there is a warning, not a store made.
    none = str(tmp_path / "none.sqlite")
    (warn, line) = box_lines(state, "--db", none)
    assert warn == "warn  the club's name for box %s: no store at %s: check --db, or run scorebox sync first" % (
        uid,
        none,
    ), warn
    assert line.startswith("ok    box %s: firmware " % uid) and not os.path.exists(none)
