"""The box's registry of games: what each game of the core's registry (scorebox_core/games)
shows on the box. A game's box part is a package (`box/games/ttb/` for the core's `ttb`,
`scorebox_game_x/box/` in an installed game's own), and the package is its surface (one
module fewer in the Pico's heap): SCREENS (the app's match screens: attribute -> module,
class), PLAY (enter(app, skipped) opens or resumes a match), HISTORY (lines() and
open_result(), the history's detail), SETUP (Setup, the New match screen's rows for its
rule sets, the core's PRESETS) and LET_GO (its modules go when its match is closed:
box/session.py). The menus load only the chosen game's; a match starting lets the other
games' packages go (box/setup.py)."""

from scorebox_core import games


def package(g):
    """The name of the core's game g's box package (not imported)."""
    r = games.root(g)
    return r[:-4] + "box" if r.startswith(games.PREFIX) else "box" + r[13:]


def of(g):
    """The box's surface of the core's game g: its box package."""
    return __import__(package(g), None, None, ("PLAY",))
