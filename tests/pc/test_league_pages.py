"""The league's pages (issue 26, item 2): the standings of both games and of each, a club's
page (its boxes, its matches, its pushes from the log) and a match's page, on the league's
server over a real PostgreSQL (pgserver.py) after two clubs pushed from their SQLite stores
(leagueclubs.py: club A's holds both games). The figures are checked against the clubs' own
stores; in Chromium (Playwright) against the server run as `scorebox serve --league`."""

import os
import re
import subprocess
import sys

import pytest
from leagueclubs import B_BOX, add_club, clubs, running

from scorebox import text
from scorebox.commands import push
from scorebox.league.server import create_app
from scorebox.store.access import open_store
from scorebox_core import games

pytest_plugins = ("pgserver",)
CHROMIUM = "/usr/bin/chromium"
HOSTILE = "<b>Bowmen</b> & Co"


def expected(*paths, game=None):
    """(matches, wins, draws, losses, points) of a club whose stores are paths, counted from
    the club's own store: its first side (A, X) is the club's; 2 a win, 1 a draw."""
    first = {g.SIDES[0] for g in games.every()}
    n = won = drawn = lost = 0
    for path in paths:
        s = open_store(path)
        try:
            for m in s.matches():
                if game and m["game"] != game:
                    continue
                n += 1
                won += m["winner"] in first
                drawn += m["winner"] == "draw"
                lost += m["winner"] not in first and m["winner"] not in (None, "draw")
        finally:
            s.close()
    return n, won, drawn, lost, 2 * won + drawn


@pytest.fixture
def league(pg_url, tmp_path, capsys):
    """The league's URL after club A (both games) and club B pushed; (url, a, b, club B's token)."""
    a, b = clubs(tmp_path)
    token_a, token_b = add_club(capsys, pg_url, "Archers of A"), add_club(capsys, pg_url, HOSTILE)
    with running(pg_url) as address:
        for path, token in ((a, token_a), (b, token_b)):
            s = open_store(path)
            try:
                push.push(s, push.League(address, token))
            finally:
                s.close()
        with pytest.raises(push.ScoreboxError, match="not a club's token"):
            push.League(address, token_b[:-2] + "xx").call("league/api/have", {"matches": []})
    return pg_url, a, b, token_b


def table(html, id_):
    """The rows of a page's table as lists of cell texts."""
    body = re.search(r'<table id="%s">.*?<tbody>(.*?)</tbody>' % id_, html, re.S).group(1)
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
        for r in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def standings(client, game=None):
    html = client.get("/league/" + ("?game=" + game if game else "")).get_data(as_text=True)
    return {r[0]: tuple(int(x) for x in r[1:]) for r in table(html, "standings")}, html


def test_standings_of_both_games_and_of_each(league):
    url, a, b, _ = league
    client = create_app(url).test_client()
    got, html = standings(client)
    assert got == {"Archers of A": expected(a), "&lt;b&gt;Bowmen&lt;/b&gt; &amp; Co": expected(b)}
    assert "Points: 2 a win, 1 a draw, 0 a loss" in html
    assert "<b>Bowmen</b>" not in html  # a club's name is escaped
    assert sum(r[0] for r in got.values()) == 11
    for g in games.every():
        got, _ = standings(client, g.ID)
        assert got["Archers of A"] == expected(a, game=g.ID)
    assert standings(client, "try-tac-toe")[0]["Archers of A"][0] == 2  # TTT-6's two games
    assert client.get("/league/?game=chess").status_code == 404


def test_a_clubs_page_and_a_matchs_page(league):
    url, a, b, _ = league
    client = create_app(url).test_client()
    _, html = standings(client)
    cid = re.search(r'href="/league/clubs/(\d+)">&lt;b&gt;', html).group(1)
    page = client.get("/league/clubs/" + cid).get_data(as_text=True)
    assert table(page, "boxes") == [[B_BOX, "-", "6", table(page, "boxes")[0][3]]]
    rows = table(page, "matches")
    assert len(rows) == 6 and all(r[2] == "Tic Tac BOW" for r in rows)
    pushes = table(page, "pushes")
    assert [p[1:4] for p in pushes] == [["6", "6", "0"]]  # the refused try had no club: not this club's
    assert "127.0.0.1" not in page  # where a push came from stays in the log, off the public page
    mid = re.search(r'href="/league/matches/(\d+)"', page).group(1)
    m = client.get("/league/matches/" + mid).get_data(as_text=True)
    key = re.search(r"<h1>Match (\S+) ", m).group(1)
    s = open_store(b)
    try:
        mine = s.load_match(key)
    finally:
        s.close()
    assert "%s (A) <span>v</span> %s (B)" % (", ".join(mine["names"][0]), ", ".join(mine["names"][1])) in m
    said = re.search(r'<p id="result">(.*?)</p>', m).group(1)
    assert said == text.said(mine["winner"], mine["score"], mine["abandoned"])  # as the club's screens say it
    assert said == ("draw" if mine["winner"] == "draw" else mine["winner"] + " wins") + " %d-%d" % tuple(mine["wins"])
    sides = re.search(r'<p id="clubs">(.*?)</p>', m).group(1)  # each side's club: the box's, no guest
    assert (
        re.sub(r"<[^>]+>", "", sides)
        == "side A: &lt;b&gt;Bowmen&lt;/b&gt; &amp; Co; side B: &lt;b&gt;Bowmen&lt;/b&gt; &amp; Co"
    )
    assert client.get("/league/clubs/999").status_code == 404
    assert client.get("/league/matches/999999").status_code == 404


def test_pages_read_by_club_through_indexes(league):
    """What a club's page and the standings filter on is indexed in the league's tables."""
    s = open_store(league[0])
    try:
        names = {r[0] for r in s.db.execute("SELECT indexname FROM pg_indexes WHERE tablename LIKE 'league_%'")}
    finally:
        s.close()
    assert {"league_boxes_by_club", "league_pushes_by_club"} <= names


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no system Chromium (make test installs it)")
def test_standings_in_chromium_from_the_league_server_process(league):
    """Issue 26's done-when: PostgreSQL, the league's server as `scorebox serve --league` in a
    process of its own, two clubs' pushes, the standings read in Chromium."""
    playwright = pytest.importorskip("playwright.sync_api")
    url, a, b, _ = league
    argv = [sys.executable, "-c", "import sys; from scorebox.cli import main; sys.exit(main())"]
    proc = subprocess.Popen(
        argv + ["serve", "--league", "--db", url, "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("the league's server: http://127.0.0.1:"), line
        address = line.split()[3]
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page()
                page.set_default_timeout(20000)
                page.goto(address)  # the pages, as the server printed them
                assert page.title() == "Standings - the league"

                def shown():
                    return {
                        r[0]: tuple(int(x) for x in r[1:])
                        for r in page.eval_on_selector_all(
                            "#standings tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
                        )
                    }

                assert shown() == {"Archers of A": expected(a), HOSTILE: expected(b)}
                assert page.locator("#standings b").count() == 0  # the hostile name is text
                assert "2 a win, 1 a draw" in page.inner_text("#rule")
                with page.expect_navigation():
                    page.click("text=Try-Tac-Toe")
                assert shown() == {
                    "Archers of A": expected(a, game="try-tac-toe"),
                    HOSTILE: expected(b, game="try-tac-toe"),
                }
                with page.expect_navigation():
                    page.click("text=Archers of A")
                assert page.locator("#matches tbody tr").count() == 5
                with page.expect_navigation():
                    page.click("#matches tbody tr:first-child a")
                assert page.inner_text("#result") and "club Archers of A" in page.inner_text("main")
                assert page.evaluate("document.styleSheets[0].cssRules.length") > 0  # the desk's stylesheet
            finally:
                browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
