"""scorebox report: one self-contained HTML file, opened in headless Chromium (Debian's
`chromium`) over the DevTools protocol: no console error, no request but the file itself,
the replay steps turn by turn and draws what the rules core says, and a screenshot."""

import json
import re
import struct

import pytest
from browser import Chromium, find
from handmatches import fill
from storegen import generate

from scorebox import cli
from scorebox.games.ttb.report import frame
from scorebox.games.ttb.show import turns
from scorebox.store.sqlite import Store

REPLAYS = 60


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    path = str(folder / "club.sqlite")
    generate(path, 240, seed=5)
    fill(Store(path)).close()  # and the hand-written matches, newest
    out = str(folder / "report.html")
    assert cli.main(["report", "--db", path, "--out", out, "--replays", str(REPLAYS)]) == 0
    return path, out


def test_self_contained(club):
    _, out = club
    html = open(out, encoding="utf-8").read()
    # Nothing to fetch: no external script, style sheet, image or font.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert '<link rel="stylesheet"' not in html and "@import" not in html and "url(" not in html
    data = json.loads(re.search(r'<script type="application/json" id="replays">(.*?)</script>', html, re.S).group(1))
    assert len(data) == REPLAYS
    assert data[0]["k"] == "hand/3" and data[0]["res"] == "draw 0-0"
    assert "The newest 60 matches can be replayed" in html and "summed up by month" in html


def browser():
    if not find():
        pytest.fail("chromium is not installed: `apt-get install -y chromium` (the Makefile's setup does it)")
    return Chromium(1280, 900)


def owners_on_screen(c):
    return c.eval(
        "Array.from(document.querySelectorAll('#board rect')).map(function (r) {"
        " var m = /own-(A|B)/.exec(r.getAttribute('class')); return m ? m[1] : '.'; }).join('')"
    )


def test_in_chromium(club, tmp_path):
    path, out = club
    with browser() as c:
        c.open("file://" + out)
        c.settle(0.5)
        assert c.problems == []
        assert c.requests == ["file://" + out]  # the page fetched nothing else
        assert c.eval("document.querySelectorAll('#mlist tbody tr').length") == REPLAYS
        assert c.eval("document.querySelectorAll('#board rect').length") == 9
        # Hand match 2 (Cat v Ann) turn by turn, against the rules core.
        c.eval("document.getElementById('m1').click()")
        assert c.eval("document.getElementById('v-title').textContent") == "Cat v Ann · A wins 1-0"
        store = Store(path)
        m = store.load_match("hand/2")
        states = ["." * 9] + [frame(mm, t)["b"] for mm, t in turns(m["header"], m["log"])]
        assert states[-1] == "A.A.A...A"
        c.eval("document.getElementById('b-first').click()")
        assert c.eval("document.getElementById('v-score').textContent") == "turn 0 of 4"
        for k in range(len(states)):
            assert owners_on_screen(c) == states[k], k
            c.eval("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))")
        turn = c.eval("document.getElementById('v-turn').textContent")
        assert "B (Ann)" in turn and "5:- flip missed" in turn and "Game 1: A wins (a line)" in turn
        assert c.eval("document.querySelectorAll('#board rect.win').length") == 3
        # The other pages.
        for page, selector, least in (
            ("archers", "#page-archers figure.heat svg", 2 * 8),
            ("h2h", "#page-h2h td[title]", 8),
            ("faces", "#page-faces tbody tr", 10),
        ):
            c.eval("location.hash = '#%s'" % page)
            c.settle(0.2)
            assert c.eval("document.getElementById('page-%s').offsetHeight > 0" % page), page
            assert c.eval("document.querySelectorAll('%s').length" % selector) >= least, page
        c.eval("location.hash = '#matches'")
        c.eval("scorebox.pick(2); scorebox.go(5)")
        c.settle(0.2)
        shot = tmp_path / "report.png"
        c.screenshot(str(shot))
        assert c.problems == []
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (1280, 900)
    assert len(png) > 50_000  # a page, not a blank


def test_show(club, capsys):
    path, _ = club
    assert cli.main(["show", "hand/2", "--db", path]) == 0
    out = capsys.readouterr().out
    assert "Game 1, round 2, B (Ann): 5:- flip missed  M missed" in out
    assert "Game 1 over: A (Cat) wins (line)" in out  # the side's archer where named
    assert "Match: A (Cat) wins, games A 1 - B 0, draws 0" in out
    assert out.count("+-----------+-----------+-----------+") == 4 * 4  # a board after each turn
    store = Store(path)
    mid = store.load_match("hand/3")["id"]
    assert cli.main(["show", str(mid), "--db", path]) == 0
    assert "8 events keyed, 1 undone" in capsys.readouterr().out
    assert cli.main(["show", "hand/9", "--db", path]) == 2
    assert cli.main(["show", "x", "--db", path]) == 2


def test_empty_store(tmp_path):
    out = str(tmp_path / "empty.html")
    Store(str(tmp_path / "s.sqlite")).close()  # a store no box has synced to (`report` makes none)
    assert cli.main(["report", "--db", str(tmp_path / "s.sqlite"), "--out", out]) == 0
    html = open(out, encoding="utf-8").read()
    assert "0 matches from 0 boxes" in html and "No box has synced yet." in html
    with browser() as c:
        c.open("file://" + out)
        c.settle(0.3)
        assert c.problems == []
