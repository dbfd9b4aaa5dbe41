"""A Noughts and Crosses game as plain data: `scorebox replay --json`."""

from scorebox_game_xo.core.rules import GAME, side_name, token


def snapshot(game):
    side = game.mover()
    x, o = game.score()
    return {
        "game": GAME,
        "squares": [side_name(m - 1) if m else None for m in game.marks],
        "line": [i + 1 for i in game.line() or ()],
        "score": {"X": x, "O": o},
        "arrows": len(game.events),
        "last": token(game.events[-1]) if game.events else None,
        "next": None if side is None else {"side": side_name(side), "player": game.archer()},
        "winner": side_name(game.winner()),
        "over": game.over(),
        "options": game.opts.to_dict(),
    }
