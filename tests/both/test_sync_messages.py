"""What `scorebox sync` and `scorebox doctor` say, from a new user's run (issue 21, item 14),
on the simulator's box (`--sim`: the real firmware on the virtual Pico):

- a second PC's sync says how many matches it copied, and no "copied" when it copied none;
- the capacity estimate does not jump up once the box has measured a few short matches
  (5,504, then 8,566 after four demo matches) and never passes what the flash holds at 256
  bytes a match; doctor says the same figure;
- a match still open on the box is said, in either game;
- `scorebox doctor --sim` checks the simulator's box as `sync --sim` syncs it.
"""

import os
import re

import pytest
from test_sync_raw_restart import matches, scorebox, write

from scorebox.sim.run import FLASH_SIZE

pytestmark = pytest.mark.micropython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "docs", "demo.keys")


def sim_match(state):
    p = scorebox("sim", "--keys", DEMO, "--state", state)
    assert p.returncode == 0, p.stdout[-1000:] + p.stderr


def sync(state, db, *more):
    p = scorebox("sync", "--sim", state, "--db", db, "--no-roster", *more)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def fit(text):
    (n,) = re.findall(r"about ([\d,]+) more matches fit", text)
    return int(n.replace(",", ""))


def test_a_second_pc_says_what_it_copied(tmp_path):
    state = str(tmp_path / "box.flash")
    club, laptop = str(tmp_path / "club.sqlite"), str(tmp_path / "laptop.sqlite")
    sim_match(state)
    assert "1 new match stored" in sync(state, club)  # the box is the club's store's now
    sim_match(state)
    out = sync(state, laptop)  # match 1, acknowledged by the club's store, and match 2
    assert "2 new matches stored" in out
    assert "2 matches copied but NOT acknowledged: the box belongs to another store" in out, out
    out = sync(state, laptop)  # held already, and still not acknowledged
    assert "0 new matches stored" in out
    assert "no new match to copy, none acknowledged: the box belongs to another store" in out, out
    assert "copied but" not in out


def test_the_capacity_estimate_never_jumps_up_and_doctor_says_it_too(tmp_path):
    state, db = str(tmp_path / "box.flash"), str(tmp_path / "club.sqlite")
    figures = []
    for _ in range(5):  # the box measures its own matches from the fourth in a group on
        sim_match(state)
        figures.append(fit(sync(state, db)))
    assert figures == sorted(figures, reverse=True), figures  # only down as the flash fills
    assert figures[0] <= FLASH_SIZE // 256, figures
    doctor = scorebox("doctor", "--sim", state)
    (line,) = [x for x in doctor.stdout.splitlines() if "more matches fit" in x]
    assert fit(line) == figures[-1], (line, figures)


@pytest.mark.parametrize("game", ["ttb", "ttt"])
def test_a_match_still_open_on_the_box_is_said(tmp_path, game):
    state, db = str(tmp_path / "box.flash"), str(tmp_path / "club.sqlite")
    done, going = matches(game, 2, 4)
    going = dict(going, events=going["events"][:7], open=True)
    write(tmp_path, state, [done, going])
    out = sync(state, db)
    assert "1 new match stored" in out
    assert "a match is still open on the box: finish it (or abandon it), then sync again to store it" in out, out


def test_doctor_checks_the_simulators_box(tmp_path):
    state, db = str(tmp_path / "box.flash"), str(tmp_path / "club.sqlite")
    sim_match(state)
    synced = sync(state, db)
    p = scorebox("doctor", "--sim", state, "--db", db)
    assert p.returncode == 0, p.stdout + p.stderr
    (box,) = re.findall(r"^ok    box (v-[0-9a-f]+): firmware ", p.stdout, re.M)
    assert "box %s:" % box in synced
    assert "ok    matches waiting for a sync: 0 (and 1 already on a PC)" in p.stdout, p.stdout
    none = scorebox("doctor", "--sim", str(tmp_path / "none.flash"))
    said = "key a match with `scorebox sim --state %s` first" % (tmp_path / "none.flash")
    assert none.returncode == 2 and said in none.stderr, none.stderr
