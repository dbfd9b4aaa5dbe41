"""The PC's registry of games: what each game of the core's registry (scorebox_core/games)
shows on the PC, its surface: `scorebox/games/ttb/game.py` for a built-in game of the core's
`ttb`, `scorebox_game_x/pc/game.py` in an installed game's own package. Each surface gives
BOARD (replay_text(match), the terminal board of `scorebox replay`), SHOW (show_lines(stored
match, its header), `scorebox show`), REPORT (entry(stored match, header), the HTML report's
entry and replay of a match; page(store, recent), its figures on the report's page; RENDER,
SCRIPT, CARD, DATA: its templates), FACE (draw(size), the printable face of `scorebox
face`), WEAR (face_log(store), the wear of its paper faces; None for a face that does not
wear) and STATS (compute(store) and lines(figures), its own figures; None: report/stats.py
reads its figures from the store's arrows tables). A game's templates are in its package's
`templates/` folder."""

import importlib
import os

from scorebox_core import games


def of(g):
    """The PC's surface of the core's game g."""
    r = games.root(g)
    return importlib.import_module((r[:-4] + "pc" if r.startswith(games.PREFIX) else "scorebox" + r[13:]) + ".game")


def part(g, name):
    """The module the PC's surface of game g names as name, imported (None for none)."""
    mod = getattr(of(g), name)
    return None if mod is None else importlib.import_module(mod)


def template_folders():
    """Every game's templates folder (the report's and the desk's loaders look in them)."""
    out = []
    for g in games.every():
        d = os.path.join(os.path.dirname(of(g).__file__), "templates")
        if os.path.isdir(d):
            out.append(d)
    return out
