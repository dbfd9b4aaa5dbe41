"""Its figures per archer: games won, drawn and lost, arrows, misses and squares marked. Its
arrows stay in the match's log, so each game is replayed (pc/show.py)."""

from scorebox.store import queries
from scorebox_game_xo.core.game import ID
from scorebox_game_xo.core.rules import DRAW, MISS
from scorebox_game_xo.pc.show import arrows, replay

HELP = "Noughts and Crosses' figures (squares marked) instead"  # `scorebox stats --nac`


def compute(store):
    """{archer name: figures}, in name order."""
    out = {}
    for m in store.matches_of(ID):
        h = queries.named(m)
        g = replay(h, m["log"])
        w = g.winner()
        for side in (0, 1):
            for name in set(g.archers[side]):
                s = out.setdefault(
                    name, {"name": name, "won": 0, "drawn": 0, "lost": 0, "arrows": 0, "misses": 0, "marked": 0}
                )
                if w is not None:
                    s["drawn" if w == DRAW else "won" if w == side else "lost"] += 1
        for _, a in arrows(h, m["log"]):
            s = out[a["player"]]
            s["arrows"] += 1
            s["misses"] += a["event"] == MISS
            s["marked"] += a["marked"]
    return {k: out[k] for k in sorted(out, key=str.casefold)}


def lines(figures):
    """`scorebox stats`' lines for it: a blank line and its title first (none when no game)."""
    if not figures:
        return []
    head = "%-16s %9s %6s %6s %6s"
    out = ["", "Noughts and Crosses", head % ("archer", "games", "arrows", "misses", "marked")]
    for s in figures.values():
        wdl = "%d-%d-%d" % (s["won"], s["drawn"], s["lost"])
        out.append(head % (s["name"][:16], wdl, s["arrows"], s["misses"], s["marked"]))
    out.append("games: won-drawn-lost")
    return out
