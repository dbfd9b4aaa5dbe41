"""Try-Tac-Toe games in the report, rendered in headless Chromium: listed with their game
beside Tic Tac BOW matches, replayed move by move as SVG triangles against the rules core
(TTT-2, TTT-3, TTT-6), and the archers' shapes made and blocked; `scorebox stats` counts
them apart from Tic Tac BOW's figures."""

import json
import re
import struct

import pytest
from browser import Chromium, find
from handmatches import fill
from storehelp import add_match
from ttt_history import full_game, ttt_header

from scorebox import cli
from scorebox.games.ttt import stats as ttt_stats
from scorebox.games.ttt.show import moves
from scorebox.store.sqlite import Store
from scorebox_core.games.ttt.board import SHAPES, shape_of
from scorebox_core.games.ttt.rules import MISS, NEXT_MATCH

BOX = "e6614103e7a1b2c3"


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tttreport")
    path = str(folder / "club.sqlite")
    store = fill(Store(path))  # Tic Tac BOW matches, by hand
    games = [full_game(3), full_game(11, (("Bo",), ("Ann", "Dee")))]
    for n, g in enumerate(games, 1):
        add_match(store, BOX, n, ttt_header(g, 1900000000 + n), g.log)  # the newest
    store.close()
    out = str(folder / "report.html")
    assert cli.main(["report", "--db", path, "--out", out]) == 0
    return path, out, games


def test_the_games_in_the_page_data(club):
    _, out, games = club
    html = open(out, encoding="utf-8").read()
    data = json.loads(re.search(r'<script type="application/json" id="replays">(.*?)</script>', html, re.S).group(1))
    assert [m["g"] for m in data[:2]] == ["ttt", "ttt"] and all(m["g"] == "ttb" for m in data[2:])
    newest, g = data[0], games[1]
    assert (newest["A"], newest["B"]) == ("Bo", "Ann, Dee")
    x, o = g.score()
    assert newest["res"] == "%s %d-%d" % ({0: "X wins", 1: "O wins"}.get(g.winner(), "draw"), x, o)  # TTT-6
    assert newest["ms"] == [[m.score(0), m.score(1)] for m in g.matches]
    moved = [e for e in g.events if e != NEXT_MATCH]
    assert [f["c"] or MISS for f in newest["fr"]] == moved
    assert [f["a"] for f in newest["fr"][:4]] == ["Bo", "Ann", "Bo", "Dee"]  # TTT-2: teams rotate
    assert newest["fr"][len(g.matches[0].moves)]["s"] == 1  # TTT-6: O starts match 2
    made = sum(len(f.get("k", ())) for f in newest["fr"])
    assert made == sum(sum(m.tally[0]) + sum(m.tally[1]) for m in g.matches)  # TTT-3


def test_in_chromium(club, tmp_path):
    path, out, games = club
    if not find():
        pytest.fail("chromium is not installed: `apt-get install -y chromium` (the Makefile's setup does it)")
    g = games[0]
    with Chromium(1280, 900) as c:
        c.open("file://" + out)
        c.settle(0.5)
        assert c.problems == []
        rows = c.eval(
            "Array.from(document.querySelectorAll('#mlist td.game')).map(function (t) { return t.textContent; })"
        )
        assert rows[:2] == ["Try-Tac-Toe", "Try-Tac-Toe"] and set(rows[2:]) == {"Tic Tac BOW"}
        c.eval("scorebox.pick(1)")  # the older game: Ann, Cy v Bo
        assert c.eval("document.querySelectorAll('#board polygon').length") == 74
        marks = (
            "Array.from(document.querySelectorAll('#board polygon')).map(function (p) {"
            " var m = /own-(X|O)/.exec(p.getAttribute('class')); return m ? m[1] : '.'; }).join('')"
        )
        first = len(g.matches[0].moves)
        # The end of match 1 then of match 2, against the rules core's boards.
        for frame, m in ((first, g.matches[0]), (first + len(g.matches[1].moves), g.matches[1])):
            c.eval("scorebox.go(%d)" % frame)
            want = "".join("." if m.owner(i) is None else "XO"[m.owner(i)] for i in range(74))
            assert c.eval(marks) == want, frame
        turn = c.eval("document.getElementById('v-turn').textContent")
        assert "Match 2 over (grid full)" in turn and "game " in turn
        # A move that made a shape: its triangles drawn gold.
        k, mv = next((k, mv) for k, (_, mv) in enumerate(moves(ttt_header(g), g.log), 1) if mv["made"])
        c.eval("scorebox.go(%d)" % k)
        assert c.eval("document.querySelectorAll('#board polygon.made').length") >= 4
        assert SHAPES[shape_of(mv["made"][0])] in c.eval("document.getElementById('v-turn').textContent")
        # A Tic Tac BOW match after: its nine squares again.
        c.eval("scorebox.pick(2)")
        assert c.eval("document.querySelectorAll('#board rect').length") == 9
        c.eval("location.hash = '#archers'")
        c.settle(0.2)
        cells = c.eval(
            "Array.from(document.querySelectorAll('#ttt-archers tbody tr')).map(function (r) {"
            " return Array.from(r.cells).map(function (t) { return t.textContent; }); })"
        )
        c.eval("location.hash = '#matches'; scorebox.pick(0); scorebox.go(40)")
        c.settle(0.2)
        shot = tmp_path / "ttt.png"
        c.screenshot(str(shot))
        assert c.problems == []
    figures = ttt_stats.compute(Store(path))
    assert [r[0] for r in cells] == list(figures) == ["Ann", "Bo", "Cy", "Dee"]
    for r in cells:
        s = figures[r[0]]
        assert [int(v) for v in r[1:]] == [
            s["games"]["played"],
            s["games"]["won"],
            s["games"]["drawn"],
            s["games"]["lost"],
            s["moves"],
            s["misses"],
            s["made"]["triangle"],
            s["made"]["bar"],
            s["made"]["chevron"],
            s["shapes"],
            s["blocked"],
        ]
    png = shot.read_bytes()
    assert struct.unpack(">II", png[16:24]) == (1280, 900)


def test_made_and_blocked_by_hand(tmp_path):
    """X makes the top-left triangle shape; O's mark in a placement X holds blocks it (TTT-5)."""
    from scorebox_core.games.ttt.board import FIRST, N, placement, through
    from scorebox_core.games.ttt.rules import Game, Options

    g = Game(Options(), (("Ann",), ("Bo",)))
    tri = placement(FIRST[0])  # a triangle shape's four cells
    other = next(i for i in range(N) if i not in tri and not set(through(i)) & set(through(tri[0])))
    for x in tri[:3]:
        g.apply(x + 1)
        g.apply(other + 1 if not g.match.marks[other] else MISS)
    g.apply(tri[3] + 1)  # X completes it (TTT-3)
    store = Store(str(tmp_path / "s.sqlite"))
    add_match(store, BOX, 1, ttt_header(g), g.log)
    s = ttt_stats.compute(store)
    assert s["Ann"]["made"]["triangle"] >= 1 and s["Ann"]["moves"] == 4 and s["Bo"]["misses"] == 2
    # O's one mark blocked every X placement through `other` holding an X mark: none here.
    assert s["Bo"]["blocked"] == 0
    # Now O marks a cell next to X's: it blocks the placements holding X's marks and no O.
    g2 = Game(Options(), (("Ann",), ("Bo",)))
    g2.apply(tri[0] + 1)
    g2.apply(tri[1] + 1)
    add_match(store, BOX, 2, ttt_header(g2), g2.log)
    want = sum(1 for p in through(tri[1]) if tri[0] in placement(p))
    assert ttt_stats.compute(store)["Bo"]["blocked"] == want > 0
    assert "Try-Tac-Toe" in "\n".join(ttt_stats.lines(ttt_stats.compute(store)))
    assert cli.main(["stats", "--db", store.path, "--ttt", "--json"]) == 0
