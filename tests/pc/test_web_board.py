"""The board for the range (/board/EVENT, `scorebox board`) in Chromium at 1920x1080 with 16
archers: the round's pairings by target and the standings all on one screen in type read
across a room (40 px and up), a result stored meanwhile shown by itself, and a desk that stops
answering said on the board with when it last updated."""

import time

import pytest
from test_events import keep_match
from test_web_browser import browser, desk, page  # noqa: F401
from test_web_browser import pytestmark as in_chromium

from scorebox import cli
from scorebox.events import rounds
from scorebox.web.pages import board

pytestmark = in_chromium

SIXTEEN = ["Alexandra", "Benedikt", "Charlotte", "Dominik", "Elisabeth", "Friedrich", "Gabriele", "Heinrich",
           "Isabella", "Johannes", "Katharina", "Leopold", "Magdalena", "Nikolaus", "Ottilie", "Philippa"]  # fmt: skip


def until(check, seconds=10):
    """Wait for check() to hold (the page's CSP refuses Playwright's evaluated predicates)."""
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "not within %d s" % seconds
        time.sleep(0.2)


def test_sixteen_archers_on_one_screen_and_a_result_appears_by_itself(page, desk, monkeypatch, tmp_path):  # noqa: F811
    monkeypatch.setattr(board, "REFRESH_S", 1)
    s = desk.store()
    event = rounds.create(s, "Friday night", "tictacbow", "round-robin", SIXTEEN, 4, options=["claim=3", "rounds=1"])
    first = [p for p in s.event_pairings(event.id) if p["round"] == 1][0]
    by = {e.id: e.name for e in rounds.entrants(s, event.id)}
    s.close()
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(desk.url + "board/%d" % event.id)
    assert page.locator("#pairings tbody tr").count() == 8 and page.locator("#standings tbody tr").count() == 16
    size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size[0] <= 1920 and size[1] <= 1080, size  # everything on one screen
    smallest = page.evaluate(
        "Math.min(...[...document.querySelectorAll('#pairings td, #standings td')]"
        ".map((td) => parseFloat(getComputedStyle(td).fontSize)))"
    )
    assert smallest >= 40, smallest
    page.screenshot(path=str(tmp_path / "board.png"))
    assert page.locator("nav").count() == 0 and page.locator("form").count() == 0  # no menus, nothing to change
    a, b = by[first["entrant_a"]], by[first["entrant_b"]]
    mid = keep_match(desk.db, 1, a, b, "A")  # the next sync's result
    s = desk.store()
    s.attach_match(first["id"], mid, logged=False)
    s.close()
    until(lambda: "%s wins 9-1" % a in page.locator("#pairings").inner_text())
    assert page.locator("#standings tbody tr").first.inner_text().split("\t")[1] == a
    assert page.locator("#status").inner_text().startswith("updated ")
    desk.close()  # the desk stops: the board keeps asking and says so
    until(lambda: "stale" in (page.locator("#status").get_attribute("class") or ""))
    assert "the desk is not answering (last updated " in page.locator("#status").inner_text()
    assert "%s wins 9-1" % a in page.locator("#pairings").inner_text()  # what it showed stays


def test_the_board_of_an_event_that_is_not_there_is_one_line(desk, capsys):  # noqa: F811
    assert cli.main(["board", "7", "--no-browser", "--db", desk.db]) == 2
    err = capsys.readouterr().err
    assert "no event 7" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("width", [1280, 360])
def test_the_board_reads_on_a_laptop_and_a_phone(page, desk, width):  # noqa: F811
    s = desk.store()
    event = rounds.create(s, "Cup", "tictacbow", "knockout", SIXTEEN[:8], 4)
    s.close()
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(desk.url + "board/%d" % event.id)
    assert page.locator("#pairings tbody tr").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= width
