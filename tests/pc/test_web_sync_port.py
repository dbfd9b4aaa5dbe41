"""The Sync page's port (issue 24 item 3): a box the PC does not find by its USB id (a
hub, a second serial device, a port that another program holds) is synced from a port
named on the page, as `scorebox sync --port`; what goes wrong with that port is said on the
page in words. A real pseudo-terminal held by another program (pyserial, exclusive, as
Thonny or a serial monitor holds a box's port) and the virtual Pico's own port."""

import os
import re
import time

import serial
from bothstore import both_games
from test_web_sync_facts import keyed

from scorebox.sim import vpico
from scorebox.web.app import create_app


def sync(c, **form):
    """Post the Sync page's form; the page once its sync has ended, whitespace collapsed."""
    t = re.search(r'name="csrf" value="([^"]+)"', c.get("/sync").get_data(as_text=True)).group(1)
    assert c.post("/sync", data=dict(form, csrf=t)).status_code == 302
    for _ in range(1200):
        page = c.get("/sync").get_data(as_text=True)
        if "Syncing&hellip;" not in page:
            return re.sub(r"\s+", " ", page.replace("&#39;", "'"))
        time.sleep(0.1)
    raise AssertionError("the sync did not end")


def test_a_port_another_program_holds_is_said_busy(tmp_path):
    c = create_app(both_games(str(tmp_path / "club.sqlite")), workdir=str(tmp_path / "w")).test_client()
    master, slave = os.openpty()
    port = os.ttyname(slave)
    other = serial.Serial(port, exclusive=True)  # another program has the box's port
    try:
        page = sync(c, source="port", port=port)
    finally:
        other.close()
        os.close(master)
        os.close(slave)
    assert "<h2>Not synced</h2>" in page
    assert "%s is busy" % port in page, page[-1500:]


def test_a_port_that_is_not_there_and_no_port_named(tmp_path):
    c = create_app(both_games(str(tmp_path / "club.sqlite")), workdir=str(tmp_path / "w")).test_client()
    page = sync(c, source="port", port=str(tmp_path / "ttyACM9"))
    assert "ttyACM9 does not exist: is the box plugged in?" in page
    c.post("/sync", data={"csrf": re.search(r'name="csrf" value="([^"]+)"', page).group(1), "source": "port"})
    assert "name the box&#39;s port first" in c.get("/sync").get_data(as_text=True)


def test_the_box_on_a_named_port_syncs(tmp_path):
    db = both_games(str(tmp_path / "club.sqlite"))
    c = create_app(db, workdir=str(tmp_path / "w")).test_client()
    with vpico.plugged_in(keyed(str(tmp_path / "sim.flash"))) as port:
        page = sync(c, source="port", port=port)
    assert "<h2>Done</h2>" in page, page[-1500:]
    assert "<dt>Came in</dt><dd>1 new match</dd>" in page
    # the next sync is offered for the same box: its port chosen and filled in, not "the box on USB"
    assert '<input type="radio" name="source" value="port" checked>' in page
    assert 'value="%s"' % port in page and '<input type="radio" name="source" value="usb" checked>' not in page


def test_no_box_found_says_how_to_name_its_port_on_the_page(tmp_path):
    """The terminal's "--port" means nothing on the page: the page names its own field."""
    c = create_app(both_games(str(tmp_path / "club.sqlite")), workdir=str(tmp_path / "w")).test_client()
    page = sync(c, source="usb").replace("&#34;", '"')
    assert "no Scorebox found" in page and 'name the port under "the box on this port"' in page, page[-1500:]
    assert "--port" not in page
