"""`scorebox report`: the club's report as one self-contained HTML file.

It walks a match turn by turn with the rules core (report/turns.py), as `scorebox show`
does. The report embeds, for the
newest matches, every turn's board as compact JSON that the page's own script draws as SVG;
older matches are summed up by month, and every statistic counts them all. The page is a
Jinja2 template (templates/report.html.j2) with the plots as SVG macros (plots.html.j2):
no CDN, no font, no image to fetch, so it works offline and from a USB stick.
"""

import math
import os
import time

from scorebox.errors import ScoreboxError
from scorebox.report import stats, ttt_moves, ttt_stats
from scorebox.report.faces import FACES_SHOWN, face_log
from scorebox.report.turns import date_text, options_text, turns
from scorebox.store import files, queries
from scorebox.store.access import open_store
from scorebox.text import plural
from scorebox_core.match import TRYTACTOE, from_header, game_of
from scorebox_core.ttb import rules
from scorebox_core.ttb.rules import side_name, token
from scorebox_core.ttt import board
from scorebox_core.ttt.board import SHAPES, placement, shape_of
from scorebox_core.ttt.rules import MISS

REPLAYS = 300  # matches whose replay the report embeds (the newest)
TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
GENERATOR = b'<meta name="generator" content="scorebox report">'  # in templates/report.html.j2


# --- a match, turn by turn ---------------------------------------------------------------------
def frame(m, turn):
    """One turn for the report's replay: short keys, board after the turn (docs/reports.md)."""
    g = m.games[turn["game"] - 1]
    owners, flags, needs = [], [], []
    for i in range(9):
        o = g.owner[i]
        owners.append("." if o is None else rules.SIDES[o])
        if o is None:
            flags.append("-")
        elif g.flips[i]:
            flags.append("L" if g.locked(i) else "f")
        else:
            flags.append("l" if g.locked(i) else "-")
    for side in (0, 1):
        needs.extend(g.need(side, i) for i in range(9))
    f = {
        "g": turn["game"],
        "r": turn["round"],
        "s": turn["side"],
        "a": turn["archer"],
        "t": [token(e) for e in turn["arrows"]],
        "o": turn["outcomes"],
        "b": "".join(owners),
        "f": "".join(flags),
        "n": needs,
    }
    if turn["face"]:
        f["nf"] = 1
    if g.over() and turn["start"] + len(turn["arrows"]) == len(g.arrows):
        lines = [] if g.winner == rules.DRAW else g.lines_of(g.winner)
        if g.winner == rules.DRAW:
            lines = g.lines_of(rules.A) + g.lines_of(rules.B)
        f["e"] = [g.winner, g.reason, sorted({i + 1 for ln in lines for i in ln})]
        f["w"] = [m.wins[0], m.wins[1], m.draws]
    return f


def ttt_entry(m, h):
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
    e = entry(m, "ttt", players, "XO", g.score())
    e.update(opt=ttt_moves.values_text(opts), ms=[[x.score(0), x.score(1)] for x in g.matches], fr=frames)
    return e


def entry(m, game, teams, sides, score):
    """What the report's list says of any match: game, key, id, date, the teams, the winner
    (0, 1 or 2 for a draw) and the result with its score."""
    w = {sides[0]: 0, sides[1]: 1, "draw": 2}.get(m["winner"])
    return {
        "g": game,
        "k": m["key"],
        "id": m["id"],
        "d": date_text(m["started"]),
        "A": ", ".join(teams[0]),
        "B": ", ".join(teams[1]),
        "w": w,
        "res": "abandoned" if m.get("abandoned") else "%s %d-%d" % (m["winner"] or "open", score[0], score[1]),
    }


def ttt_geometry(size=26):
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


# --- the store, read -----------------------------------------------------------------------------
# --- scorebox show -----------------------------------------------------------------------------
# --- the face-wear log -------------------------------------------------------------------------
# --- the report ------------------------------------------------------------------------------
def _scale(values, width, height, pad=4):
    """SVG points for a line through values (None skipped), and the y range."""
    ys = [v for v in values if v is not None]
    if not ys:
        return "", 0, 0
    lo, hi = min(ys), max(ys)
    if hi - lo < 0.2:
        mid = (hi + lo) / 2
        lo, hi = mid - 0.1, mid + 0.1
    n = len(values)
    pts = []
    for i, v in enumerate(values):
        if v is None:
            continue
        x = pad + (width - 2 * pad) * (i / (n - 1) if n > 1 else 0.5)
        y = pad + (height - 2 * pad) * (1 - (v - lo) / (hi - lo))
        pts.append("%.1f,%.1f" % (x, y))
    return " ".join(pts), lo, hi


def archer_views(all_stats):
    """What the archer pages draw, per archer: the stats plus plot geometry."""
    out = []
    for s in all_stats.values():
        ppa = [p[1] for p in s["over_time"]]
        pts, lo, hi = _scale(ppa, 520, 150)
        out.append(
            {
                "s": s,
                "slug": "a-%d" % len(out),
                "line": {
                    "points": pts,
                    "lo": lo,
                    "hi": hi,
                    "first": date_text(s["over_time"][0][0], "%Y-%m-%d") if s["over_time"] else "",
                    "last": date_text(s["over_time"][-1][0], "%Y-%m-%d") if s["over_time"] else "",
                    "n": len(s["over_time"]),
                    "per": max(p[3] for p in s["over_time"]) if s["over_time"] else 0,
                },
                "heat_points": [q["points"] for q in s["squares"]],
                "heat_claims": [q["claims"] + q["flips"] for q in s["squares"]],
            }
        )
    return out


def build(store, replays=REPLAYS, faces_shown=FACES_SHOWN):
    """Everything the template shows, as plain data."""
    t0 = time.time()
    total = store.totals()
    recent = []
    for m in store.newest_matches(replays):
        h = queries.named(m)  # the names the store knows now
        if game_of(h) == TRYTACTOE:
            recent.append(ttt_entry(m, h))
            continue
        opts, archers, _ = from_header(h)
        e = entry(m, "ttb", archers, rules.SIDES, m["wins"])
        e.update(
            opt=options_text(opts),
            claim=[opts.claim_a, opts.claim_b],
            fr=[frame(mm, t) for mm, t in turns(h, m["log"])],
        )
        recent.append(e)
    all_stats = stats.compute(store)
    h2h = stats.head_to_head(store)
    names = list(all_stats)
    return {
        "generated": date_text(time.time()),
        "store": os.path.basename(store.path),  # its name: the page is mailed, the PC's folders are no one's business
        "matches": total["matches"],
        "games": total["games"],
        "arrows": total["arrows"],
        "first": date_text(total["first"], "%Y-%m-%d"),
        "last": date_text(total["last"], "%Y-%m-%d"),
        "devices": total["devices"],
        "recent": recent,
        "older": total["matches"] - len(recent),
        "months": store.months([m["id"] for m in recent]) if total["matches"] > len(recent) else [],
        "archers": archer_views(all_stats),
        "names": names,
        "h2h": {"%s|%s" % k: v for k, v in h2h.items()},
        "faces": face_log(store, faces_shown),
        "ttt": list(ttt_stats.compute(store).values()),
        "ttt_geo": ttt_geometry() if any(r["g"] == "ttt" for r in recent) else None,
        "min_hits": stats.MIN_HITS,
        "recent_n": stats.RECENT,
        "seconds": round(time.time() - t0, 2),
    }


def render(data):
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.policies["json.dumps_kwargs"] = {"separators": (",", ":"), "sort_keys": False}
    env.filters["date"] = date_text
    env.filters["pct"] = lambda v: "-" if v is None else "%d%%" % round(100 * v)
    env.filters["num"] = lambda v, d=2: "-" if v is None else ("%.*f" % (d, v) if isinstance(v, float) else str(v))
    env.filters["thousands"] = lambda v: "{:,}".format(v)
    return env.get_template("report.html.j2").render(
        d=data, sides=rules.SIDES, outcomes=rules.OUTCOMES, side_name=side_name
    )


def _ours(head):
    """An earlier report (the template's generator tag): the only file --out may replace."""
    return GENERATOR in head


def write(store, path, replays=REPLAYS):
    files.check_target(path, _ours, "a Scorebox report")  # before the work, so a refusal is quick
    html = render(build(store, replays))
    tmp = files.temporary(path)
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(html)
    except OSError as e:
        files.discard(tmp)
        raise files.FileError("%s: cannot write the report: %s" % (path, e.strerror or e))
    files.replace(tmp, path, _ours, "a Scorebox report")
    return len(html.encode("utf-8"))


def cmd_report(args):
    if args.replays < 0:
        raise ScoreboxError("--replays must be 0 or more")
    store = open_store(args.db)
    t0 = time.monotonic()
    size = write(store, args.out, args.replays)
    n = store.count()
    kind = "%.1f MB" % (size / 1e6) if size >= 1e6 else "%d KB" % round(size / 1e3)
    print(
        "report: %s (%s, %d replayable, %s, %.1f s)"
        % (os.path.abspath(args.out), plural(n, "match", "matches"), min(n, args.replays), kind, time.monotonic() - t0)
    )
    return 0


def add_parser(sub):
    p = sub.add_parser("report", help="write the club's HTML report (one file, works offline)")
    p.add_argument("--out", default="scorebox-report.html", help="HTML file (default scorebox-report.html)")
    p.add_argument("--db", help="store file (default: in your user data folder)")
    p.add_argument(
        "--replays", type=int, default=REPLAYS, help="newest matches to embed replays of (default %d)" % REPLAYS
    )
    p.set_defaults(run=cmd_report)
