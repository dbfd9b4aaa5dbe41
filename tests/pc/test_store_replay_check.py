"""The replay every import, restore and league push passes through (store/checks.py), on
both games: an import's events the rules refuse are an error unless its extras' `skipped`
names exactly the positions a box left out; only a sync from a box replays leniently; a
header whose archer names are not text is refused; what a checked match hands the store."""

import json

import pytest

from scorebox.store.checks import Checked, check, check_match, match_digest
from scorebox.store.errors import Refused
from scorebox_core import games
from scorebox_core.games.ttb import rules as ttb
from scorebox_core.match import header
from scorebox_core.sides import Face

ARCHERS = (("Ann",), ("Bob",))
# per game: a log whose second event (position 1) the rules refuse, and one they take whole
LOGS = {
    "tictacbow": ([ttb.hit(5, 3), ttb.called(5, True), ttb.hit(5, 2)], [ttb.hit(5, 3), ttb.hit(4, 2)]),
    "try-tac-toe": ([12, 12, 13], [12, 13]),
}


def head(gid, **extra):
    g = games.get(gid)
    return dict(header(games.part(g, "RULES").options(), ARCHERS, (18, 20), "m", (70, 65), Face(), g.ID), **extra)


@pytest.fixture(params=sorted(LOGS))
def gid(request):
    return request.param


def given(got):
    """A checked match's extras but the result record, which the check adds from the rules
    core's replay where the match came with none (tests/pc/test_result_words.py pins it)."""
    assert got.extras["result"] == json.loads(got.row[5])["result"]
    return {k: v for k, v in got.extras.items() if k != "result"}


def test_an_import_with_a_refused_event_is_refused(gid):
    refused, _ = LOGS[gid]
    got = check(1, head(gid), refused)
    assert isinstance(got, Refused) and "the rules refuse this match: event 2" in str(got)
    with pytest.raises(Refused, match="the rules refuse this match"):
        check_match(head(gid), refused)


def test_a_sync_from_a_box_leaves_the_refused_event_out_and_says_where(gid):
    refused, _ = LOGS[gid]
    got = check(1, head(gid), refused, from_box=True)
    assert isinstance(got, Checked) and given(got) == {"skipped": [1]} and got.log_len == 3
    assert check_match(head(gid), refused, from_box=True).skipped == [1]


def test_an_import_whose_extras_name_the_left_out_positions_is_taken(gid):
    refused, _ = LOGS[gid]
    got = check(1, head(gid), refused, {"skipped": [1], "notes": "n"})
    assert isinstance(got, Checked) and given(got) == {"skipped": [1], "notes": "n"}
    assert check_match(head(gid), refused, skipped=[1]).skipped == [1]


@pytest.mark.parametrize("skipped", [[0], [2], [1, 2], [0, 1]])
def test_an_import_whose_extras_name_other_positions_is_refused(gid, skipped):
    refused, _ = LOGS[gid]
    got = check(1, head(gid), refused, {"skipped": skipped})
    assert isinstance(got, Refused) and "the rules refuse this match: event 2" in str(got)
    with pytest.raises(Refused, match="the rules refuse this match"):
        check_match(head(gid), refused, skipped=skipped)


def test_a_match_the_rules_take_whole_keeps_its_extras_as_they_are(gid):
    _, whole = LOGS[gid]
    for from_box in (False, True):
        got = check(4, head(gid, clock="2026-05-01T10:00:00"), whole, {"notes": "n"}, from_box=from_box)
        assert isinstance(got, Checked) and given(got) == {"notes": "n"} and got.log_len == 2 and got.number == 4
        assert got.row[:2] == (4, "2026-05-01T10:00:00") and json.loads(got.row[4]) == whole
        assert got.archers == ARCHERS and got.distance == [18, 20] and got.shaft_mm == [7.0, 6.5]
    got = check(4, head(gid), whole)
    assert given(got) == {} and got.row[1] is None


def test_a_header_without_distances_or_shafts_stores_none_for_each(gid):
    h = head(gid)
    del h["distance"], h["shaft_mm"]
    got = check(1, h, LOGS[gid][1])
    assert got.distance == [None, None] and got.shaft_mm == [None, None]


@pytest.mark.parametrize("archers", [[[7], ["Bob"]], [["Ann"], [None]], [["Ann"], [""]], [["Ann", b"Cy"], ["Bob"]]])
def test_archer_names_that_are_not_text_are_refused(gid, archers):
    got = check(1, head(gid, archers=archers), LOGS[gid][1])
    assert isinstance(got, Refused) and "archer names must be text" in str(got)


def test_a_header_the_core_cannot_read_is_refused(gid):
    got = check(1, head(gid, options={"games": "many"}), LOGS[gid][1])
    assert isinstance(got, Refused) and str(got).startswith("bad match header: ")


def test_the_digest_is_of_header_and_events_as_keyed(gid):
    h, log = head(gid), LOGS[gid][1]
    same = match_digest(json.loads(json.dumps(h)), list(log))
    assert match_digest(h, log) == same and len(same) == 64
    assert match_digest(h, log + [log[0]]) != same and match_digest(head(gid, clock="x"), log) != same


def test_the_stored_texts_and_digest_do_not_depend_on_key_order(gid):
    """Two copies of a match, their dicts built in other orders, store the same text (keys
    sorted) and have one digest."""
    h = head(gid, clock="2026-05-01T10:00:00")
    backwards = dict(reversed(list(h.items())))
    extras = {"notes": "n", "confirmed": True}
    a = check(1, h, LOGS[gid][1], extras)
    b = check(1, backwards, LOGS[gid][1], dict(reversed(list(extras.items()))))
    assert a.row == b.row and match_digest(h, LOGS[gid][1]) == match_digest(backwards, LOGS[gid][1])
    for text in a.row[2:4] + a.row[5:6]:
        assert text == json.dumps(json.loads(text), sort_keys=True)
