"""The league's pages as a new reader meets them: a favicon; a page that is not there, or an
error inside a page, said as one of the league's pages with a way home (the push API's in
JSON), never Flask's bare page or a traceback; counts in the right number ("1 match of");
a named box's name heading its matches; every column with a heading and no command to type,
on a league a club pushed one match to (PostgreSQL: pgserver.py)."""

import re

import pytest
from leagueclubs import B_BOX, add_club, club_b, running
from test_web_pages_read_well import COMMAND, Page

from scorebox.commands import push
from scorebox.league.server import create_app
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)
NOWHERE = "postgresql://nowhere/league"  # pages that read no store need none


@pytest.fixture
def league(pg_url, tmp_path, capsys):
    """The league's URL after one club pushed its one match."""
    token = add_club(capsys, pg_url, "Archers of B")
    path = club_b(str(tmp_path / "b.sqlite"), count=1)
    with running(pg_url) as address:
        s = open_store(path)
        try:
            push.push(s, push.League(address, token))
        finally:
            s.close()
    return pg_url


def test_the_favicon_is_served_as_svg_and_linked(league):
    c = create_app(league).test_client()
    r = c.get("/league/static/favicon.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    for path in ("/league/", "/league/archers", "/league/report", "/league/no/such/page"):
        html = c.get(path).get_data(as_text=True)
        assert '<link rel="icon" href="/league/static/favicon.svg" type="image/svg+xml">' in html, path


def test_an_unknown_address_is_the_leagues_own_404_with_a_link_home():
    c = create_app(NOWHERE).test_client()
    for path in ("/league/no/such/page", "/nothing"):
        r = c.get(path)
        assert r.status_code == 404
        page = Page(r.get_data(as_text=True))
        assert "No such page" in page.visible() and "Not Found" not in page.visible(), path
        assert "/league/" in page.links  # home: the standings
    r = c.get("/league/api/nothing")  # the push API's client reads JSON
    assert r.status_code == 404 and r.is_json and "no page at this address" in r.get_json()["error"]


def test_an_error_inside_a_page_is_the_leagues_own_500_without_a_traceback():
    app = create_app(NOWHERE)

    @app.route("/league/broken")
    def broken():
        raise RuntimeError("a secret detail of the league's code")

    r = app.test_client().get("/league/broken")
    assert r.status_code == 500
    html = r.get_data(as_text=True)
    assert "Something went wrong" in Page(html).visible() and "/league/" in Page(html).links
    assert "Traceback" not in html and "secret detail" not in html and "Internal Server Error" not in html


def test_counts_of_one_are_said_in_the_singular(league):
    c = create_app(league).test_client()
    report = c.get("/league/report?season=all").get_data(as_text=True)
    counts = " ".join(re.search(r'<p id="counts">(.*?)</p>', report, re.S).group(1).split())
    assert counts.startswith("1 match of Tic Tac BOW, 0 matches of Try-Tac-Toe, 1 push taken and 0 refused"), counts
    archer = re.search(
        r'href="(/league/archers/\d+)\?season=all"', c.get("/league/archers?season=all").get_data(as_text=True)
    )
    versus = re.search(
        r'href="(/league/archers/\d+/versus/\d+)[^"]*"', c.get(archer.group(1) + "?season=all").get_data(as_text=True)
    )
    tally = c.get(versus.group(1) + "?season=all").get_data(as_text=True)
    assert re.search(r'<p id="tally">1 match: ', tally)


def test_a_named_boxs_name_heads_its_matches(league):
    s = open_store(league)
    try:
        s.name_box(B_BOX, "Range 1")
        m = s.matches()[0]
    finally:
        s.close()
    html = create_app(league).test_client().get("/league/matches/%d" % m["id"]).get_data(as_text=True)
    assert "<h1>Match Range 1 #%d <small>" % m["number"] in html and "<title>Match Range 1 #" in html


def test_every_column_has_a_heading_and_no_page_tells_a_command(league):
    c = create_app(league).test_client()
    paths = ["/league/", "/league/archers", "/league/report?season=all", "/league/archers?season=all"]
    first = c.get("/league/").get_data(as_text=True)
    paths += re.findall(r'href="(/league/clubs/\d+)"', first)
    club = c.get(paths[-1]).get_data(as_text=True)
    paths += re.findall(r'href="(/league/matches/\d+)"', club)[:1]
    archers = c.get("/league/archers?season=all").get_data(as_text=True)
    paths += re.findall(r'href="(/league/archers/\d+\?season=all)"', archers)[:1]
    tables = 0
    for path in paths:
        r = c.get(path)
        assert r.status_code == 200, path
        page = Page(r.get_data(as_text=True))
        assert not COMMAND.search(page.visible()), path
        for t in page.tables:
            heads = ["".join(h).strip() for h in t["heads"]]
            assert all(heads) and all(n <= len(heads) for n in t["rows"]), "%s: %r" % (path, heads)
            tables += 1
    assert tables >= 8
