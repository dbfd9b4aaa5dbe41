"""Noughts and Crosses in the HTML report (report/html.py asks its REPORT): a game's entry,
a frame per arrow, drawn by its script (templates/nac_replay.js.j2)."""

from scorebox.games.listing import entry as listed
from scorebox_core.match import from_header
from scorebox_game_xo.core.game import CODE, SIDES
from scorebox_game_xo.core.rules import MISS
from scorebox_game_xo.pc.show import arrows

RENDER = {}  # no names of its own for the page's template
SCRIPT = "nac_replay.js.j2"
CARD = None  # its archers' figures are its STATS' lines, not a card
DATA = None  # its script reads only the matches


def entry(m, h):
    _, archers, _ = from_header(h)
    frames = []
    for g, a in arrows(h, m["log"]):
        frames.append({"s": a["side"], "a": a["player"], "c": 0 if a["event"] == MISS else a["event"], "sc": g.score()})
    e = listed(m, CODE.lower(), archers, SIDES)
    e.update(opt="Noughts and Crosses", fr=frames)
    return e


def page(store, recent):
    return {}
