"""Archer statistics from the store, and `scorebox stats [ARCHER]`.

Every figure is defined in docs/reports.md. They are read from the store's derived tables
(games, turns, arrows), which the store filled by replaying each match with the rules core,
and from the figures it keeps per archer as it stores them (store/figures.py), so no match is
replayed here: a handful of GROUP BY queries, of one archer's rows only on their page.
"""

import itertools
import json
import shlex
import sys
from operator import itemgetter

from scorebox.games import registry as pcgames
from scorebox.store import roster
from scorebox.store.access import open_store
from scorebox.text import plural, printable
from scorebox_core import games

COUNTED = ("scored", "claimed")  # outcomes whose value counts (TTB-7: dead hits score 0)
MIN_HITS = 10  # hits a square needs before it can be an archer's favourite or weakest
RECENT = 10  # matches in the "recent" window of the trend
BUCKETS = 60  # points at most in a points-per-arrow-over-time series


def _ratio(a, b, digits=3):
    return round(a / b, digits) if b else None


def _wdl():
    return {"played": 0, "won": 0, "drawn": 0, "lost": 0, "unfinished": 0}


def _count(wdl, side, winner, n=1):
    wdl["played"] += n
    if winner is None:
        wdl["unfinished"] += n
    elif winner == "draw":
        wdl["drawn"] += n
    elif winner == side:
        wdl["won"] += n
    else:
        wdl["lost"] += n


def _new(name):
    return {
        "name": name,
        "matches": _wdl(),
        "games": _wdl(),
        "arrows": 0,
        "points": 0,
        "hits": 0,  # uncalled arrows in a square (any value)
        "hit_value": 0,  # their keyed values, counted or not
        "misses": 0,
        "dead": 0,
        "claims": 0,
        "claims_lost": 0,
        "flip_attempts": 0,
        "flip_hits": 0,
        "squares": [
            {"square": s, "arrows": 0, "hits": 0, "hit_value": 0, "points": 0, "claims": 0, "flips": 0}
            for s in range(1, 10)
        ],
        "series": [],  # (started, arrows, points) per match, oldest first
    }


def compute(store, archer=None, min_hits=MIN_HITS, recent=RECENT, buckets=BUCKETS):
    """{name: stats} for every archer (or the one named), see docs/reports.md."""
    names = store.archer_names()
    only = None
    if archer is not None:
        only = [i for i, n in names.items() if n.casefold() == archer.strip().casefold()]  # "ann" finds Ann
        if not only:
            return {}
    out = {}

    def get(aid):
        name = names[aid]
        if name in roster.PLACEHOLDERS or (only is not None and aid not in only):
            return None
        s = out.get(name)
        if s is None:
            s = out[name] = _new(name)
        return s

    # Matches and games won, drawn, lost: every member of a side shares its result.
    for aid, side, winner, n in store.match_results(only):
        s = get(aid)
        if s:
            _count(s["matches"], side, winner, n)
    for aid, side, winner, n in store.game_results(only):
        s = get(aid)
        if s:
            _count(s["games"], side, winner, n)

    # Arrows by the archer who shot them (the turn's archer, TTB-2 rotation).
    for aid, square, called, outcome, n, value in store.arrow_counts(only):
        s = get(aid)
        if not s:
            continue
        s["arrows"] += n
        sq = s["squares"][square - 1] if square else None
        if sq:
            sq["arrows"] += n
        if outcome in COUNTED:
            s["points"] += value
            sq["points"] += value
        if outcome == "claimed":
            s["claims"] += n
            sq["claims"] += n
        elif outcome == "dead":
            s["dead"] += n
        elif outcome == "missed":
            s["misses"] += n
        if called:
            s["flip_attempts"] += n
            if outcome == "flipped":
                s["flip_hits"] += n
                sq["flips"] += n
        elif sq:
            s["hits"] += n
            s["hit_value"] += value
            sq["hits"] += n
            sq["hit_value"] += value

    # Claims lost: a square the archer had taken (claim or flip), flipped by the other side
    # later in the same game (TTB-8).
    for aid, n in store.claims_lost(only):
        s = get(aid)
        if s:
            s["claims_lost"] += n

    # Points per arrow match by match, for the trend and the plot: an archer's rows at a time.
    for aid, rows in itertools.groupby(store.points_by_match(only), key=itemgetter(0)):
        s = get(aid)
        if s:
            s["series"] += [(started, n, points) for _, started, _mid, n, points in rows]

    for s in out.values():
        _derive(s, min_hits, recent, buckets)
    return dict(sorted(out.items()))


def _derive(s, min_hits, recent, buckets):
    s["points_per_arrow"] = _ratio(s["points"], s["arrows"])
    s["hit_mean"] = _ratio(s["hit_value"], s["hits"])
    s["flip_rate"] = _ratio(s["flip_hits"], s["flip_attempts"])
    for sq in s["squares"]:
        sq["mean"] = _ratio(sq["hit_value"], sq["hits"])
    ok = [sq for sq in s["squares"] if sq["hits"] >= min_hits]
    # Best mean value of hits; ties go to the square with more hits, then the lower number.
    best = min(ok, key=lambda q: (-q["hit_value"] / q["hits"], -q["hits"], q["square"])) if ok else None
    worst = min(ok, key=lambda q: (q["hit_value"] / q["hits"], -q["hits"], q["square"])) if ok else None
    s["favourite"] = best["square"] if best else None
    s["weakest"] = worst["square"] if worst else None
    if s["weakest"] == s["favourite"]:
        s["weakest"] = None  # one square qualifies: it is not weakest and favourite at once
    series = s.pop("series")
    s["first_match"] = series[0][0] if series else None
    s["last_match"] = series[-1][0] if series else None
    late, early = series[-recent:], series[:-recent]
    s["recent_points_per_arrow"] = _ratio(sum(x[2] for x in late), sum(x[1] for x in late))
    s["earlier_points_per_arrow"] = _ratio(sum(x[2] for x in early), sum(x[1] for x in early))
    if s["recent_points_per_arrow"] is None or s["earlier_points_per_arrow"] is None:
        s["trend"] = None
    else:
        s["trend"] = round(s["recent_points_per_arrow"] - s["earlier_points_per_arrow"], 3)
    s["over_time"] = over_time(series, buckets)


def over_time(series, buckets):
    """Consecutive matches pooled into at most `buckets` points: [(time of the last match,
    points per arrow, arrows, matches)]."""
    if not series:
        return []
    n = len(series)
    k = min(n, buckets)
    out = []
    for b in range(k):
        part = series[b * n // k : (b + 1) * n // k]
        arrows = sum(x[1] for x in part)
        points = sum(x[2] for x in part)
        out.append((part[-1][0], _ratio(points, arrows), arrows, len(part)))
    return out


def head_to_head(store, archer=None):
    """{(row, col): {"matches": wdl, "games": wdl}} of row's results against col, for archers
    who met on opposite sides (every member of a team against every member of the other);
    archer: that archer's rows only (any case)."""
    out = {}
    names = store.archer_names()
    only = None if archer is None else [i for i, n in names.items() if n.casefold() == archer.strip().casefold()]
    if only == []:
        return out
    for a1, a2, side, winner, n, gw, gl, gd in store.head_to_head(only):
        r, c = names[a1], names[a2]
        if r in roster.PLACEHOLDERS or c in roster.PLACEHOLDERS:  # unnamed sides are no archers
            continue
        cell = out.setdefault((r, c), {"matches": _wdl(), "games": _wdl()})
        _count(cell["matches"], side, winner, n)
        g = cell["games"]
        g["won"] += gw
        g["lost"] += gl
        g["drawn"] += gd
        g["played"] += gw + gl + gd
    return out


# --- the command -------------------------------------------------------------------------
def _fmt(v, digits=2):
    if v is None:
        return "-"
    if isinstance(v, float):
        return "%.*f" % (digits, v)
    return str(v)


def _wdl_text(w):
    return "%d-%d-%d" % (w["won"], w["drawn"], w["lost"])


def heat_text(s, key):
    """The 3x3 face as text, one figure per square."""
    rows = []
    for r in range(3):
        rows.append(" ".join("%6s" % s["squares"][3 * r + c][key] for c in range(3)))
    return rows


def detail_lines(s):
    m, g = s["matches"], s["games"]
    trend = s["trend"]
    lines = [
        s["name"],
        "  matches   %d played: %d won, %d drawn, %d lost" % (m["played"], m["won"], m["drawn"], m["lost"]),
        "  games     %d played: %d won, %d drawn, %d lost" % (g["played"], g["won"], g["drawn"], g["lost"]),
        "  arrows    %d: %s, %s points per arrow; %s, %s"
        % (
            s["arrows"],
            plural(s["points"], "point"),
            _fmt(s["points_per_arrow"]),
            plural(s["misses"], "miss", "misses"),
            plural(s["dead"], "dead hit"),
        ),
        "  claims    %d made, %d lost to a flip" % (s["claims"], s["claims_lost"]),
        "  flips     %d called, %d hit (%s)"
        % (s["flip_attempts"], s["flip_hits"], "-" if s["flip_rate"] is None else "%d%%" % round(100 * s["flip_rate"])),
        "  squares   favourite %s, weakest %s (mean value of hits, %d hits at least)"
        % (_fmt(s["favourite"]), _fmt(s["weakest"]), MIN_HITS),
        "  trend     %s points per arrow: last %d matches %s, before %s"
        % (
            "-" if trend is None else "%+.2f" % trend,
            RECENT,
            _fmt(s["recent_points_per_arrow"]),
            _fmt(s["earlier_points_per_arrow"]),
        ),
        "  points by square      claims by square",
    ]
    for a, b in zip(heat_text(s, "points"), heat_text(s, "claims")):
        lines.append("  %s   %s" % (a, b))
    return lines


def cmd_stats(args):
    store = open_store(args.db)
    if args.game:  # a game's own figures, apart (its surface's STATS): its games have no arrows or squares
        g = games.get(args.game)
        own = pcgames.part(g, "STATS")
        got = own.compute(store)
        if args.archer:
            got = {k: v for k, v in got.items() if k.casefold() == args.archer.casefold()}
        if args.json:
            print(json.dumps(got, indent=2, sort_keys=True))
        else:
            print("\n".join(printable(line) for line in own.lines(got)[1:] or ["no %s games" % g.NAME]))
        return 0
    got = compute(store, args.archer)
    if args.json:
        print(json.dumps(got, indent=2, sort_keys=True))
        return 0
    if args.archer:
        if not got:
            known = store.find_archer(args.archer)
            if known is not None:  # on the roster, no match yet: not an error
                print("%s has no matches in %s yet" % (printable(known[1]), store.path))
                return 0
            where = " --db %s" % shlex.quote(args.db) if args.db else ""  # the same store's list
            print(
                "no archer called %r in %s: `scorebox archers list%s` shows who is there"
                % (args.archer, store.path, where),
                file=sys.stderr,
            )
            return 2
        for s in got.values():
            print("\n".join(printable(line) for line in detail_lines(s)))  # names are data: no escapes run
        return 0
    if not got:
        print("no archers in %s" % store.path)
        return 0
    head = "%-16s %9s %9s %7s %6s %7s %7s %9s %4s %4s %6s"
    print(head % ("archer", "matches", "games", "arrows", "pts/ar", "claims", "lost", "flips", "fav", "weak", "trend"))
    for s in got.values():
        print(
            head
            % (
                printable(s["name"])[:16],
                _wdl_text(s["matches"]),
                _wdl_text(s["games"]),
                s["arrows"],
                _fmt(s["points_per_arrow"]),
                s["claims"],
                s["claims_lost"],
                "%d/%d" % (s["flip_hits"], s["flip_attempts"]),
                _fmt(s["favourite"]),
                _fmt(s["weakest"]),
                "-" if s["trend"] is None else "%+.2f" % s["trend"],
            )
        )
    print("matches and games: won-drawn-lost; flips: hit/called; trend: last %d matches against before" % RECENT)
    for g in games.every():  # the games whose figures are their own
        own = pcgames.part(g, "STATS")
        if own:
            for line in own.lines(own.compute(store)):
                print(printable(line))
    return 0


def add_parser(sub):
    p = sub.add_parser("stats", help="archers' statistics from the store (docs/reports.md)")
    p.add_argument("archer", nargs="?", help="one archer in detail (default: a line per archer)")
    p.add_argument("--db", help="store file (default: in your user data folder)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    for g in games.every():  # --CODE: a game's own figures (its STATS), as --ttt
        if pcgames.of(g).STATS:
            flag = "--" + g.CODE.lower()
            p.add_argument(flag, dest="game", action="store_const", const=g.ID, help=pcgames.part(g, "STATS").HELP)
    p.set_defaults(run=cmd_stats, game=None)
