"""A match's page on the desk (issue 24 item 2): its sides named A v B (X v O), the sides'
confirmations and any damage the box flagged (the match's extras, Store.match_flags), for
both games, through Flask's test client on a real SQLite store."""

import re

import pytest
from bothstore import both_games
from handmatches import MATCH1, item
from storehelp import add_match
from ttt_history import full_game, ttt_header

from scorebox.store.sqlite import Store
from scorebox.web.app import create_app

BOX = "f1a95f1a95f1a95f"  # a box whose matches carry what it said of them


@pytest.fixture
def app(tmp_path):
    db = both_games(str(tmp_path / "club.sqlite"))
    s = Store(db)
    try:
        n, h, log, _ = item(1, MATCH1)  # Tic Tac BOW: B never confirmed, the result record lost, 2 bad stretches
        add_match(s, BOX, n, h, log, {"confirmed": [True, False], "lost": ["result"], "damaged": 2})
        g = full_game(5)  # Try-Tac-Toe (TTT-6): confirmed by both, a stray record beside it
        add_match(s, BOX, 2, ttt_header(g, 1790200000), list(g.log), {"confirmed": [True, True], "stray": 1})
        n, h, log, _ = item(3, MATCH1)  # its header lost: stored with the names that say so
        add_match(s, BOX, 3, dict(h, archers=[["A?"], ["B?"]]), log, {"confirmed": [False, False], "lost": ["header"]})
        ids = {
            number: mid for mid, uid, number in [(m["id"], m["device"], m["number"]) for m in s.matches()] if uid == BOX
        }
    finally:
        s.close()
    a = create_app(db, workdir=str(tmp_path / "work"))
    a.config["IDS"] = ids
    return a


def page(app, number):
    text = app.test_client().get("/matches/%d" % app.config["IDS"][number]).get_data(as_text=True)
    return re.sub(r"\s+", " ", text.replace("&#39;", "'"))


def test_a_match_confirmed_by_one_side_with_damage_flagged(app):
    p = page(app, 1)
    assert '<p class="sides">Ann (A) <span>v</span> Ben (B)</p>' in p  # TTB-1: sides A and B
    assert "The result: confirmed by A, not by B." in p
    damage = re.search(r'<div class="msg error damage".*?</div>', p).group(0)
    assert "its result record was lost: the result is replayed from its events" in damage
    assert "2 unreadable stretches inside it on the box" in damage
    assert "header record" not in damage and "stray" not in damage


def test_a_try_tac_toe_game_confirmed_by_both(app):
    p = page(app, 2)
    assert '<p class="sides">Ann, Cy (X) <span>v</span> Bo (O)</p>' in p  # TTT-1: X and O
    assert "The result: confirmed by both sides (X and O)." in p
    assert "1 stray record outside any match beside it" in p


def test_a_lost_header_and_no_confirmation(app):
    p = page(app, 3)
    assert '<p class="sides">A? (A) <span>v</span> B? (B)</p>' in p
    assert "The result: confirmed by neither side." in p
    assert "its header record was lost" in p


def test_a_sound_match_says_no_damage(app):
    c = app.test_client()
    for mid in (1, 4):  # the hand-made store's: extras {} (nothing said, nothing damaged)
        p = c.get("/matches/%d" % mid).get_data(as_text=True)
        assert "Damaged on the box" not in p and "The result: confirmed" not in p
        assert '<p class="sides">' in p


def test_a_stored_lost_flag_of_another_shape_still_shows_the_page(tmp_path):
    """A store written before the import checked extras' lost (the review's case): no 500."""
    db = str(tmp_path / "club.sqlite")
    s = Store(db)
    try:
        n, h, log, _ = item(1, MATCH1)
        add_match(s, BOX, n, h, log, {"lost": 5})
        mid = s.matches()[0]["id"]
    finally:
        s.close()
    r = create_app(db, workdir=str(tmp_path / "work")).test_client().get("/matches/%d" % mid)
    assert r.status_code == 200 and "record was lost" not in r.get_data(as_text=True)
