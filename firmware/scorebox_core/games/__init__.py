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

import os
import sys

# (the match header's `game`, the game's package). The first is the game of a header
# without `game`: every header written before there was a second game.
GAMES = (("tictacbow", "ttb"), ("try-tac-toe", "ttt"))
PREFIX = "scorebox_game_"  # the name of a game's package installed beside these
_found = None  # type: list | None  # (id, surface module) of the installed games, once looked for


def installed():
    """The packages of the games installed beside the built-in ones, as (id, the surface's
    module name), in the order of their names. Looked for once: a box or a PC process does
    not get new games while it runs."""
    global _found
    if _found is None:
        names = []  # type: list
        for d in sys.path:
            try:
                listed = os.listdir(d or ".")
            except (OSError, TypeError):  # '.frozen', a zip, a folder gone
                continue
            names.extend(n for n in listed if n.startswith(PREFIX) and "." not in n and n not in names)
        _found = []
        for n in sorted(names):
            mod = n + ".core.game"
            _found.append((__import__(mod, None, None, ("ID",)).ID, mod))
    return _found


def _surface(game):
    for gid, pkg in GAMES:
        if gid == game:
            return "scorebox_core.games." + pkg + ".game"
    for gid, mod in installed():
        if gid == game:
            return mod
    return None


def get(game):
    """The surface (its `game` module) of the game with header id game; ValueError for one
    the registry does not know."""
    mod = _surface(game)
    if mod is None:
        raise ValueError("unknown game %r" % (game,))
    return __import__(mod, None, None, ("game",))


def of(h):
    """The surface of the game a match header's events follow."""
    return get(h.get("game", GAMES[0][0]))


def ids():
    return [gid for gid, _ in GAMES] + [gid for gid, _ in installed()]


def every():
    return [get(gid) for gid in ids()]


def part(g, name):
    """The module game g's surface names as name (RULES, SCRIPT, SNAPSHOT ...), imported."""
    return __import__(getattr(g, name), None, None, ("_",))


def root(g):
    """Game g's own package: `scorebox_core.games.ttb` for a built-in one (the runtimes'
    registries keep theirs under the same last name), `scorebox_game_x` for one installed."""
    name = g.__name__
    return name[: -len(".core.game")] if name.startswith(PREFIX) else name[: -len(".game")]


def forget(ids):
    """Let the core modules of the games with these ids go, each game's core package too (the
    box: a match starting holds only its own game's)."""
    for gid in ids:
        name = _surface(gid)
        if name is None:
            continue
        pkg = name[: -len(".game")]
        for key in list(sys.modules):
            if key.startswith(pkg + "."):
                del sys.modules[key]
        sys.modules.pop(pkg, None)
        up, last = pkg.rsplit(".", 1)
        parent = sys.modules.get(up)
        if parent is not None and last in parent.__dict__:
            delattr(parent, last)
