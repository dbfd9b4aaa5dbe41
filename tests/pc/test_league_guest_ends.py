"""Two loose ends of the league's guest clubs (issue 26, docs/league.md "Archers across
clubs"): the league refuses a club for an unnamed side (A, B, X, O: no
archer, as `scorebox archers club` and an import refuse it); the report's count of matches
is kept as the totals are (per season and game), checked against a recount. On a real
PostgreSQL (pgserver.py) with the stores of test_league_guest_clubs.py."""

import pytest
from leagueclubs import add_club, clubs, league_count, rows, running
from test_league_archer_pages import plans, recorded
from test_league_guest_clubs import A, B, C, check_kept, set_club, three  # noqa: F401
from test_league_guest_rules import post
from test_league_push_whole_and_named import log, send

from scorebox import cli
from scorebox.league.clubs import league_store
from scorebox.league.server import create_app
from scorebox_core import games

pytest_plugins = ("pgserver",)


@pytest.mark.parametrize("game", [gid for gid, _ in games.GAMES])
def test_an_unnamed_side_takes_no_club_from_a_push(game, three):  # noqa: F811
    """A push naming an unnamed side (the game's A/B or X/O) and giving it a club is refused
    (422) with nothing stored, and logged; the same match with no club for it is stored."""
    url, a, _, tokens = three
    client = create_app(url).test_client()
    m = next(dict(r) for r in rows(a) if games.of(r["header"]) is games.get(game))
    unnamed = games.get(game).SIDES[1]
    m["names"] = [m["names"][0], [unnamed]]
    m["clubs"] = [[None] * len(m["names"][0]), [B]]
    got = post(client, tokens[A], [m], "unnamed%05d" % len(game))
    assert got.status_code == 422, got.json
    assert got.json[
        "error"
    ] == "%s/%d: %r is what the box calls an unnamed side, not an archer: it has no club; nothing stored" % (
        m["device"],
        m["number"],
        unnamed,
    )
    assert league_count(url) == 0
    assert log(url)[-1][:4] == (A, 1, 0, 422)
    m["clubs"] = [[None] * len(m["names"][0]), [None]]
    got = post(client, tokens[A], [m], "unnamed%05dok" % len(game))
    assert got.status_code == 200 and got.json["stored"] == 1, got.json


def recount(url, season=None):
    """{game: matches} of the league's kept sides (each match once, whatever its clubs) in
    a season's days (a dict of seasons()), or of all."""
    store, _ = league_store(url)
    try:
        q, args = "SELECT game, count(DISTINCT match_id) FROM league_match_sides", []
        if season is not None:
            q, args = q + " WHERE day BETWEEN %s AND %s", [season["first"], season["last"]]
        return dict(store.db.execute(q + " GROUP BY game", args).fetchall())
    finally:
        store.close()


def counted(url):
    """{season name (None: all): the report's {game: matches}} and the recount of each."""
    store, lg = league_store(url)
    try:
        seasons = lg.seasons()
        got = {None: lg.counts()["matches"]}
        got.update({x["name"]: lg.counts(x)["matches"] for x in seasons})
    finally:
        store.close()
    want = {None: recount(url)}
    want.update({x["name"]: recount(url, x) for x in seasons})
    return got, want


def test_the_reports_count_of_matches_is_kept(pg_url, tmp_path, capsys, monkeypatch):
    """The report's count of matches per season and game (a match of two clubs once) is kept
    as matches are stored: after a push of guests of both games, a season added after it, a
    refiling under other clubs and keep_all it is the recount of
    the kept sides; the report reads neither the sides nor their clubs (EXPLAIN)."""
    a, b = clubs(tmp_path)
    tokens = {name: add_club(capsys, pg_url, name) for name in (A, B, C)}
    set_club(a, "Ben", B, capsys)  # Tic Tac BOW's hand matches 1 and 3
    set_club(a, "Bo", B, capsys)  # Try-Tac-Toe's two games
    with running(pg_url) as address:
        send(a, address, tokens[A])
        send(b, address, tokens[B])
        got, want = counted(pg_url)
        assert got == want == {None: {"tictacbow": 3 + 6, "try-tac-toe": 2}}
        client = create_app(pg_url).test_client()
        for path in ("/league/report?season=all", "/league/report"):
            read = {t for nodes in plans(pg_url, recorded(monkeypatch, client, path)).values() for _, t in nodes}
            assert "league_match_totals" in read and not read & {"league_match_sides", "league_match_clubs"}, read
        days = sorted({r[0] for r in _sql(pg_url, "SELECT DISTINCT day FROM league_match_sides") if r[0]})
        first, rest = days[0], days[1]
        assert cli.main(["league", "add-season", "First", str(first), str(first), "--db", pg_url]) == 0
        assert cli.main(["league", "add-season", "Rest", str(rest), "2099-12-31", "--db", pg_url]) == 0
        got, want = counted(pg_url)
        assert got == want and got["First"] and got["Rest"], got
        set_club(a, "Ben", C, capsys)
        set_club(a, "Bo", C, capsys)
        assert send(a, address, tokens[A]) == (0, 5)  # filed anew, each match still once
        assert counted(pg_url) == (got, got)
    check_kept(pg_url)  # keep_all makes the same counts
    assert counted(pg_url) == (got, got)


def _sql(url, q):
    store, _ = league_store(url)
    try:
        return store.db.execute(q).fetchall()
    finally:
        store.close()
