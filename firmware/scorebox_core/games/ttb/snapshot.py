"""A match's state as plain data (dicts, lists, str, int, bool, None).

It is what `scorebox replay --json` prints, and what the tests compare between CPython
and MicroPython, so it must not depend on dict order.
"""

from scorebox_core.games.ttb.rules import NET, OUTCOMES, SIDES, side_name, token


def squares(game):
    out = []
    for i in range(9):
        owner = game.owner[i]
        sq = {
            "square": i + 1,
            "owner": side_name(owner),
            "flipped": game.flips[i] > 0,
            "locked": game.locked(i),
            "need": None,
        }
        if owner is None:
            sq["need"] = {"A": game.need(0, i), "B": game.need(1, i)}
            if game.opts.mode == NET:
                sq["balance"] = game.balance(i)
            else:
                sq["totals"] = {"A": game.total[2 * i], "B": game.total[2 * i + 1]}
        out.append(sq)
    return out


def next_arrow(match):
    side = match.shooter()
    if side is None:
        return None
    k, n = match.arrow_no()
    return {
        "side": SIDES[side],
        "arrow": k,
        "of": n,
        "archer": match.archer(),
        "round": match.game.round(),
    }


def game_summary(game):
    return {
        "first": SIDES[game.first],
        "winner": side_name(game.winner),
        "reason": game.reason,
        "rounds": game.rounds_played(),
        "arrows": len(game.arrows),
    }


def turn(match):
    g = match.game
    start, end = match.turn_range()
    return [{"token": token(g.arrows[j]), "outcome": OUTCOMES[g.outcomes[j]]} for j in range(start, end)]


def snapshot(match):
    g = match.game
    return {
        "winner": side_name(g.winner),
        "reason": g.reason,
        "squares": squares(g),
        "next": next_arrow(match),
        "turn": turn(match),
        "game": len(match.games),
        "games": [game_summary(x) for x in match.games],
        "match": {
            "winner": side_name(match.result()),
            "over": match.over(),
            "wins": {"A": match.wins[0], "B": match.wins[1]},
            "draws": match.draws,
        },
        "face": {"games": match.face.games, "arrows": list(match.face.arrows), "worn": match.face.worn(match.opts)},
        "options": match.opts.to_dict(),
    }
