"""The box's registry of games: what each game of the core's registry (scorebox_core/games)
shows on the box, its surface: `box/games/ttb/game.py` for a built-in game of the core's
`ttb`, `scorebox_game_x/box/game.py` in an installed game's own package. Each surface gives
SCREENS (the app's match screens: attribute -> module, class), PLAY (enter(app, skipped)
opens or resumes a match), HISTORY (lines() and open_result(), the history's detail), SETUP
(Setup, the New match screen's rows), PRESETS (its choices of that screen's rules row) and
LET_GO (its modules go when its match is closed: box/session.py)."""

import sys

from scorebox_core import games


def _package(g):
    name = games.root(g)
    return name + ".box" if name.startswith(games.PREFIX) else "box.games." + name.rsplit(".", 1)[1]


def of(g):
    """The box's surface of the core's game g."""
    return __import__(_package(g) + ".game", None, None, ("PLAY",))


def part(g, name):
    """The module the box's surface of game g names as name (PLAY, HISTORY, SETUP), imported."""
    return __import__(getattr(of(g), name), None, None, ("_",))


def forget(gs):
    """Let the box's modules of the games gs (core surfaces) go, their packages too (a match
    starting holds only its own game's: scorebox_core/games forget)."""
    for g in gs:
        pkg = _package(g)
        for key in list(sys.modules):
            if key == pkg or key.startswith(pkg + "."):
                del sys.modules[key]
        up, last = pkg.rsplit(".", 1)
        parent = sys.modules.get(up)
        if parent is not None and last in parent.__dict__:
            delattr(parent, last)
