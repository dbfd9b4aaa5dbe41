"""The registry of games: the one place that lists them. Each game is a package (ttb/ Tic Tac
BOW, ttt/ Try-Tac-Toe beside this module) whose `game` module gives the same surface
(tests/pc/test_registry.py holds every game to it): shared code asks here for the game of a
match header and names no game. The box (box/games) and the PC (scorebox/games/registry.py) each keep
their own registry of what a game shows there, found from the surface this one gives.

A game installed beside the built-in ones is one top-level package named `scorebox_game_*`
on the import path (a folder of the box's file system, a package on the PC), holding its
core as `core/` (`core/game.py` its surface), its box part as `box/` and its PC part as
`pc/`: found by its name, so that adding one edits no file of Scorebox (the toy third game
of tests/games shows one whole).

Only the asked-for game's modules are imported, and a match starting lets the other games'
go (forget()), so the box holds one game's code during a match."""

import sys

# (the match header's `game`, the game's package). The first is the game of a header
# without `game`: every header written before there was a second game.
GAMES = (("tictacbow", "ttb"), ("try-tac-toe", "ttt"))
PREFIX = "scorebox_game_"  # the name of a game's package installed beside these
_found = None  # type: list | None


def installed():
    """The games installed beside the built-in ones, as (id, the surface's module name), in
    the order of their packages' names (games/found.py). Looked for once: a process gets no
    new games while it runs."""
    global _found
    if _found is None:
        from scorebox_core.games import found

        _found = found.scan(PREFIX)
        drop(found.__name__)
    return _found


def get(game):
    """The surface (its `game` module) of the game with header id game; ValueError for one
    the registry does not know."""
    for gid, pkg in GAMES:
        if gid == game:
            return __import__("scorebox_core.games." + pkg + ".game", None, None, ("ID",))
    for gid, mod in installed():  # looked for only when a game is not built in
        if gid == game:
            return __import__(mod, None, None, ("ID",))
    raise ValueError("unknown game %r" % (game,))


def of(h):
    """The surface of the game a match header's events follow."""
    return get(h.get("game", GAMES[0][0]))


def every():
    return [get(gid) for gid, _ in GAMES + tuple(installed())]


def part(g, name):
    """The module game g's surface names as name (RULES, SCRIPT, SNAPSHOT ...), imported."""
    return __import__(getattr(g, name), None, None, ("_",))


def root(g):
    """The core package of game g: `scorebox_core.games.ttb` (the box's and the PC's part of
    a built-in game have the same last name), `scorebox_game_x.core` (beside it: `box`, `pc`)."""
    return g.__name__[:-5]


def drop(name):
    """Let module or package name go, its modules too (each goes once nothing refers to it:
    its parent package's attribute neither)."""
    for key in list(sys.modules):
        if key == name or key.startswith(name + "."):
            del sys.modules[key]
    up, last = name.rsplit(".", 1)
    parent = sys.modules.get(up)
    if parent is not None and last in parent.__dict__:
        delattr(parent, last)


def forget(ids):
    """Let the core modules of the games with these ids go (the box: a match starting holds
    only its own game's)."""
    for gid in ids:
        drop(root(get(gid)))
