"""The desk's Sync and Boxes pages after a sync of the virtual Pico (issue 24 items 3 and
4): what came in, the box's space and battery as its HELLO and SPACE said them, its
firmware on the Boxes page; a box that belongs to another club's store said in words, and
taken over from the page. Flask's test client; the sync runs in its own process
(web/syncjob.py) against `scorebox sim`'s box, keyed with docs/demo.keys."""

import os
import re
import subprocess
import sys
import time

import pytest
from bothstore import both_games

from scorebox.web.app import create_app

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")


def keyed(state):
    """The sim's box with a match keyed on it (docs/demo.keys)."""
    got = subprocess.run(
        [SCOREBOX, "sim", "--keys", os.path.join(ROOT, "docs", "demo.keys"), "--state", state],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, got.stderr
    return state


@pytest.fixture
def app(tmp_path):
    a = create_app(both_games(str(tmp_path / "club.sqlite")), workdir=str(tmp_path / "work"))
    a.config["SIM_STATE"] = keyed(str(tmp_path / "sim.flash"))
    return a


def sync(c, **form):
    """The Sync page once its sync has ended, whitespace collapsed."""
    t = re.search(r'name="csrf" value="([^"]+)"', c.get("/sync").get_data(as_text=True)).group(1)
    assert c.post("/sync", data=dict(form, csrf=t, source="sim")).status_code == 302
    for _ in range(1200):  # the page reloads each second while it runs: read it as the browser does
        page = c.get("/sync").get_data(as_text=True)
        if "Syncing&hellip;" not in page:
            return re.sub(r"\s+", " ", page.replace("&#39;", "'"))
        time.sleep(0.1)
    raise AssertionError("the sync did not end")


def test_the_sync_page_says_what_came_in_and_the_box_space_and_battery(app):
    c = app.test_client()
    page = sync(c)
    assert "<h2>Done</h2>" in page
    box = re.search(r"<dt>Box</dt><dd><code>(v-[0-9a-f]+)</code>, firmware ([^<]+)</dd>", page)
    assert box, page
    assert "<dt>Came in</dt><dd>1 new match</dd>" in page
    assert re.search(r"<dt>Space on the box</dt><dd>\d+% full, about [\d,]+ more matches fit</dd>", page)
    assert "<dt>Battery</dt><dd>4.50 V</dd>" in page  # the virtual Pico's VSYS (sim/mpy/vpico/board.py)
    assert "another club" not in page.replace("when it belongs to another club's store", "")
    boxes = re.sub(r"\s+", " ", c.get("/boxes").get_data(as_text=True))
    assert re.search(
        r"<code>%s</code></td><td>-</td><td class=\"n\">1</td><td>[^<]+</td><td>%s</td>" % box.groups(), boxes
    )


def test_a_box_of_another_club_is_said_and_taken_over_from_the_page(app, tmp_path):
    other = subprocess.run(  # another club's store syncs the box first: the box is theirs
        [SCOREBOX, "sync", "--sim", app.config["SIM_STATE"], "--db", str(tmp_path / "other.sqlite")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert other.returncode == 0, other.stderr
    keyed(app.config["SIM_STATE"])  # a second match, not yet in any store
    c = app.test_client()
    page = sync(c)
    assert "This box belongs to another club's store (" in page
    assert "2 new matches copied here, but left on the box, not acknowledged" in page  # the other's too
    assert 'tick "make this store the box\'s own" and sync again' in page
    page = sync(c, take_over="1")
    assert "This store took the box over from another club's store" in page
    assert "This box belongs to another club's store" not in page
