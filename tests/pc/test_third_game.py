"""Games are pluggable: a third game, Noughts and Crosses shot with one arrow a turn
(tests/games/scorebox_game_xo), is found by the three registries by its package's name on
sys.path, gives the whole surface, and is scored, stored, listed, shown, counted, reported and
printed by the shared code with no file of Scorebox edited for it.

In this process the game is on sys.path only inside the `xo` fixture, which imports Scorebox
afresh there (some modules read the registry once, as they are imported) and puts sys.path
and every module back after; the commands run as the `scorebox` command with PYTHONPATH
naming tests/games, as a club's PC with the game installed runs them."""

import importlib
import json
import os
import subprocess
import sys

import pytest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)
GAMES = os.path.join(TESTS, "games")  # where the game's package is
PKG = "scorebox_game_xo"
ID = "noughts"
BOX = "e6614103aabbccdd"
# The packages imported afresh with the game on sys.path: Scorebox's, the box's, the game's.
FRESH = ("scorebox", "scorebox_core", "box", PKG)

X_WINS = """\
options: game=noughts
archers: X=Ann O=Bob
X: 5
O: 1
X: -
O: 5
X: 3
O: 9
X: 8
undo
X: 7
"""
MISS, UNDO = 128, 256
X_WINS_LOG = [5, 1, MISS, 5, 3, 9, 8, UNDO, 7]  # O's 5 hits X's square: marks nothing
DRAW_LOG = [5, 1, 9, 3, 2, 8, 4, 6, 7]


def _fresh(name):
    return any(name == p or name.startswith(p + ".") for p in FRESH)


@pytest.fixture
def xo():
    """The game's core surface, tests/games on sys.path; sys.path and the modules (the
    registries' caches with them) as they were afterwards."""
    path, modules = list(sys.path), dict(sys.modules)
    sys.path.insert(0, GAMES)
    for name in [m for m in sys.modules if _fresh(m)]:
        del sys.modules[name]
    try:
        from scorebox_core import games

        yield games.get(ID)
    finally:
        sys.path[:] = path
        for name in [m for m in sys.modules if _fresh(m)]:
            del sys.modules[name]
        sys.modules.update(modules)


def env():
    """The environment of a `scorebox` command with the game installed."""
    e = dict(os.environ)
    paths = [GAMES, os.path.join(ROOT, "host_tools"), os.path.join(ROOT, "firmware")]
    e["PYTHONPATH"] = os.pathsep.join(paths + [p for p in e.get("PYTHONPATH", "").split(os.pathsep) if p])
    return e


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    r = subprocess.run([exe, *args], capture_output=True, text=True, timeout=300, env=env(), cwd=ROOT)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def store_of(path, log=X_WINS_LOG):
    """A store of both built-in games (tests/support/bothstore.py) and one noughts game
    from a box of its own; returns (path, the game's store id)."""
    from bothstore import both_games
    from storehelp import add_match

    from scorebox.store.access import open_store
    from scorebox_core.match import header
    from scorebox_core.sides import Face

    both_games(path)
    g = importlib.import_module("scorebox_game_xo.core.rules")
    h = header(g.options(), (("Ann",), ("Bob",)), (18, 18), "m", (70, 70), Face(), ID)
    h["clock"] = 1790200000
    s = open_store(path)
    try:
        assert add_match(s, BOX, 1, h, log) is True
        (row,) = [r for r in s.matches() if r["game"] == ID]
        return path, row["id"]
    finally:
        s.close()


# --- the registries ---------------------------------------------------------------------------
def test_the_three_registries_find_the_game(xo):
    from box import games as box_games
    from scorebox.games import registry as pc_games
    from scorebox_core import games

    assert xo.__name__ == PKG + ".core.game" and xo.NAME == "Noughts and Crosses" and xo.CODE == "NAC"
    assert ID in [g.ID for g in games.every()] and games.every()[-1] is xo and games.of({"game": ID}) is xo
    assert [g.ID for g in games.every()[:2]] == [gid for gid, _ in games.GAMES]  # the built-in ones first
    assert box_games.of(xo).__name__ == PKG + ".box" and pc_games.of(xo).__name__ == PKG + ".pc.game"
    assert box_games.of(xo).PLAY == PKG + ".box.play"
    assert pc_games.part(xo, "REPORT").__name__ == PKG + ".pc.report"
    assert os.path.join(GAMES, PKG, "pc", "templates") in pc_games.template_folders()


def test_without_it_on_the_path_no_registry_knows_it():
    from scorebox_core import games

    if GAMES in sys.path:
        pytest.skip("tests/games is on this process's path")

    assert ID not in [g.ID for g in games.every()] and PKG not in sys.modules
    with pytest.raises(ValueError):
        games.get(ID)


def registry_tests():
    """tests/pc/test_registry.py as a module of its own, imported with the game on the path
    (the one pytest collected holds the registry it was imported with)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("test_registry_xo", os.path.join(TESTS, "pc", "test_registry.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_it_gives_the_whole_surface(xo):
    """test_registry's checks, for this game: every name of each runtime's surface, each module
    it names with the functions shared code calls, answers as every game answers; its id, name,
    code and presets its own. Its sides are X and O, Try-Tac-Toe's letters too: games may share
    them (the store takes every game's letters from the registry, store/queries.py)."""
    from scorebox_core import games

    reg = registry_tests()
    reg.check_whole_surface(xo)
    reg.test_every_game_answers_alike(ID)
    every = games.every()
    for attr in ("ID", "NAME", "CODE"):
        assert [getattr(g, attr) for g in every].count(getattr(xo, attr)) == 1, attr
    presets = [p for g in every for p in g.PRESETS]
    assert len(set(presets)) == len(presets)


# --- the core ---------------------------------------------------------------------------------
def test_a_scripted_game_through_the_core(xo):
    """The script, the rules' replay of the events it keyed, the result, the snapshot and
    the store's rows all tell the same game: X wins along 3-5-7."""
    from scorebox_core import games
    from scorebox_core.match import result

    script, rules, snapshot, store = (games.part(xo, n) for n in ("SCRIPT", "RULES", "SNAPSHOT", "STORE"))
    lines = X_WINS.splitlines()
    assert script.is_script(lines) and not script.is_script(lines[1:])  # its options line says so
    g = script.read_lines(lines)
    assert g.log == X_WINS_LOG and g.archers == (("Ann",), ("Bob",))
    again = rules.replay(g.log, rules.options({}), g.archers)
    assert bytes(again.marks) == bytes(g.marks) == bytes([2, 0, 1, 0, 1, 0, 1, 0, 2])
    assert g.line() == (2, 4, 6) and g.winner() == 0 and g.over() and g.mover() is None
    assert result(g) == rules.result(g) == {"winner": "X", "squares": [3, 2], "arrows": 7}
    assert g.why_not(5) == "the game is over" and g.why_not(UNDO) is None
    snap = json.loads(json.dumps(snapshot.snapshot(g)))
    assert snap["squares"] == ["O", None, "X", None, "X", None, "X", None, "O"] and snap["line"] == [3, 5, 7]
    assert snap["winner"] == "X" and snap["next"] is None and snap["arrows"] == 7
    assert store.rows(g) == ("XO", ("X", 1, 0, 0, 1), []) and store.shots(g.log) == 7


def test_a_hit_on_a_marked_square_marks_nothing_and_undo_takes_back_only_its_own():
    """Undo of a hit on a square that was marked already leaves the mark; undo of the hit
    that marked it clears it."""
    sys.path.insert(0, GAMES)
    try:
        from scorebox_game_xo.core.rules import Game

        g = Game.replay([5, 5])  # X marks 5, O hits it
        assert list(g.marks) == [0, 0, 0, 0, 1, 0, 0, 0, 0] and g.mover() == 0
        g.apply(UNDO)
        assert g.marks[4] == 1 and g.mover() == 1
        g.apply(UNDO)
        assert not any(g.marks) and g.why_not(UNDO) == "nothing to undo"
        assert g.why_not(0) == "unknown event 0" and g.why_not(10) == "unknown event 10"
    finally:
        sys.path.remove(GAMES)
        for name in [m for m in sys.modules if m.startswith(PKG)]:
            del sys.modules[name]


def test_nine_squares_and_no_row_is_a_draw(xo):
    from scorebox_core import games

    rules = games.part(xo, "RULES")
    g = rules.replay(DRAW_LOG)
    assert g.winner() == 2 and rules.result(g)["winner"] == "draw"
    assert games.part(xo, "STORE").rows(g) == ("XO", ("draw", 0, 0, 1, 1), [])
    assert rules.replay(DRAW_LOG[:-1]).winner() is None


def test_a_script_of_the_game_is_replayed_by_its_rules(xo, tmp_path):
    """`scorebox replay`: the registry gives a script to the game its options line names."""
    from scorebox_core.script import game_of

    (tmp_path / "x.txt").write_text(X_WINS)
    assert game_of(X_WINS.splitlines()) is xo
    r = scorebox("replay", str(tmp_path / "x.txt"))
    assert r.returncode == 0 and " X | 8 | O" in r.stdout and "X wins" in r.stdout, r.stderr
    r = scorebox("replay", str(tmp_path / "x.txt"), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["winner"] == "X", r.stderr


# --- the commands ---------------------------------------------------------------------------
def test_the_commands_that_read_a_match_take_it(xo, tmp_path):
    """matches, show, stats, report, face, export and import, as the `scorebox` command, on a
    store of the three games (replay reads a script: below)."""
    db, mid = store_of(str(tmp_path / "club.sqlite"))
    r = scorebox("matches", "--db", db)
    (line,) = [ln for ln in r.stdout.splitlines() if " NAC " in ln]
    assert r.returncode == 0 and "Ann" in line and "Bob" in line and "X wins 3-2" in line, r.stdout
    r = scorebox("matches", "--json", "--db", db)
    (m,) = [m for m in json.loads(r.stdout) if m["game"] == ID]
    assert m["winner"] == "X" and m["finished"] == 1 and m["side_a"] == "Ann" and m["side_b"] == "Bob"
    assert m["arrows"] == 7 and line.split()[-2:] == ["NAC", "7"]  # its STORE's shots()

    r = scorebox("show", str(mid), "--db", db)
    assert r.returncode == 0 and "7. X (Ann): marks 7" in r.stdout and "4. O (Bob): 5, marked already" in r.stdout

    r = scorebox("stats", "--db", db)
    assert r.returncode == 0 and "Noughts and Crosses" in r.stdout, r.stderr
    r = scorebox("stats", "--nac", "--json", "--db", db)
    got = json.loads(r.stdout)
    assert got["Ann"]["won"] == 1 and got["Bob"]["lost"] == 1 and got["Ann"]["marked"] == 3

    out = str(tmp_path / "report.html")
    r = scorebox("report", "--out", out, "--db", db)
    assert r.returncode == 0, r.stderr
    html = open(out, encoding="utf-8").read()
    assert '<td class="game">Noughts and Crosses</td>' in html and '"g":"nac"' in html
    assert 'GAMES["nac"]' in html  # its replay script, from its own templates folder

    svg = str(tmp_path / "face" / "nac.svg")
    r = scorebox("face", "noughts", "--size", "200", "--no-pdf", "--out", svg)
    assert r.returncode == 0, r.stderr
    assert 'id="square-9"' in open(svg, encoding="utf-8").read()

    r = scorebox("export", "--format", "json", "--out", str(tmp_path / "json"), "--db", db)
    assert r.returncode == 0, r.stderr
    other = str(tmp_path / "other.sqlite")
    r = scorebox("import", str(tmp_path / "json"), "--db", other)
    assert r.returncode == 0, r.stderr
    r = scorebox("matches", "--json", "--db", other)
    assert [m["winner"] for m in json.loads(r.stdout) if m["game"] == ID] == ["X"]


def test_matches_counts_its_arrows_from_its_log(xo, tmp_path):
    from scorebox.store.access import open_store

    db, mid = store_of(str(tmp_path / "club.sqlite"))
    s = open_store(db)
    try:
        (m,) = [m for m in s.matches() if m["id"] == mid]
    finally:
        s.close()
    assert m[xo.SHOTS] == 7  # its STORE's shots(): the arrows in effect, undo taken back


def test_the_report_has_its_replay(xo, tmp_path):
    from scorebox.report import html
    from scorebox.store.access import open_store

    db, mid = store_of(str(tmp_path / "club.sqlite"))
    s = open_store(db)
    try:
        data = html.build(s)
        page = html.render(data)
    finally:
        s.close()
    (e,) = [e for e in data["recent"] if e["g"] == "nac"]
    assert e["id"] == mid and e["res"] == "X wins 3-2" and len(e["fr"]) == 7
    assert e["fr"][-1] == {"s": 0, "a": "Ann", "c": 7, "sc": [3, 2]} and e["fr"][2]["c"] == 0  # X's miss
    assert data["game_names"]["nac"] == "Noughts and Crosses" and "Noughts and Crosses" in page


def test_its_replay_in_chromium(xo, tmp_path):
    """Its replay script draws its board in the page: the squares marked up to a frame."""
    from browser import Chromium, find

    if not find():
        pytest.fail("chromium is not installed: `apt-get install -y chromium` (the Makefile's setup does it)")
    db, _ = store_of(str(tmp_path / "club.sqlite"))
    out = str(tmp_path / "report.html")
    assert scorebox("report", "--out", out, "--db", db).returncode == 0
    marks = (
        "Array.from(document.querySelectorAll('#board rect')).map(function (r) {"
        " var m = /own-(X|O)/.exec(r.getAttribute('class')); return m ? m[1] : '.'; }).join('')"
    )
    with Chromium(1280, 900) as c:
        c.open("file://" + out)
        c.settle(0.5)
        assert c.problems == []
        c.eval("scorebox.pick(scorebox.matches.findIndex(function (m) { return m.g === 'nac'; }))")
        assert c.eval(marks) == "O.X.X.X.O"  # the last frame: X's 3-5-7
        c.eval("scorebox.go(4)")  # X 5, O 1, X's miss, O's hit on X's 5
        assert c.eval(marks) == "O...X...." and "O (Bob) hits 5" in c.eval(
            "document.getElementById('v-turn').textContent"
        )
        assert c.problems == []


# --- the desk -----------------------------------------------------------------------------------
def test_the_desk_lists_and_shows_it(xo, tmp_path):
    from scorebox.web.app import create_app

    db, mid = store_of(str(tmp_path / "club.sqlite"))
    c = create_app(db, workdir=str(tmp_path / "work")).test_client()
    page = c.get("/matches").get_data(as_text=True)
    assert "<td>Noughts and Crosses</td>" in page and "X wins 3-2" in page
    assert '<option value="noughts">Noughts and Crosses</option>' in page
    only = c.get("/matches?game=noughts").get_data(as_text=True)
    assert only.count("<td>Noughts and Crosses</td>") == 1 and "<td>Try-Tac-Toe</td>" not in only
    r = c.get("/matches/%d" % mid)
    shown = r.get_data(as_text=True)
    assert r.status_code == 200 and "(Noughts and Crosses)" in shown and "marks 7" in shown
    assert "Noughts and Crosses" in c.get("/stats").get_data(as_text=True)
    assert "noughts" in c.get("/faces").get_data(as_text=True)
    assert '"g":"nac"' in c.get("/report/view").get_data(as_text=True)
