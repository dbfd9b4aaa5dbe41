"""A league's seasons (issue 26, item 2): `scorebox league add-season NAME FIRST LAST` and
`scorebox league seasons`, bad days and overlaps refused in one line, and the standings and
archers of one season: the matches whose box's clock falls in its days (in the server's time
zone: the PC's here, as the clubs' stores read it), counted against the clubs' own stores
(leagueclubs.py: club B's matches were played in May 2026, club A's in September), on a real
PostgreSQL (pgserver.py)."""

import datetime

import pytest
from test_league_archers import kept, pushed

from scorebox import cli
from scorebox.league.clubs import league_store
from scorebox.league.db import current
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)
SPRING, AUTUMN = ("Spring 2026", "2026-03-01", "2026-06-30"), ("Autumn 2026", "2026-07-01", "2026-10-31")


def run(capsys, *args):
    capsys.readouterr()
    code = cli.main(["league", *args])
    out = capsys.readouterr()
    return code, out.out + out.err


def played(path, first, last):
    """(matches, wins, draws, losses) of a club's store played from day first to last."""
    s = open_store(path)
    try:
        ms = [
            m for m in s.matches() if m["started"] and first <= str(datetime.date.fromtimestamp(m["started"])) <= last
        ]
    finally:
        s.close()
    won = sum(m["winner"] in ("A", "X") for m in ms)
    drawn = sum(m["winner"] == "draw" for m in ms)
    return len(ms), won, drawn, sum(m["winner"] in ("B", "O") for m in ms)


def add(capsys, url, name, first, last):
    assert run(capsys, "add-season", name, first, last, "--db", url) == (
        0,
        "season %s added: %s to %s\n" % (name, first, last),
    )


@pytest.fixture
def league(pg_url, tmp_path, capsys):
    """Autumn added before the pushes (kept as they store), spring after (made from the kept days)."""
    add(capsys, pg_url, *AUTUMN)
    a, b = pushed(pg_url, tmp_path, capsys)
    add(capsys, pg_url, *SPRING)
    return pg_url, a, b


def test_seasons_are_added_listed_and_refused_in_one_line(league, capsys):
    url = league[0]
    code, out = run(capsys, "seasons", "--db", url)
    assert code == 0
    today = datetime.date.today().isoformat()
    mark = "  (the pages' default)" if today >= AUTUMN[1] else ""
    assert out.splitlines() == [
        "%s  %s to %s" % SPRING,
        "%s  %s to %s%s" % (AUTUMN + (mark,)),
    ]
    for args, says in (
        (("Spring 2026", "2027-01-01", "2027-02-01"), "a season named Spring 2026 already"),
        (
            ("Summer", "2026-06-30", "2026-07-15"),
            "season Spring 2026 (2026-03-01 to 2026-06-30) has some of these days",
        ),
        (("2027", "2027-12-31", "2027-01-01"), "first day (2027-12-31) is after its last (2027-01-01)"),
        (("2027", "2027-02-30", "2027-12-31"), "a season's first day is written YYYY-MM-DD"),
        (("2027", "2027-01-01", "31/12/2027"), "a season's last day is written YYYY-MM-DD"),
        (("", "2027-01-01", "2027-12-31"), "a season's name is a line of text"),
    ):
        code, out = run(capsys, "add-season", *args, "--db", url)
        assert code == 2 and says in out and len(out.splitlines()) == 1, out
    assert len(run(capsys, "seasons", "--db", url)[1].splitlines()) == 2  # nothing added


def test_the_standings_and_archers_of_a_season(league):
    url, a, b = league
    store, lg = league_store(url)
    try:
        seasons = {x["name"]: x for x in lg.seasons()}
        for name, first, last in (SPRING, AUTUMN):
            got = {
                r["name"]: (r["matches"], r["wins"], r["draws"], r["losses"])
                for r in lg.standings(season=seasons[name])
            }
            assert got == {"Archers of A": played(a, first, last), "Bowmen of B": played(b, first, last)}
        assert got["Archers of A"][0] == 5 and got["Bowmen of B"][0] == 0  # A's September, B's May
        spring = lg.archers(season=seasons["Spring 2026"])
        assert {r["club"] for r in spring} == {"Bowmen of B"}
        assert sum(r["matches"] for r in spring) == sum(
            r["matches"] for r in lg.archers() if r["club"] == "Bowmen of B"
        )
        one = spring[0]
        assert lg.record(one["id"], seasons["Autumn 2026"])["all"]["matches"] == 0
        assert len(lg.archer_matches(one["id"], seasons["Autumn 2026"])) == 0
        assert len(lg.archer_matches(one["id"], seasons["Spring 2026"])) == one["matches"]
        counts = lg.counts(seasons["Autumn 2026"])
        assert counts["matches"] == {"tictacbow": 3, "try-tac-toe": 2} and counts["pushes"] == 0  # pushed in December
        assert lg.counts()["pushes"] == 2
        before = kept(store)
        lg.keep_all()  # each season's totals as keep makes them with both seasons there
        assert kept(store) == before
    finally:
        store.close()


def test_the_current_season():
    day = datetime.date
    seasons = [
        {"first": day(2026, 3, 1), "last": day(2026, 6, 30)},
        {"first": day(2026, 7, 1), "last": day(2026, 10, 31)},
    ]
    assert current(seasons, day(2026, 2, 1)) is None  # none begun: every match
    assert current(seasons, day(2026, 5, 1)) is seasons[0]
    assert current(seasons, day(2026, 7, 1)) is seasons[1]
    assert current(seasons, day(2027, 1, 1)) is seasons[1]  # the last one, until the next begins
