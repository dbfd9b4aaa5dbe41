"""A box belongs to its club's store (issue 13, item 20): the store has an id made once;
the box remembers the store that first acknowledges its matches; a sync into another
store copies every match the box holds but leaves them on the box (acknowledged by its own
store or not: tests/both/test_sync_foreign_box.py), with one line saying why, unless
told to take the box over (`scorebox sync --take-over`). Before, any PC with a cable
acknowledged, and so freed, every match on a box."""

import pytest
from test_sync import scorebox, start
from test_sync_faults import box_unacked

from scorebox.device import link
from scorebox.device.link import DeviceError
from scorebox.store.sqlite import Store

pytestmark = pytest.mark.micropython


def store_id(path):
    s = Store(path)
    try:
        return s.identity()
    finally:
        s.close()


def request(vp, kind, body=None):
    ser = link.open_port(vp.port)
    try:
        c = link.Client(ser, timeout=1.0, retries=6)
        vp.wait_ready(c)
        return c.request(kind, body)
    finally:
        ser.close()


def test_a_store_has_one_id_of_its_own(tmp_path):
    a, b = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    ida = store_id(a)
    assert ida == store_id(a)  # made once, kept
    assert len(ida) == 16 and ida != store_id(b)


def test_only_the_boxs_own_store_acknowledges(tmp_path):
    club, laptop = str(tmp_path / "club.sqlite"), str(tmp_path / "laptop.sqlite")
    vp, _ = start(tmp_path, 5)
    try:
        assert request(vp, "HELLO")["store"] is None  # a new box belongs to no store yet
        p = scorebox("sync", "--port", vp.port, "--db", club, "--no-roster")
        assert p.returncode == 0, p.stdout + p.stderr
        assert box_unacked(vp) == [] and request(vp, "HELLO")["store"] == store_id(club)  # its first sync
        with pytest.raises(DeviceError, match="belongs to another store"):
            request(vp, "ACK", {"first": 1, "last": 1, "store": store_id(laptop)})
    finally:
        vp.close()


def test_another_store_copies_but_does_not_acknowledge_unless_it_takes_over(tmp_path):
    club, laptop = str(tmp_path / "club.sqlite"), str(tmp_path / "laptop.sqlite")
    vp, _ = start(tmp_path, 5)
    try:
        request(vp, "ACK", {"store": store_id(club)})  # the box is the club's, its matches not synced yet
        p = scorebox("sync", "--port", vp.port, "--db", laptop, "--no-roster")
        assert p.returncode == 0, p.stdout + p.stderr
        assert "5 new matches stored" in p.stdout
        assert "NOT acknowledged: the box belongs to another store (%s)" % store_id(club) in p.stdout
        assert "--take-over" in p.stdout
        assert box_unacked(vp) == [1, 2, 3, 4, 5]  # all still on the box for the club
        p = scorebox("sync", "--port", vp.port, "--db", laptop, "--no-roster", "--take-over")
        assert p.returncode == 0, p.stdout + p.stderr
        assert "took the box over from store %s" % store_id(club) in p.stdout
        assert box_unacked(vp) == [] and request(vp, "HELLO")["store"] == store_id(laptop)
        p = scorebox("sync", "--port", vp.port, "--db", club, "--no-roster")
        assert "belongs to another store (%s)" % store_id(laptop) in p.stdout
        assert "5 new matches stored" in p.stdout  # what the box holds, the laptop's acknowledgements or not
        assert box_unacked(vp) == [] and request(vp, "HELLO")["store"] == store_id(laptop)
        p = scorebox("sync", "--port", vp.port, "--db", club, "--no-roster", "--take-over")  # the club's again
        assert p.returncode == 0, p.stdout + p.stderr
        assert "0 new matches stored" in p.stdout and "took the box over from store %s" % store_id(laptop) in p.stdout
        assert box_unacked(vp) == [] and request(vp, "HELLO")["store"] == store_id(club)
    finally:
        vp.close()


def test_the_summary_counts_one_match_in_words(tmp_path):
    vp, _ = start(tmp_path, 1)
    try:
        p = scorebox("sync", "--port", vp.port, "--db", str(tmp_path / "club.sqlite"), "--no-roster")
        assert p.returncode == 0, p.stdout + p.stderr
        assert "(1 match)" in p.stdout and "(1 matches)" not in p.stdout  # issue 12
    finally:
        vp.close()
