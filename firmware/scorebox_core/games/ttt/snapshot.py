"""A Try-Tac-Toe game's state as plain data: what `scorebox replay --json` prints for a
Try-Tac-Toe script (docs/match-script.md) and what the tests compare between CPython and
MicroPython. Keys as in ttb/snapshot.py where they make sense; no dependence on dict order.
"""

from scorebox_core.games.ttt.board import CELLS, COUNTS, SHAPES, shape_of
from scorebox_core.games.ttt.rules import GAME, O, X, side_name, token


def cells(match):
    """The current match's board: id (triangle number), vertices and mark of each cell."""
    out = []
    for i in range(len(CELLS)):
        out.append({"id": i + 1, "vertices": [list(v) for v in CELLS[i]], "mark": side_name(match.owner(i))})
    return out


def tally(match, side):
    t = match.tally[side]
    return {SHAPES[k]: t[k] for k in range(len(SHAPES))}


def next_move(game):
    side = game.mover()
    if side is None:
        return None
    m = game.match
    return {"side": side_name(side), "player": game.archer(), "move": len(m.moves) + 1, "match": len(game.matches)}


def last_move(match):
    if not match.moves:
        return None
    made = match.made[-1]
    return {"token": token(match.moves[-1]), "shapes": [SHAPES[shape_of(p)] for p in made]}


def snapshot(game):
    m = game.match
    x, o = game.score()
    values = game.opts.values
    return {
        "game": GAME,
        "cells": cells(m),
        "shapes": {SHAPES[k]: {"value": values[k], "placements": COUNTS[k]} for k in range(len(SHAPES))},
        "tally": {"X": tally(m, X), "O": tally(m, O)},
        "score": {"X": x, "O": o},
        "matches": [{"X": mm.score(X), "O": mm.score(O)} for mm in game.matches],
        "winner": side_name(game.winner()),
        "reason": m.reason,
        "next": next_move(game),
        "last": last_move(m),
        "match": {
            "number": len(game.matches),
            "over": m.over(),
            "moves": len(m.moves),
            "possible": {"X": m.possible(X), "O": m.possible(O)},
            "dead": m.dead(),
        },
        "over": game.over(),
        "options": game.opts.to_dict(),
    }
