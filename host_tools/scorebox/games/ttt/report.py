"""Try-Tac-Toe in the HTML report (report/html.py asks its surface's REPORT): a game's entry
with a frame per move, the board's geometry the page's script draws, its archers' figures
(docs/reports.md)."""

import math

from scorebox.games.listing import entry as listed
from scorebox.games.ttt import show as ttt_moves
from scorebox.games.ttt import stats as ttt_stats
from scorebox_core.games.ttt import board
from scorebox_core.games.ttt.board import SHAPES, placement, shape_of
from scorebox_core.games.ttt.game import CODE, SIDES
from scorebox_core.games.ttt.rules import MISS
from scorebox_core.match import from_header

RENDER = {}  # the template's names: none of its own
SCRIPT = "ttt_replay.js.j2"  # its replay on the page: draw and describe a frame (templates/)
CARD = "ttt_card.html.j2"  # its archers' card on the Archers page (templates/)
DATA = "ttt_data.html.j2"  # what its script reads: the board's geometry (templates/)


def entry(m, h):
    """A Try-Tac-Toe game for the report's list and replay: a frame per move (docs/reports.md)."""
    opts, players, _ = from_header(h)
    frames = []
    for g, mv in ttt_moves.moves(h, m["log"]):
        mm = g.match
        f = {"m": mv["match"], "s": mv["side"], "a": mv["player"], "c": 0 if mv["event"] == MISS else mv["event"]}
        if mv["made"]:
            f["k"] = [SHAPES[shape_of(p)] for p in mv["made"]]
            f["p"] = sorted({c + 1 for p in mv["made"] for c in placement(p)})
        f["sc"] = [mm.score(0), mm.score(1)]
        if mm.over() and mv["number"] == len(mm.moves):
            f["e"] = mm.reason
        frames.append(f)
    g = ttt_moves.replay(h, m["log"])
    e = listed(m, CODE.lower(), players, SIDES)
    e.update(opt=ttt_moves.values_text(opts), ms=[[x.score(0), x.score(1)] for x in g.matches], fr=frames)
    return e


def geometry(size=26):
    """The board's triangles as SVG points (lattice point (a, b) at a + b/2, b*sqrt(3)/2, in
    units of size), their centres, and the viewBox: the report's script draws from these."""
    h = size * math.sqrt(3) / 2
    xy = [[(a * size + b * size / 2, b * h) for a, b in board.CELLS[i]] for i in range(board.N)]
    left = min(x for c in xy for x, _ in c) - 2
    right = max(x for c in xy for x, _ in c) + 2
    bottom = max(y for c in xy for _, y in c) + 2
    return {
        "pts": [" ".join("%.1f,%.1f" % (x - left, y + 2) for x, y in c) for c in xy],
        "c": [[round(sum(x for x, _ in c) / 3 - left, 1), round(sum(y for _, y in c) / 3 + 2, 1)] for c in xy],
        "up": [1 if board.is_up(i) else 0 for i in range(board.N)],
        "vb": "0 0 %.0f %.0f" % (right - left, bottom + 2),
    }


def page(store, recent):
    """Its figures on the report's page: its archers', and the board's geometry when a game
    of the list is replayed."""
    return {
        "ttt": list(ttt_stats.compute(store).values()),
        "ttt_geo": geometry() if any(r["g"] == CODE.lower() for r in recent) else None,
    }
