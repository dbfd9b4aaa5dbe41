"""A box that belongs to another store (an archer's, synced at home) gives a second store
(the club's) every match it still holds, acknowledged by its own store or not: the second
store stores them all, acknowledges none and leaves the box's roster as it is, until it
takes the box over (`scorebox sync --take-over`), when the roster becomes its own. On the
virtual Pico (the real firmware), a box of both games."""

import json

import pytest
from boxfill import fill
from flashfill import write
from picoheap import PicoHeapVirtualPico
from test_store_identity import request, store_id
from test_sync import scorebox
from test_sync_faults import box_unacked
from test_ttt_sync import ttt_games

from scorebox.device import link
from scorebox.store.sqlite import Store
from scorebox_core.games.ttt.game import ID as TTT

pytestmark = pytest.mark.micropython


def both_games_box(tmp_path):
    """The virtual Pico holding 3 Tic Tac BOW matches and 2 Try-Tac-Toe games (1-5), and
    their events as the box recorded them."""
    flash, ttb = fill(tmp_path, 3)
    games = ttt_games()
    write(tmp_path, flash, games)
    vp = PicoHeapVirtualPico(flash)
    ser = link.open_port(vp.port)
    vp.wait_ready(link.Client(ser, timeout=1.0, retries=0))
    ser.close()
    return vp, [m["events"] for m in ttb + games]


def sync(vp, db, *more):
    p = scorebox("sync", "--port", vp.port, "--db", db, *more)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def stored(db):
    """(game, events) of every match in the store, by number."""
    s = Store(db)
    try:
        rows = s.db.execute("SELECT number, log FROM matches ORDER BY number").fetchall()
        games = [r["game"] for r in s.matches()]
        return [n for n, _ in rows], [json.loads(log) for _, log in rows], games
    finally:
        s.close()


def roster(vp):
    return request(vp, "NAMES", {"from": 0})["names"]


def box_names(db):
    s = Store(db)
    try:
        return s.box_names()
    finally:
        s.close()


def test_a_second_store_copies_every_match_of_a_synced_box_and_leaves_its_roster(tmp_path):
    home, club = str(tmp_path / "home.sqlite"), str(tmp_path / "club.sqlite")
    assert scorebox("archers", "add", "--db", home, "Ann", "Bob").returncode == 0
    assert scorebox("archers", "add", "--db", club, "Zoe").returncode == 0
    vp, events = both_games_box(tmp_path)
    try:
        out = sync(vp, home)  # the archer's PC: every match acknowledged, its roster sent
        assert "5 new matches stored" in out
        assert box_unacked(vp) == [] and request(vp, "HELLO")["store"] == store_id(home)
        theirs = roster(vp)
        assert {"Ann", "Bob"} <= set(theirs) and "Zoe" not in theirs
        out = sync(vp, club)
        assert "5 new matches stored" in out, out
        assert "5 matches copied but NOT acknowledged" in out, out
        assert "roster on the box (its store's, left as it is)" in out, out
        numbers, logs, games = stored(club)
        assert numbers == [1, 2, 3, 4, 5] and logs == events  # every match, as the box recorded it
        assert games == ["tictacbow"] * 3 + [TTT] * 2
        assert stored(club) == stored(home)
        assert roster(vp) == theirs and request(vp, "HELLO")["store"] == store_id(home)
        assert box_unacked(vp) == []
        out = sync(vp, club)  # held already: nothing new, still the box's own roster
        assert "0 new matches stored" in out and "no new match to copy, none acknowledged" in out, out
        assert roster(vp) == theirs
        out = sync(vp, club, "--take-over")
        assert "0 new matches stored" in out and "took the box over from store %s" % store_id(home) in out, out
        assert request(vp, "HELLO")["store"] == store_id(club) and box_unacked(vp) == []
        assert roster(vp) == box_names(club) and "Zoe" in roster(vp)
    finally:
        vp.close()


def test_a_second_store_acknowledges_nothing_on_a_box_its_store_synced_in_part(tmp_path):
    home, club = str(tmp_path / "home.sqlite"), str(tmp_path / "club.sqlite")
    vp, events = both_games_box(tmp_path)
    try:
        request(vp, "ACK", {"first": 2, "last": 4, "store": store_id(home)})  # both games' 1 and 5 left
        assert box_unacked(vp) == [1, 5]
        out = sync(vp, club)
        assert "5 new matches stored" in out, out
        assert stored(club)[1] == events
        assert box_unacked(vp) == [1, 5] and request(vp, "HELLO")["store"] == store_id(home)
    finally:
        vp.close()
