"""The league's pages of archers and seasons (issue 26, item 2): the archers across clubs
(sortable), an archer's page (record, newest matches, opponents), two archers' head to head,
the season chooser on the standings, and the league's report; read through the league's app
after two clubs pushed (test_league_archers.py's clubs) on a real PostgreSQL, checked
against the league's own counts and the clubs' stores. The standings and an archer's record
are read from what is kept as matches are stored: the statements a page runs are recorded
and planned (EXPLAIN, sequential scans off) to show which tables they read and how."""

import datetime
import json
import re

import pytest
from test_league_archers import pushed, their_archers
from test_league_pages import table

from scorebox import text
from scorebox.league import pages
from scorebox.league.clubs import league_store
from scorebox.league.server import create_app
from scorebox.store import postgres

pytest_plugins = ("pgserver",)


@pytest.fixture
def league(pg_url, tmp_path, capsys):
    a, b = pushed(pg_url, tmp_path, capsys)
    return pg_url, a, b, create_app(pg_url).test_client()


def page(client, path):
    got = client.get(path)
    assert got.status_code == 200, path
    html = got.get_data(as_text=True)
    assert "<script" not in html
    return html


def ids(url):
    store, lg = league_store(url)
    try:
        return {(r["club"], r["name"]): r["id"] for r in lg.archers()}
    finally:
        store.close()


def test_the_archers_across_clubs_sorted(league):
    url, a, b, client = league
    html = page(client, "/league/archers")
    rows = table(html, "archers")
    want = {**their_archers(a, "Archers of A"), **their_archers(b, "Bowmen of B")}
    assert {(r[1], r[0]): tuple(int(x) for x in r[2:]) for r in rows} == want
    assert [int(r[6]) for r in rows] == sorted((int(r[6]) for r in rows), reverse=True)  # by points
    names = [(r[0].casefold(), r[1].casefold()) for r in table(page(client, "/league/archers?sort=name"), "archers")]
    assert names == sorted(names)
    most = [int(r[2]) for r in table(page(client, "/league/archers?sort=matches"), "archers")]
    assert most == sorted(most, reverse=True)
    ttt = table(page(client, "/league/archers?game=try-tac-toe"), "archers")
    assert ttt and {r[1] for r in ttt} == {"Archers of A"}
    assert client.get("/league/archers?sort=age").status_code == 404
    assert client.get("/league/archers?game=chess").status_code == 404


def test_an_archers_page_and_head_to_head(league, monkeypatch):
    url, _, b, client = league
    monkeypatch.setattr(pages, "MATCHES_SHOWN", 2)
    rows = table(page(client, "/league/archers"), "archers")
    busiest = max((r for r in rows if r[1] == "Bowmen of B"), key=lambda r: int(r[2]))
    aid = ids(url)["Bowmen of B", busiest[0]]
    html = page(client, "/league/archers/%d" % aid)
    assert re.search(r"<h1>%s <small>of <a [^>]*>Bowmen of B</a>" % busiest[0], html)
    record = table(html, "record")
    assert record[-1] == ["both games"] + busiest[2:]
    shown = table(html, "matches")
    assert len(shown) == 2 and "(the newest 2 of %s)" % busiest[2] in html  # limited, newest first
    assert all(busiest[0] in (r[3].replace(" v ", ",")).split(",") for r in shown)
    foes = table(html, "opponents")
    assert foes and all(f[1] == "Bowmen of B" for f in foes)
    oid = int(re.search(r'href="/league/archers/%d/versus/(\d+)\?season=all"' % aid, html).group(1))
    versus = page(client, "/league/archers/%d/versus/%d" % (aid, oid))
    foe = foes[0]  # the first opponent's link, most matches first
    n, won, drawn, lost = (int(x) for x in foe[2:])
    tally = re.search(r'<p id="tally">(.*?)</p>', versus, re.S).group(1)
    matches = text.plural(n, "match", "matches")  # "1 match", "3 matches"
    said = "%s: %s won %d, %s won %d, %d drawn" % (matches, busiest[0], won, foe[0], lost, drawn)
    assert tally.startswith(said)
    assert len(table(versus, "matches")) == min(n, 2)
    back = page(client, "/league/archers/%d/versus/%d" % (oid, aid))
    assert "%s won %d, %s won %d" % (foe[0], lost, busiest[0], won) in back
    assert client.get("/league/archers/99999").status_code == 404
    assert client.get("/league/archers/%d/versus/99999" % aid).status_code == 404


def test_the_season_chooser(league, capsys):
    url, a, b, client = league
    from scorebox import cli

    today = datetime.date.today()
    for args in (("Spring 2026", "2026-03-01", "2026-06-30"), ("Now", str(today), str(today))):
        assert cli.main(["league", "add-season", *args, "--db", url]) == 0
    store, lg = league_store(url)
    try:
        sid = {x["name"]: x["id"] for x in lg.seasons()}
    finally:
        store.close()
    html = page(client, "/league/")  # the current season by default: nothing played today
    assert '<small id="season">Now, %s to %s</small>' % (today, today) in html
    assert [r[1] for r in table(html, "standings")] == ["0", "0"]
    assert '<a href="/league/?season=%d" aria-current="page">Now</a>' % sid["Now"] in html
    spring = page(client, "/league/?season=%d" % sid["Spring 2026"])
    got = {r[0]: int(r[1]) for r in table(spring, "standings")}
    assert got == {"Archers of A": 0, "Bowmen of B": 6}  # club B's matches were played in May
    assert 'href="/league/?game=tictacbow&amp;season=%d"' % sid["Spring 2026"] in spring
    every = page(client, "/league/?season=all")
    assert sum(int(r[1]) for r in table(every, "standings")) == 11
    assert {r[1] for r in table(page(client, "/league/archers?season=%d" % sid["Spring 2026"]), "archers")} == {
        "Bowmen of B"
    }
    assert client.get("/league/?season=999").status_code == 404
    assert client.get("/league/archers?season=x").status_code == 404


def test_the_leagues_report(league):
    url, a, b, client = league
    html = page(client, "/league/report?season=all")
    store, lg = league_store(url)
    try:
        for g in ("tictacbow", "try-tac-toe"):
            want = [
                [r["name"]] + [str(r[k]) for k in ("matches", "wins", "draws", "losses", "points")]
                for r in lg.standings(g)
            ]
            assert table(html, "standings-" + g) == want
        top = lg.archers()[: pages.TOP]
    finally:
        store.close()
    assert [r[0] for r in table(html, "top")] == [r["name"] for r in top]
    assert re.search(r'<p id="counts">9 matches of Tic Tac BOW, 2 matches of Try-Tac-Toe,\s+2 pushes taken', html)
    assert '<style media="print">' in html


def plans(url, statements):
    """{statement: [(node type, table)]} of the SELECTs as PostgreSQL plans them with
    sequential scans off (a table read whole only where no index serves)."""
    store, _ = league_store(url)
    try:
        store.db.pg.execute("SET enable_seqscan = off")
        out = {}
        for sql, params in statements:
            if not sql.lstrip().upper().startswith("SELECT"):
                continue
            plan = store.db.pg.execute("EXPLAIN (FORMAT JSON) " + sql, params).fetchone()[0]
            nodes, todo = [], [(plan if isinstance(plan, list) else json.loads(plan))[0]["Plan"]]
            while todo:
                n = todo.pop()
                nodes.append((n["Node Type"], n.get("Relation Name")))
                todo += n.get("Plans", [])
            out[sql] = nodes
        return out
    finally:
        store.close()


def recorded(monkeypatch, client, path):
    """The statements (and their parameters) the league's app runs for one page."""
    seen, run = [], postgres.Connection.execute

    def execute(self, sql, params=None):
        seen.append((sql, params))
        return run(self, sql, params)

    monkeypatch.setattr(postgres.Connection, "execute", execute)
    page(client, path)
    monkeypatch.setattr(postgres.Connection, "execute", run)
    return seen


def test_the_standings_and_a_record_do_not_read_the_matches(league, monkeypatch):
    """Issue 26 item 5's 1 s and 300 ms at 1,000,000 matches: the standings and the archers'
    lists are sums of the kept counts; an archer's page reads their record from theirs and
    their matches through the kept sides' index (the matches' rows of the page's few only)."""
    url, _, _, client = league
    matches = {"matches", "match_archers", "games", "turns", "arrows"}
    for path in ("/league/?season=all", "/league/?game=tictacbow", "/league/archers", "/league/report"):
        read = {t for nodes in plans(url, recorded(monkeypatch, client, path)).values() for _, t in nodes}
        assert read and not read & matches, (path, read)
    aid = next(iter(ids(url).values()))
    seen = recorded(monkeypatch, client, "/league/archers/%d" % aid)
    got = plans(url, seen)
    for sql, nodes in got.items():
        assert ("Seq Scan", "matches") not in nodes and ("Seq Scan", "league_match_sides") not in nodes, sql
        assert ("Seq Scan", "league_archer_totals") not in nodes, sql
        if "league_archer_totals" in sql:  # the record: the kept totals alone
            assert {t for _, t in nodes if t} == {"league_archer_totals"}
    assert len(seen) <= 12  # the store's opening 2 of them: its tables, its version


def test_an_archer_of_two_clubs_is_two_pages(league):
    url, _, _, client = league
    both = ids(url)
    one, two = both["Archers of A", "Ann"], both["Bowmen of B", "Ann"]
    a_page, b_page = page(client, "/league/archers/%d" % one), page(client, "/league/archers/%d" % two)
    assert ">Archers of A</a></small>" in a_page and ">Bowmen of B</a></small>" in b_page


def test_an_archers_name_is_escaped(pg_url, tmp_path, capsys):
    """A name keyed on a box is the club's text: shown as text on every page of archers."""
    from leagueclubs import add_club, running
    from storegen import match_items

    from scorebox.commands import push
    from scorebox.store.access import open_store

    box, hostile = "e6614103dddddddd", "<b>Ann</b>"
    path = str(tmp_path / "c.sqlite")
    s = open_store(path, create=True)
    try:
        items = [i for _, i in match_items(3, devices=[box], roster=[hostile, "Ben & Co", "Cat"])]
        assert s.add_matches(box, items) == [True] * 3
        token = add_club(capsys, pg_url, "Club C")
        with running(pg_url) as address:
            push.push(s, push.League(address, token))
    finally:
        s.close()
    client = create_app(pg_url).test_client()
    aid = ids(pg_url)["Club C", hostile]
    for path in ("/league/archers", "/league/archers/%d" % aid, "/league/report"):
        html = page(client, path)
        assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "<b>Ann</b>" not in html, path
