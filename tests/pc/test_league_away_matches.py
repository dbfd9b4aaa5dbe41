"""A club's matches away (issue 26, docs/league.md "The league's pages"): the matches its
archers shot as guests on another club's boxes count in its standings (a match between two
clubs counts for both), so its page lists them beside its boxes' matches, each marked with
the club that filed it; an archer's page names the club that filed each of their matches.
On a real PostgreSQL (pgserver.py) with the stores of test_league_guest_clubs.py: club A's
guests Ben (Tic Tac BOW: hand matches 1 and 3) and Bo (Try-Tac-Toe: both games) are of club
B; club C has no match."""

import re

import pytest
from leagueclubs import running
from test_league_archer_pages import page, plans, recorded
from test_league_guest_clubs import A, B, C, set_club, three  # noqa: F401
from test_league_pages import table
from test_league_push_whole_and_named import send

from scorebox.league.clubs import league_store
from scorebox.league.server import create_app
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)
GUESTS = [("Ben", "tictacbow"), ("Bo", "try-tac-toe")]
GAME_NAMES = {"tictacbow": "Tic Tac BOW", "try-tac-toe": "Try-Tac-Toe"}


@pytest.fixture
def away(three, capsys):  # noqa: F811
    """Clubs A (Ben and Bo its guests of club B) and B pushed; (url, a, b, {club: id}, client)."""
    url, a, b, tokens = three
    for guest, _ in GUESTS:
        set_club(a, guest, B, capsys)
    with running(url) as address:
        send(a, address, tokens[A])
        send(b, address, tokens[B])
    store, lg = league_store(url)
    try:
        ids = {c["name"]: c["id"] for c in lg.clubs()}
    finally:
        store.close()
    return url, a, b, ids, create_app(url).test_client()


def league_ids(url, path, keep=lambda m: True):
    """{league match id: game} of the matches of a club's store (path) that keep takes."""
    s = open_store(path)
    try:
        ms = [m for m in s.matches() if keep(m)]
    finally:
        s.close()
    store, lg = league_store(url)
    try:
        return {lg.names(m["device"], [m["number"]])[m["number"]][0]: m["game"] for m in ms}
    finally:
        store.close()


def of(m, guest):
    return guest in (m["side_a"] or "").split(",") + (m["side_b"] or "").split(",")


def listed(html):
    """{match id: (game's name, filed by)} of a page's matches table."""
    return {int(r[0]): (r[2], r[-1]) for r in table(html, "matches")}


@pytest.mark.parametrize("guest, game", GUESTS)
def test_a_clubs_page_lists_its_archers_matches_as_guests(guest, game, away):
    """Club B's page lists its box's matches, filed by itself, and the matches of A's boxes
    its guest shot in, filed by A (a link to A's page), newest stored first, each game's; the
    host's own page lists its boxes' matches only, filed by itself."""
    url, a, b, ids, client = away
    html = page(client, "/league/clubs/%d" % ids[B])
    got = listed(html)
    theirs = league_ids(url, a, lambda m: of(m, guest))
    assert theirs and set(theirs.values()) == {game}
    assert {mid: got[mid] for mid in theirs} == {mid: (GAME_NAMES[game], A) for mid in theirs}
    own = league_ids(url, b)
    guests = league_ids(url, a, lambda m: of(m, "Ben") or of(m, "Bo"))
    assert set(got) == set(own) | set(guests) and all(got[mid][1] == B for mid in own)
    assert list(got) == sorted(got, reverse=True)
    assert 'href="/league/clubs/%d">%s</a>' % (ids[A], A) in html
    host = listed(page(client, "/league/clubs/%d" % ids[A]))
    assert set(host) == set(league_ids(url, a)) and {f for _, f in host.values()} == {A}


def test_a_third_club_lists_none_and_the_list_is_limited(away):
    """Club C, whose archers shot nowhere, lists no match; a club's list is its n newest
    matches, its boxes' and its guests' together."""
    url, _, _, ids, client = away
    assert table(page(client, "/league/clubs/%d" % ids[C]), "matches") == [["no match yet"]]
    store, lg = league_store(url)
    try:
        every = [m["id"] for m in lg.club_matches(ids[B])]
        assert len(every) == 6 + 4 and every == sorted(every, reverse=True)
        three_newest = lg.club_matches(ids[B], n=3)
        assert [m["id"] for m in three_newest] == every[:3]
        assert {m["filed_by"]["name"] for m in lg.club_matches(ids[B], n=len(every))} == {A, B}
        assert lg.club_matches(ids[C]) == []
    finally:
        store.close()


@pytest.mark.parametrize("guest, game", GUESTS)
def test_an_archers_page_names_the_club_that_filed_each_match(guest, game, away):
    """A guest's page lists their matches on A's boxes filed by A, and their matches on their
    own club's boxes (if any) filed by B."""
    url, a, b, ids, client = away
    store, lg = league_store(url)
    try:
        aid = {(r["club"], r["name"]): r["id"] for r in lg.archers()}[B, guest]
    finally:
        store.close()
    html = page(client, "/league/archers/%d" % aid)
    head = re.search(r'<table id="matches">\s*<thead>(.*?)</thead>', html, re.S).group(1)
    assert "<th>filed by</th>" in head
    got = listed(html)
    theirs = league_ids(url, a, lambda m: of(m, guest))
    assert {mid: got[mid] for mid in theirs} == {mid: (GAME_NAMES[game], A) for mid in theirs}
    home = league_ids(url, b, lambda m: of(m, guest))
    assert set(got) == set(theirs) | set(home) and all(got[mid][1] == B for mid in home)


@pytest.mark.parametrize("guest, game", GUESTS)
def test_a_head_to_head_names_the_club_that_filed_each_match(guest, game, away):
    """A guest's head to head with each of their opponents lists each match filed by the
    club whose box it was shot on: A's for the matches on A's boxes."""
    url, a, b, ids, client = away
    store, lg = league_store(url)
    try:
        aid = {(r["club"], r["name"]): r["id"] for r in lg.archers()}[B, guest]
        opponents = [o["id"] for o in lg.opponents(aid)]
    finally:
        store.close()
    theirs = league_ids(url, a, lambda m: of(m, guest))
    home = league_ids(url, b, lambda m: of(m, guest))
    assert opponents
    seen = {}
    for oid in opponents:
        html = page(client, "/league/archers/%d/versus/%d" % (aid, oid))
        assert "<th>filed by</th>" in re.search(r'<table id="matches">\s*<thead>(.*?)</thead>', html, re.S).group(1)
        seen.update(listed(html))
    assert set(seen) == set(theirs) | set(home)
    assert {mid: seen[mid] for mid in theirs} == {mid: (GAME_NAMES[game], A) for mid in theirs}
    assert all(seen[mid][1] == B for mid in home)


def test_the_clubs_matches_are_read_through_indexes(away, monkeypatch):
    """The club's page reads its guests' matches through league_match_clubs' index by club
    (league schema 6), neither that table nor the matches read whole (EXPLAIN, sequential
    scans off, as test_league_archer_pages.py plans a page)."""
    url, _, _, ids, client = away
    seen = recorded(monkeypatch, client, "/league/clubs/%d" % ids[B])
    got = plans(url, seen)
    clubs = [nodes for nodes in got.values() if any(t == "league_match_clubs" for _, t in nodes)]
    assert clubs, "the club's page does not read league_match_clubs"
    for nodes in got.values():
        for scan in ("league_match_clubs", "matches", "league_boxes", "devices"):
            assert ("Seq Scan", scan) not in nodes, nodes
