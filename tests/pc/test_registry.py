"""The game registry (scorebox_core/games, issue 23 item 1): shared code asks it for a
game and names none; every registered game gives the whole surface; the box holds only the
chosen game's modules during a match.

The shared modules are read from the tree: every module of the firmware and of the PC
package but the registry, the games' packages and the modules a game's surface names as its
own (its screens, history, setup, terminal board, show). A module names a game when it
imports a game's package or one of those modules, holds a game's id, name, code or package
as a string, or has a name made of one (`ttt_stats`, `args.ttt`, `TRYTACTOE`)."""

import ast
import importlib
import importlib.util
import json
import os

import mpy
import pytest

from box import games as box_games
from scorebox.device import mpy_build
from scorebox.games import registry as pc_games
from scorebox_core import games
from scorebox_core.script import game_of as script_game

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
PC = os.path.join(ROOT, "host_tools")
CORE = os.path.join(FIRMWARE, "scorebox_core")

# Shared modules that still name a game, each with why: take one off once it asks the
# registry.
PENDING = {}

# The modules each runtime's surface names (WEAR and STATS may be None: a game whose face does
# not wear, whose figures are the store's arrows tables).
CORE_MODULES = ("RULES", "SCRIPT", "SNAPSHOT", "STORE")
BOX_MODULES = ("PLAY", "HISTORY", "SETUP")
PC_MODULES = ("BOARD", "SHOW", "REPORT", "FACE", "WEAR", "STATS")
OPTIONAL = ("WEAR", "STATS")


def _rel(path):
    return os.path.relpath(path, ROOT).replace(os.sep, "/")


def _module_path(name):
    """The file of a firmware or PC module named name (box.games.ttb.play, scorebox.games.ttb.board)."""
    top = FIRMWARE if not name.startswith("scorebox.") else PC
    return _rel(os.path.join(top, *name.split("."))) + ".py"


def _last(g):
    return games.root(g).rsplit(".", 1)[1]


def game_packages(g):
    """A built-in game's own package in each runtime."""
    last = _last(g)
    return ("scorebox_core.games." + last, "box.games." + last, "scorebox.games." + last)


def game_dirs(g):
    return tuple(_module_path(p)[: -len(".py")] + "/" for p in game_packages(g))


def games_modules(g):
    """The modules a game's surfaces name as its own, in the three runtimes."""
    b, p = box_games.of(g), pc_games.of(g)
    names = {getattr(g, a) for a in CORE_MODULES} | {getattr(b, a) for a in BOX_MODULES}
    names |= {mod for mod, _ in b.SCREENS.values()} | {getattr(p, a) for a in PC_MODULES}
    return sorted(names - {None})


REGISTRY = _rel(os.path.join(CORE, "games", "__init__.py"))  # the one place that lists them


def shared_modules():
    """Every .py of the firmware and the PC package that is not a game's or the registry."""
    dirs = tuple(d for g in games.every() for d in game_dirs(g))
    out = []
    for top in (FIRMWARE, os.path.join(PC, "scorebox")):
        for d, subdirs, names in os.walk(top):
            subdirs[:] = sorted(x for x in subdirs if x != "__pycache__")
            for n in sorted(names):
                rel = _rel(os.path.join(d, n))
                if n.endswith(".py") and rel != REGISTRY and not rel.startswith(dirs):
                    out.append(rel)
    return out


def _words():
    """What names a game: its strings (id, name, code, package) and import targets."""
    strings, parts, modules = set(), set(), set()
    for g in games.every():
        pkg = _last(g)
        strings |= {g.ID.casefold(), g.NAME.casefold(), g.CODE.casefold(), pkg}
        parts |= {pkg, "".join(c for c in g.ID if c.isalnum())}
        modules |= set(game_packages(g)) | set(games_modules(g))
    return strings, parts, modules


def _docstrings(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def naming(source):
    """How the source names a game: a list of (line, what), empty when it names none."""
    strings, parts, modules = _words()
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []

    def name(line, n):
        if {p.casefold() for p in n.split("_")} & parts:
            found.append((line, n))

    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            for a in node.names:
                if any(a.name == m or a.name.startswith(m + ".") for m in modules):
                    found.append((line, "import " + a.name))
                name(line, a.asname or "")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            for a in node.names:
                full = base + "." + a.name
                if any(t == m or t.startswith(m + ".") for m in modules for t in (base, full)):
                    found.append((line, "from %s import %s" % (base, a.name)))
                name(line, a.asname or a.name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if node.value.casefold() in strings:
                found.append((line, repr(node.value)))
        elif isinstance(node, ast.Name):
            name(line, node.id)
        elif isinstance(node, ast.Attribute):
            name(line, node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            name(line, node.name)
        elif isinstance(node, ast.arg):
            name(line, node.arg)
    return found


def test_the_walk_finds_the_shared_modules_and_the_games_own():
    shared = shared_modules()
    assert "firmware/box/app.py" in shared and "host_tools/scorebox/cli.py" in shared
    assert "firmware/scorebox_core/match.py" in shared and "firmware/box/setup.py" in shared
    assert "firmware/box/games/__init__.py" in shared and "host_tools/scorebox/games/registry.py" in shared
    assert "firmware/box/games/ttb/play.py" not in shared and "firmware/box/games/ttt/play.py" not in shared
    assert not any(p.startswith("firmware/scorebox_core/games/ttb/") for p in shared)
    assert not any(p.startswith("host_tools/scorebox/games/ttt/") for p in shared)
    assert REGISTRY not in shared
    for g in games.every():
        for rel in [_module_path(m) for m in games_modules(g)]:
            assert os.path.isfile(os.path.join(ROOT, rel)), rel
            assert rel.startswith(game_dirs(g)), "%s: outside its game's packages" % rel


def test_the_check_sees_each_way_of_naming_a_game():
    named = [
        "from scorebox_core.games.ttt.rules import Game",
        "import scorebox_core.games.ttb.rules",
        "from box.games.ttt import play",
        "from scorebox.games.ttt import board",
        "x = 'try-tac-toe'",
        "x = 'Tic Tac BOW'",
        "if args.ttt: pass",
        "TRYTACTOE = 1",
        "def ttb_entry(): pass",
        "code = 'TTT'",
    ]
    for source in named:
        assert naming(source), source
    plain = ['"""Tic Tac BOW and Try-Tac-Toe, in a docstring."""', "# ttt in a comment", "x = games.of(h).ID"]
    for source in plain:
        assert not naming(source), source


def _outside_the_core(tree):
    """The imports and dotted strings of a core module that name a module outside the core."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] in ("box", "boards", "scorebox")]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("box", "boards", "scorebox"):
            out.append(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.startswith(("box.", "boards.", "scorebox.")) and " " not in node.value:
                out.append(node.value)
    return out


def test_the_core_names_no_module_outside_itself():
    """scorebox_core is shared by the box and the PC: it imports nothing of either, and no
    game's core surface names a box or PC module as a string (each runtime's registry finds
    its own part of a game: box/games, scorebox/games/registry.py)."""
    bad = {}
    for d, subdirs, names in os.walk(CORE):
        subdirs[:] = [x for x in subdirs if x != "__pycache__"]
        for n in names:
            if n.endswith(".py"):
                with open(os.path.join(d, n), encoding="utf-8") as f:
                    found = _outside_the_core(ast.parse(f.read()))
                if found:
                    bad[_rel(os.path.join(d, n))] = found
    assert not bad
    assert _outside_the_core(ast.parse("PLAY = 'box.games.ttb.play'\nfrom scorebox.report import show"))


def test_no_shared_module_names_a_game():
    bad = {}
    for rel in shared_modules():
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            found = naming(f.read())
        if found and rel not in PENDING:
            bad[rel] = found[:5]
    assert not bad, "shared modules that name a game (ask scorebox_core/games): %r" % bad


# --- the surface ---------------------------------------------------------------------------------
# What each runtime's surface gives (its modules as dotted names), and what shared code calls
# in the modules a surface names.
VALUES = ("ID", "NAME", "CODE", "SHOTS", "SCORE", "SIDES", "PRESETS") + CORE_MODULES
BOX_VALUES = ("SCREENS",) + BOX_MODULES
PC_VALUES = tuple(a for a in PC_MODULES if a not in OPTIONAL)
CALLS = {
    "RULES": ("options", "replay", "result", "finished"),
    "SCRIPT": ("is_script", "read_lines"),
    "SNAPSHOT": ("snapshot",),
    "STORE": ("rows", "shots"),
    "PLAY": ("enter",),
    "HISTORY": ("lines", "open_result"),
    "SETUP": ("Setup",),
    "BOARD": ("replay_text",),
    "SHOW": ("show_lines",),
    "REPORT": ("entry", "page"),
    "FACE": ("draw",),
    "WEAR": ("face_log",),
    "STATS": ("compute", "lines"),
}
EMPTY_SCRIPT = ["# nothing shot yet"]


def _source(name):
    with open(importlib.util.find_spec(name).origin, encoding="utf-8") as f:
        return f.read()


def check_whole_surface(g):
    """Game g (its core surface) gives the whole surface in the three runtimes: every value,
    the functions shared code calls in each module named, the box's screens' classes; the
    core's surface names nothing of the box's or the PC's. Used for any game, an installed
    one too (tests/pc/test_third_game.py)."""
    b, p = box_games.of(g), pc_games.of(g)
    for surface, attrs in ((g, VALUES), (b, BOX_VALUES), (p, PC_VALUES)):
        for attr in attrs:
            assert getattr(surface, attr, None), "%s: no %s in %s" % (g.ID, attr, surface.__name__)
    assert not [a for a in BOX_VALUES + PC_MODULES + ("LET_GO",) if hasattr(g, a)], "the core's surface names them"
    assert b.LET_GO in (True, False)
    assert len(g.SIDES) == 2 and "play" in b.SCREENS
    for attr in OPTIONAL:
        assert hasattr(p, attr), "%s: no %s (None for none)" % (g.ID, attr)
    for attr, fns in CALLS.items():
        surface = g if attr in CORE_MODULES else b if attr in BOX_MODULES else p
        if getattr(surface, attr) is None:
            continue
        tree = ast.parse(_source(getattr(surface, attr)))
        defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        assert set(fns) <= defined, "%s: %s lacks %s" % (g.ID, getattr(surface, attr), set(fns) - defined)
    for mod, cls in b.SCREENS.values():
        assert "class %s(" % cls in _source(mod), (mod, cls)
    for name in [getattr(g, a) for a in CORE_MODULES] + [getattr(p, a) for a in PC_MODULES]:
        if name is not None:
            importlib.import_module(name)  # what the PC loads, loads


def test_the_registry_knows_each_game_once():
    every = games.every()
    assert len(every) >= 2
    for attr in ("ID", "NAME", "CODE"):  # the sides' letters may be shared (the store asks the registry)
        values = [getattr(g, attr) for g in every]
        assert len(set(values)) == len(values), attr
    presets = [p for g in every for p in g.PRESETS]
    assert len(set(presets)) == len(presets)
    assert games.of({}) is every[0]  # a header without `game`: the first's
    with pytest.raises(ValueError):
        games.get("chess")


@pytest.mark.parametrize("gid", [g[0] for g in games.GAMES])
def test_every_game_gives_the_whole_surface(gid):
    check_whole_surface(games.get(gid))


@pytest.mark.parametrize("gid", [g[0] for g in games.GAMES])
def test_every_game_answers_alike(gid):
    """The same names for the same things: options round trip, a match folded from no events
    has the shared fields, its result record is told by score(), its snapshot is JSON, a
    script names its archers alike."""
    g = games.get(gid)
    rules = games.part(g, "RULES")
    opts = rules.options()
    assert rules.options(opts.to_dict()).to_dict() == opts.to_dict()
    m = rules.replay([], opts, ((g.SIDES[0],), (g.SIDES[1],)))
    assert m.GAME == gid and m.opts is opts and m.log == m.events == m.skipped == []
    assert m.archers == ((g.SIDES[0],), (g.SIDES[1],)) and not m.over()
    r = rules.result(m)
    assert r["winner"] is None and len(r[g.SCORE]) == 2
    json.dumps(games.part(g, "SNAPSHOT").snapshot(m))
    sides, columns, rows = games.part(g, "STORE").rows(m)
    assert sides == g.SIDES and len(columns) == 5 and columns[0] is None and columns[-1] == 0
    got = games.part(g, "SCRIPT").read_lines(["archers: %s=Ann %s=Bob" % tuple(g.SIDES)] + EMPTY_SCRIPT)
    assert got.archers == (("Ann",), ("Bob",)) and got.GAME == gid
    first = games.every()[0]
    if g is not first:  # a script says its game; one that says none is the first's
        assert script_game(["options: game=" + gid]) is g
    assert script_game(EMPTY_SCRIPT) is first


# --- the box ----------------------------------------------------------------------------------
@pytest.mark.micropython
def test_the_box_holds_only_the_chosen_games_modules(tmp_path):
    """On the virtual Pico (.mpy, the Pico's heap): during a Tic Tac BOW match no module of
    Try-Tac-Toe is loaded and the other way round, nor once each is closed; none at home
    after a boot. (A closed match's own game may stay until a match of another game starts:
    box/session.py close says why.)"""
    r = mpy.run(
        ["tests/mpy/app_registry.py", str(tmp_path / "flash.img")], heapsize=mpy.PICO_HEAP, paths=(mpy_build.build(),)
    )
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["ttb_screen"] == got["ttt_screen"] == "Play"
    assert got["journal"] == [{"abandoned": True}, {"abandoned": True}]

    def of(mods, gid):
        pkgs = game_packages(games.get(gid))
        return [m for m in mods if any(m == p or m.startswith(p + ".") for p in pkgs)]

    ttb, ttt = (g[0] for g in games.GAMES)
    assert of(got["ttb_match"], ttb) and not of(got["ttb_match"], ttt)
    assert of(got["ttt_match"], ttt) and not of(got["ttt_match"], ttb)
    assert not of(got["home"], ttb) and not of(got["home"], ttt)
    assert not of(got["ttb_closed"], ttt) and not of(got["ttt_closed"], ttb)


# --- the store ---------------------------------------------------------------------------------
def test_store_rows_are_what_the_store_writes():
    """A game's STORE rows(match) gives what store/checks.py Checked writes today (its sides,
    the result's columns, the games' rows), so that the store can ask the game instead."""
    from scorebox.store import checks
    from scorebox_core.match import header
    from scorebox_core.sides import Face

    ttb, ttt = (games.get(g[0]) for g in games.GAMES)
    from scorebox_core.games.ttb.rules import NEW_GAME, hit, miss

    logs = {
        ttb.ID: [
            hit(1, 3),
            hit(2, 3),
            hit(3, 3),
            miss(),
            hit(5, 2),
            hit(5, 3),
            hit(1, 3),
            hit(1, 2),
            NEW_GAME,
            hit(9, 1),
        ],
        ttt.ID: [12, 13, 128, 256, 14],
    }
    for g in (ttb, ttt):
        rules = games.part(g, "RULES")
        opts = rules.options()
        h = header(opts, (("Ann",), ("Bob",)), (18, 18), "m", (70, 70), Face(), g.ID)
        m = rules.replay(logs[g.ID], opts, (("Ann",), ("Bob",)), Face(), lenient=True)
        c = checks.check(1, h, logs[g.ID], from_box=True)
        assert not isinstance(c, Exception), c
        sides, columns, rows = games.part(g, "STORE").rows(m)
        assert tuple(c.sides) == tuple(sides) and c.row[6:] == columns and c.games == rows, g.ID
