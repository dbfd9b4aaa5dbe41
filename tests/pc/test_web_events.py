"""The desk's Events pages (docs/events.md) on a real store of both games: an event drawn from
the New event form, its rounds and standings with the rule they follow, a paper card entered
for a flat box, a pairing moved, an archer withdrawn, a refusal said on the page in words,
every change listed with what it was before, and the match page naming its pairing. Then the
same in Chromium (Playwright), at a laptop's width and a phone's."""

import re

import pytest
from bothstore import both_games
from test_web_browser import browser, desk, message, page, shot, submit  # noqa: F401
from test_web_browser import pytestmark as in_chromium
from test_web_pages_read_well import COMMAND, Page

from scorebox.web.app import create_app

FIVE = "Ann\nBen\nCat\nDan\nEve"


@pytest.fixture
def app(tmp_path):
    return create_app(both_games(str(tmp_path / "club.sqlite")), workdir=str(tmp_path / "work"))


def token(client, path="/events"):
    return re.search(r'name="csrf" value="([^"]+)"', client.get(path).get_data(as_text=True)).group(1)


def said(html):
    return re.findall(r'<p class="msg (\w+)" role="\w+">(.*?)</p>', html)


def post(c, path, **form):
    return c.post(path, data=dict(form, csrf=token(c)), follow_redirects=True).get_data(as_text=True)


def test_an_event_is_drawn_settled_from_paper_and_every_change_listed(app):
    c = app.test_client()
    assert "No events yet" in c.get("/events").get_data(as_text=True)
    html = post(c, "/events/new", name="Friday night", game="tictacbow", format="knockout", targets="2",
                seeding="given", archers="Ann, Ben\nCat\nDan", options="claim=3 rounds=1",
                day="2026-12-11")  # fmt: skip
    assert said(html) == [("ok", "Friday night is drawn: its first round is below")]
    assert "<h1>Friday night <small>(Tic Tac BOW, knockout)</small></h1>" in html
    assert "options: claim_a 3, claim_b 3, rounds 1" in html
    assert html.count("to shoot") == 2 and "<h2>Standings</h2>" not in html  # a knockout has no table
    assert "Friday night" in c.get("/events").get_data(as_text=True)
    card = "A: 2:1 M M\r\nB: 1:3 5:3 9:3\r\n"  # Dan (seed 4) beats Ann
    html = post(c, "/events/1/paper", pairing="1.1", card=card)
    assert said(html) == [("ok", "pairing 1.1 is settled by match 6, from the paper card")]
    assert '<span class="tag">from paper</span>' in html and "Dan wins" in html
    assert "pairing 1.1 settled by match 6, from a paper card (before: not settled)" in html
    html = post(c, "/events/1/seat", pairing="1.2", target="1")
    assert "pairing 1.2 moved to target 1 (before: target 2)" in html
    html = post(c, "/events/1/paper", pairing="1.2", card="archers: A=Ann B=Eve\nA: 1:3\n")
    assert said(html) == [("error", "the card names Ann v Eve, not the pairing&#39;s Cat v Ben")]
    html = post(c, "/events/1/attach", pairing="1.2", match="1")  # a match of others
    assert said(html)[0][0] == "error" and "not Cat v Ben: name its archers first" in said(html)[0][1]
    html = post(c, "/events/1/paper", pairing="9.9", card="A: 1:3\n")
    assert said(html) == [("error", "event 1 has no pairing 9.9: the event's page lists them (e.g. 1.2)")]
    html = post(c, "/events/1/withdraw", archer="Ben")
    assert said(html) == [("ok", "Ben is withdrawn: their pairings not yet shot are byes")]
    assert "Ben withdrawn (before: in the event)" in html and "Withdrawn: Ben." in html
    assert "<h2>Round 2</h2>" in html  # Cat's bye settles 1.2: the final is drawn, Dan v Cat
    match = c.get("/matches/6").get_data(as_text=True)
    assert 'Pairing 1.1 of <a href="/events/1">Friday night</a>' in match
    assert "entered from a paper card (before: no match settled the pairing)" in match
    for path in ("/events", "/events/1", "/matches/6"):
        text = Page(c.get(path).get_data(as_text=True)).visible()
        assert not COMMAND.search(text), "%s: %r" % (path, COMMAND.search(text).group())


def test_a_round_robins_standings_say_their_rule(app):
    c = app.test_client()
    html = post(c, "/events/new", name="League", game="tictacbow", format="round-robin", targets="2",
                seeding="given", archers=FIVE)  # fmt: skip
    assert html.count("<h2>Round ") == 5 and html.count("a bye") == 5
    assert "Ranked by wins (a draw counts half), then the results between those level" in html
    shown = Page(html)
    assert all(all(h for h in t["heads"]) for t in shown.tables)  # every column has its heading


@pytest.mark.parametrize(
    "form, error",
    [
        ({"archers": "Ann"}, "an event needs at least two archers"),
        ({"targets": "0"}, "targets: give a whole number 1-99"),
        ({"format": "teams", "archers": FIVE}, "teams of two need an even number of archers, not 5"),
        ({"options": "claim=200"}, "option claim: claim_a must be 1-99, not 200"),
        ({"time_limit": "x"}, "time limit in minutes: give a whole number 1-1440"),
    ],
)
def test_a_refused_event_is_said_on_the_page_and_keeps_nothing(app, form, error):
    c = app.test_client()
    full = dict(name="Night", game="tictacbow", format="round-robin", targets="2", seeding="given", archers=FIVE)
    full.update(form)
    html = c.post("/events/new", data=dict(full, csrf=token(c)), headers={"Referer": "http://localhost/events"},
                  follow_redirects=True).get_data(as_text=True)  # fmt: skip
    assert said(html) == [("error", error)]
    assert "No events yet" in html


@in_chromium
def test_the_events_pages_in_chromium(page, desk, tmp_path):  # noqa: F811
    page.goto(desk.url + "events")
    page.fill("input[name=name]", "Friday night")
    page.select_option("select[name=format]", "round-robin")
    page.fill("textarea[name=archers]", FIVE)
    submit(page, "text=Draw the event")
    assert message(page) == "Friday night is drawn: its first round is below"
    assert page.locator("table.pairings").count() == 5 and page.locator("table.standings tbody tr").count() == 5
    shot(page, "event", tmp_path)
    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # a phone: the tables scroll inside
    page.set_viewport_size({"width": 960, "height": 640})
    page.select_option("select[name=pairing] >> nth=2", index=0)
    page.fill("textarea[name=card]", "options: rounds=1\nA: 5:1 M M\nB: 6:1 M M\n")
    submit(page, "text=Enter the card")
    assert message(page) == "the card: its options are not the event's (the event's page says them)"
