"""Try-Tac-Toe's figures per archer (docs/reports.md), apart from Tic Tac BOW's: games won,
drawn and lost, moves and misses, shapes made and placements blocked. The store keeps a
game's moves in its log only, so these replay each game with its rules core (games/ttt/show.py).
Its surface names this module as STATS: `scorebox stats` and the report ask it there."""

from scorebox.games.ttt.show import moves, replay
from scorebox.store import queries
from scorebox_core.games.ttt.board import SHAPES, shape_of
from scorebox_core.games.ttt.game import ID
from scorebox_core.games.ttt.rules import DRAW, MISS

HELP = "Try-Tac-Toe's figures (shapes made and blocked) instead"  # `scorebox stats --ttt`


def _blank(name):
    return {
        "name": name,
        "games": {"played": 0, "won": 0, "drawn": 0, "lost": 0},
        "moves": 0,
        "misses": 0,
        "made": dict.fromkeys(SHAPES, 0),
        "shapes": 0,
        "blocked": 0,
    }


def compute(store):
    """{archer name: figures}, archers in name order. Each member of a side shares its game
    result (TTT-6); a move counts for the member who made it (TTT-2's rotation)."""
    out = {}
    for m in store.matches_of(ID):
        h = queries.named(m)
        g = replay(h, m["log"])
        w = g.winner()
        for side in (0, 1):
            for name in set(g.archers[side]):
                s = out.setdefault(name, _blank(name))
                s["games"]["played"] += 1
                if w is not None:
                    s["games"]["drawn" if w == DRAW else "won" if w == side else "lost"] += 1
        for _, mv in moves(h, m["log"]):
            s = out[mv["player"]]
            s["moves"] += 1
            s["misses"] += mv["event"] == MISS
            for p in mv["made"]:
                s["made"][SHAPES[shape_of(p)]] += 1
                s["shapes"] += 1
            s["blocked"] += mv["blocked"]
    return {k: out[k] for k in sorted(out, key=str.casefold)}


def lines(figures):
    """`scorebox stats`' lines for Try-Tac-Toe (none when no game is stored)."""
    if not figures:
        return []
    head = "%-16s %9s %6s %6s %9s %6s %8s %8s"
    out = [
        "",
        "Try-Tac-Toe",
        head % ("archer", "games", "moves", "misses", "triangles", "bars", "chevrons", "blocked"),
    ]
    for s in figures.values():
        g = s["games"]
        made = s["made"]
        out.append(
            head
            % (
                s["name"][:16],
                "%d-%d-%d" % (g["won"], g["drawn"], g["lost"]),
                s["moves"],
                s["misses"],
                made["triangle"],
                made["bar"],
                made["chevron"],
                s["blocked"],
            )
        )
    out.append("games: won-drawn-lost; blocked: the other side's placements a mark took from it (docs/reports.md)")
    return out
