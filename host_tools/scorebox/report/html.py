"""`scorebox report`: the club's report as one self-contained HTML file.

It walks a match turn by turn with the rules core (games/ttb/show.py), as `scorebox show`
does. The report embeds, for the
newest matches, every turn's board as compact JSON that the page's own script draws as SVG;
older matches are summed up by month, and every statistic counts them all. The page is a
Jinja2 template (templates/report.html.j2) with the plots as SVG macros (plots.html.j2):
no CDN, no font, no image to fetch, so it works offline and from a USB stick.
"""

import os
import time

from scorebox.errors import ScoreboxError
from scorebox.games import registry as pcgames
from scorebox.report import stats
from scorebox.store import files, queries
from scorebox.store.access import open_store
from scorebox.text import date_text, plural
from scorebox_core import games

REPLAYS = 300  # matches whose replay the report embeds (the newest)
TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
GENERATOR = b'<meta name="generator" content="scorebox report">'  # in templates/report.html.j2


# --- a match, in the list ---------------------------------------------------------------------
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


def play(store, total, all_stats):
    """(arrows, archers) of every game, for the report's tiles: the store's arrows and the
    archers of report/stats.py's figures, and of each game whose figures are its own (its
    surface's STATS) its archers and its moves, each move an arrow shot at the range."""
    arrows, names = total["arrows"], set(all_stats)
    for g in games.every():
        if pcgames.of(g).STATS:
            figures = pcgames.part(g, "STATS").compute(store)
            names.update(figures)
            arrows += sum(f.get("moves", 0) for f in figures.values())
    return arrows, len(names)


def build(store, replays=REPLAYS):
    """Everything the template shows, as plain data: the page's own, and each game's
    (its surface's REPORT page(), WEAR's face-wear log)."""
    t0 = time.time()
    total = store.totals()
    recent = []
    for m in store.newest_matches(replays):
        h = queries.named(m)  # the names the store knows now
        recent.append(pcgames.part(games.of(h), "REPORT").entry(m, h))
    all_stats = stats.compute(store)
    h2h = stats.head_to_head(store)
    names = list(all_stats)
    shot, players = play(store, total, all_stats)
    data = {
        "generated": date_text(time.time()),
        "store": os.path.basename(store.path),  # its name: the page is mailed, the PC's folders are no one's business
        "matches": total["matches"],
        "games": total["games"],
        "arrows": total["arrows"],
        "shot": shot,  # the tiles': every game's arrows and archers
        "players": players,
        "first": date_text(total["first"], "%Y-%m-%d"),
        "last": date_text(total["last"], "%Y-%m-%d"),
        "devices": total["devices"],
        "recent": recent,
        "older": total["matches"] - len(recent),
        "months": store.months([m["id"] for m in recent]) if total["matches"] > len(recent) else [],
        "archers": archer_views(all_stats),
        "names": names,
        "h2h": {"%s|%s" % k: v for k, v in h2h.items()},
        "faces": [box for g in games.every() if pcgames.of(g).WEAR for box in pcgames.part(g, "WEAR").face_log(store)],
        "game_names": {g.CODE.lower(): g.NAME for g in games.every()},  # the list's `g`
        "min_hits": stats.MIN_HITS,
        "recent_n": stats.RECENT,
    }
    for g in games.every():
        data.update(pcgames.part(g, "REPORT").page(store, recent))
    data["seconds"] = round(time.time() - t0, 2)
    return data


def render(data, commands=True):
    """The page of build()'s data. commands: it names the commands that make more of it (a
    report written by `scorebox report`); the desk's report names its pages instead."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([TEMPLATES, *pcgames.template_folders()]),
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
    names = [g.NAME for g in games.every()]
    own = {}  # each game's names for the template
    for g in games.every():
        own.update(pcgames.part(g, "REPORT").RENDER)
    title = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
    # each game's replay script (its REPORT's SCRIPT, a template of its own package), by its list's `g`
    parts = [pcgames.part(g, "REPORT") for g in games.every()]
    scripts = [(g.CODE.lower(), p.SCRIPT) for g, p in zip(games.every(), parts)]
    # and its own templates, where it has them (None where not): its card on the Archers
    # page (CARD), the data its script reads (DATA)
    cards = [p.CARD for p in parts if p.CARD]
    tags = [p.DATA for p in parts if p.DATA]
    page = env.get_template("report.html.j2")
    return page.render(
        d=data, games=title, game_scripts=scripts, game_cards=cards, game_data=tags, commands=commands, **own
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
