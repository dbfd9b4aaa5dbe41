"""The registry of games: the one place that lists them. Each game is a package beside this
module (ttb/ Tic Tac BOW, ttt/ Try-Tac-Toe) whose `game` module gives the same surface
(tests/pc/test_registry.py holds every game to it): shared code asks here for the game of a
match header and names no game. A third game adds its package and one line to
GAMES (ARCHITECTURE.md sketches one).

Only the asked-for game's modules are imported, and a match starting lets the other games'
go (forget()), so the box holds one game's code during a match."""

import sys

# (the match header's `game`, the game's package). The first is the game of a header
# without `game`: every header written before there was a second game.
GAMES = (("tictacbow", "ttb"), ("try-tac-toe", "ttt"))


def get(game):
    """The surface (its `game` module) of the game with header id game; ValueError for one
    the registry does not know."""
    for gid, pkg in GAMES:
        if gid == game:
            return __import__("scorebox_core." + pkg + ".game", None, None, ("game",))
    raise ValueError("unknown game %r" % (game,))


def of(h):
    """The surface of the game a match header's events follow."""
    return get(h.get("game", GAMES[0][0]))


def every():
    return [get(gid) for gid, _ in GAMES]


def part(g, name):
    """The module game g's surface names as name (RULES, SCRIPT, SNAPSHOT ...), imported."""
    return __import__(getattr(g, name), None, None, ("_",))


def forget(ids):
    """Let the modules of the games with these ids go, each game's package too (the box:
    a match starting holds only its own game's)."""
    core = sys.modules.get("scorebox_core")
    for gid, pkg in GAMES:
        if gid not in ids:
            continue
        name = "scorebox_core." + pkg
        for key in list(sys.modules):
            if key.startswith(name + "."):
                del sys.modules[key]
        sys.modules.pop(name, None)
        if core is not None and pkg in core.__dict__:
            delattr(core, pkg)
