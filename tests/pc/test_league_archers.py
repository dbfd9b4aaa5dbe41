"""Archers across clubs (issue 26, item 2): a league archer is a name of a club (the same name
in two clubs is two archers), kept as a push stores its matches (league/db.py's keep, in
add_checked's transaction), with the totals per club and archer, season and game that the
standings and an archer's record are read from; filled for the matches stored before when a
league's tables are upgraded. Checked against the clubs' own stores after two clubs
pushed (leagueclubs.py: club A's holds both games, club B's shares names with it), on a
real PostgreSQL (pgserver.py)."""

import pytest
from leagueclubs import add_club, clubs, league_count, running
from storegen import match_items

from scorebox.commands import push
from scorebox.league.clubs import league_store
from scorebox.store.access import open_store
from scorebox.store.checks import check
from scorebox_core import games

pytest_plugins = ("pgserver",)
FIRST = {g.SIDES[0] for g in games.every()}
KEPT = ("league_archer_totals", "league_club_totals", "league_club_days", "league_match_sides", "league_match_totals")


def their_archers(path, club, game=None):
    """{(club, name): (matches, wins, draws, losses, points)} counted from a club's own store
    (of one game's matches: game): each archer of a match, on its side; 2 a win, 1 a draw."""
    out = {}
    s = open_store(path)
    try:
        for m in s.matches():
            if game and m["game"] != game:
                continue
            for first, names in ((True, m["side_a"]), (False, m["side_b"])):
                for name in (names or "").split(","):
                    if not name:
                        continue
                    n, w, d, lost = out.get((club, name), (0, 0, 0, 0))
                    won = m["winner"] not in (None, "draw") and (m["winner"] in FIRST) == first
                    drawn = m["winner"] == "draw"
                    out[(club, name)] = (
                        n + 1,
                        w + won,
                        d + drawn,
                        lost + (m["winner"] is not None and not won and not drawn),
                    )
    finally:
        s.close()
    return {k: v + (2 * v[1] + v[2],) for k, v in out.items()}


def pushed(pg_url, tmp_path, capsys):
    """Clubs A (both games) and B pushed to the league at pg_url; (a's store, b's)."""
    a, b = clubs(tmp_path)
    tokens = add_club(capsys, pg_url, "Archers of A"), add_club(capsys, pg_url, "Bowmen of B")
    with running(pg_url) as address:
        for path, token in zip((a, b), tokens):
            s = open_store(path)
            try:
                push.push(s, push.League(address, token))
            finally:
                s.close()
    return a, b


@pytest.fixture
def league(pg_url, tmp_path, capsys):
    a, b = pushed(pg_url, tmp_path, capsys)
    return pg_url, a, b


def archers(url, game=None):
    store, league = league_store(url)
    try:
        rows = league.archers(game)
    finally:
        store.close()
    return {(r["club"], r["name"]): tuple(r[k] for k in ("matches", "wins", "draws", "losses", "points")) for r in rows}


def test_an_archer_is_a_name_of_a_club(league):
    url, a, b = league
    got = archers(url)
    assert got == {**their_archers(a, "Archers of A"), **their_archers(b, "Bowmen of B")}
    assert ("Archers of A", "Ann") in got and ("Bowmen of B", "Ann") in got  # one name, two archers
    store, lg = league_store(url)
    try:
        ids = {(r["club"], r["name"]): r["id"] for r in lg.archers()}
        assert ids["Archers of A", "Ann"] != ids["Bowmen of B", "Ann"]
        ann = lg.archer(ids["Bowmen of B", "Ann"])
        assert (ann["name"], ann["club"]) == ("Ann", "Bowmen of B")
        assert lg.record(ann["id"])["all"]["matches"] == got["Bowmen of B", "Ann"][0]
    finally:
        store.close()


def test_each_game_of_an_archers_record(league):
    """Try-Tac-Toe's two games (TTT-6) on club A's box count in its archers' records of that game."""
    url, a, b = league
    store, lg = league_store(url)
    try:
        for r in lg.archers(game="try-tac-toe"):
            assert r["club"] == "Archers of A"
            rec = lg.record(r["id"])
            assert rec["try-tac-toe"]["matches"] == r["matches"]
            assert rec["all"]["matches"] == sum(rec[g.ID]["matches"] for g in games.every() if g.ID in rec)
    finally:
        store.close()
    for g in games.every():
        assert archers(url, g.ID) == {**their_archers(a, "Archers of A", g.ID), **their_archers(b, "Bowmen of B", g.ID)}
    assert their_archers(a, "Archers of A", "try-tac-toe")


def test_an_archers_matches_opponents_and_head_to_head(league):
    url, _, b = league
    store, lg = league_store(url)
    try:
        ann = max((r for r in lg.archers() if r["club"] == "Bowmen of B"), key=lambda r: r["matches"])
        assert ann["matches"] >= 3
        mine = lg.archer_matches(ann["id"])
        assert len(mine) == ann["matches"]
        assert all(ann["name"] in (m["side_a"] + "," + m["side_b"]).split(",") for m in mine)
        assert [m["outcome"] for m in mine].count("W") == ann["wins"]
        assert mine == sorted(mine, key=lambda m: (m["started"], m["id"]), reverse=True)  # newest first
        assert len(lg.archer_matches(ann["id"], n=2)) == 2
        foes = lg.opponents(ann["id"])
        assert sum(f["wins"] for f in foes) >= ann["wins"] and all(f["club"] == "Bowmen of B" for f in foes)
        foe = foes[0]
        versus = lg.archer_matches(ann["id"], versus=foe["id"])
        assert len(versus) == foe["matches"] and [m["outcome"] for m in versus].count("W") == foe["wins"]
        back = lg.archer_matches(foe["id"], versus=ann["id"])
        assert [m["id"] for m in back] == [m["id"] for m in versus]
        assert [m["outcome"] for m in back].count("L") == foe["wins"]
    finally:
        store.close()


def kept(store):
    """Every row of the league's kept tables, {table: sorted rows}."""
    out = {}
    for t in KEPT:
        rows = store.db.execute("SELECT * FROM " + t).fetchall()
        out[t] = sorted((tuple(r) for r in rows), key=repr)
    return out


def test_what_is_kept_is_what_the_matches_say(league):
    """keep_all makes again from the matches what the pushes kept, to the row (each club's
    push was one batch: its rows of a club, game and day are one row there as here)."""
    store, lg = league_store(league[0])
    try:
        before = kept(store)
        assert all(before.values())
        lg.keep_all()
        assert kept(store) == before
    finally:
        store.close()


def test_a_match_of_no_clubs_box_is_not_the_leagues(league):
    """A match stored on the league's store for a box no club claimed counts nowhere."""
    url = league[0]
    before = archers(url)
    store, league_db = league_store(url)
    try:
        items = [check(*i) for _, i in match_items(2, devices=["e661410300000000"])]
        got, _ = store.add_checked("e661410300000000", items, on_stored=league_db.keep)  # as a push stores
        assert got == [True, True]
        assert archers(url) == before
    finally:
        store.close()


def test_a_push_whose_counts_cannot_be_kept_stores_nothing(pg_url, tmp_path, capsys):
    """The counts are kept in the push's own transaction: when they cannot be written, its
    matches are not stored either (503), and a push after it stores and counts them all."""
    a, b = clubs(tmp_path)
    token = add_club(capsys, pg_url, "Bowmen of B")
    s = open_store(pg_url)
    try:
        s.db.script("ALTER TABLE league_club_days RENAME TO away")
    finally:
        s.close()
    with running(pg_url) as address:
        s = open_store(b)
        try:
            with pytest.raises(push.ScoreboxError, match="cannot take a push now"):
                push.push(s, push.League(address, token))
            assert league_count(pg_url) == 0
            back = open_store(pg_url)
            try:
                back.db.script("ALTER TABLE away RENAME TO league_club_days")
            finally:
                back.close()
            push.push(s, push.League(address, token))
        finally:
            s.close()
    assert league_count(pg_url) == 6
    assert archers(pg_url) == their_archers(b, "Bowmen of B")
