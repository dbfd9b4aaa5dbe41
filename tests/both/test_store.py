"""The store on its own: how it checks what it is given (host_tools/scorebox/store/sqlite.py, checks.py)."""

import json

import mpy
import pytest

from scorebox.store.sqlite import Store
from scorebox_core.games.ttb import rules


def test_a_match_the_box_resumed_without_a_refused_event_is_stored_alike(tmp_path):
    """The box leaves out a journal event the rules refuse when it resumes (box/session.py);
    the PC reads that match the same way and keeps where the gap was; an import of the
    export keeps it too, while a refused event nobody noted is still an error."""
    s = Store(str(tmp_path / "s.sqlite"))
    header = {"options": {}, "archers": [["Ann"], ["Ben"]]}
    log = [rules.hit(5, 3), rules.called(5, True), rules.hit(5, 2)]
    (got,) = s.add_matches("box", [(1, header, log, {})], from_box=True)
    assert got is True
    (extras,) = s.db.execute("SELECT extras FROM matches").fetchone()
    assert json.loads(extras)["skipped"] == [1]
    assert s.db.execute("SELECT winner FROM matches").fetchone() == (None,)
    (got,) = s.add_matches("other", [(1, header, log, {"skipped": [1]})])
    assert got is True
    (got,) = s.add_matches("third", [(1, header, log, {})])
    assert "rules refuse" in str(got)


@pytest.mark.micropython
def test_a_wiped_box_gets_a_new_id():
    """Match numbers restart at 1 on a wiped file system: the box's id changes with it, so
    the PC never takes a new match 1 for the one it holds (and acknowledges it unread)."""
    p = mpy.run(["tests/mpy/app_device_id.py"], heapsize="4m")
    assert p.returncode == 0, p.stderr + p.stdout
    got = json.loads(p.stdout.strip().splitlines()[-1])
    assert got["first"] == got["again"]
    assert got["first"].startswith("e6613852831f2b2c-") and got["wiped"].startswith("e6613852831f2b2c-")
    assert got["wiped"] != got["first"]


def test_archer_names_must_be_text(tmp_path):
    """SQLite would keep 7 as '7' and then refuse the second one as a duplicate name:
    the match is refused with a reason instead, and the rest of the batch is stored."""
    s = Store(str(tmp_path / "s.sqlite"))
    good = {"options": {}, "archers": [["Ann"], ["Ben"]]}
    bad = {"options": {}, "archers": [[7], ["Ben"]]}
    got = s.add_matches("box", [(1, bad, [rules.hit(5, 3)], {}), (2, good, [rules.hit(5, 3)], {})], from_box=True)
    assert "archer names must be text" in str(got[0]) and got[1] is True
