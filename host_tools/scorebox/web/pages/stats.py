"""The Statistics page (`scorebox stats [ARCHER]`): everyone's line, or one archer's detail
and head to head; then the figures of each game whose figures are its own (its surface's
STATS)."""

from flask import Blueprint, render_template, request

from scorebox.errors import ScoreboxError
from scorebox.games import registry as pcgames
from scorebox.report import stats
from scorebox.web.request_store import store
from scorebox_core import games

bp = Blueprint("stats", __name__)


@bp.route("/stats")
def statistics():
    name = request.args.get("archer", "").strip()
    key = name.casefold()
    s = store()
    every = stats.compute(s, name or None)  # one archer's page computes theirs only
    h2h = stats.head_to_head(s, name) if name else {}
    own = []  # (game, its STATS module, its figures: one archer's on their page)
    for g in games.every():
        part = pcgames.part(g, "STATS")
        if part:
            got = part.compute(s)
            own.append((g, part, {k: v for k, v in got.items() if k.casefold() == key} if name else got))
    if name and not every and s.find_archer(name) is None and not any(f for _, _, f in own):
        raise ScoreboxError("no archer called %r: the Archers page shows who is there" % name)
    # the games whose figures stats.py makes
    arrows = ", ".join(g.NAME for g in games.every() if not pcgames.of(g).STATS)
    if name:
        one = list(every.values())
        return render_template(
            "archer.html.j2",
            name=one[0]["name"] if one else name,
            arrows=arrows,
            detail=stats.detail_lines(one[0])[1:] if one else [],
            own=[(g.NAME, part.lines(f)[2:]) for g, part, f in own if f],  # after its blank and title lines
            h2h=sorted(((c, v) for (r, c), v in h2h.items() if r.casefold() == key), key=lambda x: x[0].casefold()),
        )
    own = [(g.NAME, part.lines(f)[2:]) for g, part, f in own if f]
    return render_template("stats.html.j2", every=every.values(), arrows=arrows, own=own, recent=stats.RECENT)
