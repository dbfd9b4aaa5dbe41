"""`scorebox report` (one self-contained HTML file) and `scorebox show MATCH` (a match turn
by turn in the terminal).

Both walk a match turn by turn with the rules core (turns()). The report embeds, for the
newest matches, every turn's board as compact JSON that the page's own script draws as SVG;
older matches are summed up by month, and every statistic counts them all. The page is a
Jinja2 template (templates/report.html.j2) with the plots as SVG macros (plots.html.j2):
no CDN, no font, no image to fetch, so it works offline and from a USB stick.
"""

import json
import os
import time

from scorebox.report import board, stats
from scorebox.store import StoreError
from scorebox_core.ttb import rules
from scorebox_core.ttb.rules import NEW_FACE, NEW_GAME, UNDO, Face, Match, Options, side_name, token

REPLAYS = 300  # matches whose replay the report embeds (the newest)
FACES_SHOWN = 40  # faces listed per box in the face-wear log (the newest)
TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


# --- a match, turn by turn ---------------------------------------------------------------------
def from_header(header):
    """(options, archers, face) of a stored match header (as box/session.py writes it)."""
    opts = Options.from_dict(header["options"])
    names = header.get("archers") or [["A"], ["B"]]
    archers = (tuple(names[0]) or ("A",), tuple(names[1]) or ("B",))
    f = header.get("face") if isinstance(header.get("face"), dict) else {}
    return opts, archers, Face(f.get("games", 0), f.get("arrows"))


def turns(header, log):
    """Replay a match; yield (match, turn) after each turn, the match as it stands then.
    turn: game, round, side, archer, start (index in game.arrows), face (a new face went up
    just before it), arrows and outcomes of the turn."""
    opts, archers, face = from_header(header)
    done = Match.replay(log, opts, archers, face)  # the events in effect, checked
    m = Match(opts, archers, face)
    turn, new_face = None, False
    for ev in done.events:
        if ev == NEW_GAME:
            m.apply(ev)
            continue
        if ev == NEW_FACE:
            m.apply(ev)
            new_face = True
            continue
        g = m.game
        if turn is None:
            turn = {
                "game": len(m.games),
                "round": g.round(),
                "side": g.shooter(),
                "archer": m.archer(),
                "start": len(g.arrows),
                "face": new_face,
            }
            new_face = False
        m.apply(ev)
        if g.in_turn == 0 or g.over():
            turn["arrows"] = g.arrows[turn["start"] :]
            turn["outcomes"] = g.outcomes[turn["start"] :]
            yield m, turn
            turn = None
    if turn is not None:  # a match stopped mid-turn
        g = m.game
        turn["arrows"] = g.arrows[turn["start"] :]
        turn["outcomes"] = g.outcomes[turn["start"] :]
        yield m, turn


def result_text(winner, reason=None):
    if winner is None:
        return "not finished"
    text = "draw" if winner == rules.DRAW else "%s wins" % rules.SIDES[winner]
    return text + (" (%s)" % reason if reason else "")


def options_text(o):
    parts = [o.mode, "claim %d" % o.claim_a if o.claim_a == o.claim_b else "claim A%d/B%d" % (o.claim_a, o.claim_b)]
    parts.append("%d arrows" % o.arrows_a if o.arrows_a == o.arrows_b else "arrows A%d/B%d" % (o.arrows_a, o.arrows_b))
    parts.append("no flips" if not o.flips else "%d flip%s a square" % (o.flips, "" if o.flips == 1 else "s"))
    parts.append("equal turns" if o.equal_turns else "first line wins")
    if o.rounds:
        parts.append("%d rounds" % o.rounds)
    parts.append("best of %d" % o.games if o.games > 1 else "1 game")
    return ", ".join(parts)


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


# --- the store, read -----------------------------------------------------------------------------
_MATCH_SQL = (
    "SELECT m.id, d.uid, m.number, m.started, m.header, m.log, m.winner, m.wins_a, m.wins_b, m.draws "
    "FROM matches m JOIN devices d ON d.id = m.device_id "
)


def load_match(db, ref):
    """A stored match by store id (as `scorebox matches` lists) or DEVICE/NUMBER."""
    dev, sep, num = str(ref).rpartition("/")
    try:
        if sep:
            row = db.execute(_MATCH_SQL + "WHERE d.uid = ? AND m.number = ?", (dev, int(num))).fetchone()
        else:
            row = db.execute(_MATCH_SQL + "WHERE m.id = ?", (int(ref),)).fetchone()
    except ValueError:
        row = None
    if row is None:
        raise StoreError("no match %s in the store (give its id from `scorebox matches`, or DEVICE/NUMBER)" % ref)
    return _match_dict(row)


def _match_dict(row):
    mid, uid, number, started, header, log, winner, wa, wb, dr = row
    return {
        "id": mid,
        "key": "%s/%d" % (uid, number),
        "device": uid,
        "number": number,
        "started": started,
        "header": json.loads(header),
        "log": json.loads(log),
        "winner": winner,
        "wins": [wa, wb],
        "draws": dr,
    }


def _date(t, fmt="%Y-%m-%d %H:%M"):
    return time.strftime(fmt, time.localtime(t)) if t else "-"


# --- scorebox show -----------------------------------------------------------------------------
def show_lines(match):
    h = match["header"]
    opts, archers, _ = from_header(h)
    log = match["log"]
    out = [
        "Match %s (store id %d), %s" % (match["key"], match["id"], _date(match["started"])),
        "A: %s   B: %s" % (", ".join(archers[0]), ", ".join(archers[1])),
        options_text(opts),
    ]
    if h.get("distance"):
        out.append(
            "distance %s %s, shafts %s mm"
            % ("/".join(map(str, h["distance"])), h.get("unit", ""), "/".join(map(str, h.get("shaft_mm") or [])))
        )
    undos = log.count(UNDO)
    out.append("%d events keyed%s" % (len(log), ", %d undone" % undos if undos else ""))
    m = None
    for m, t in turns(h, log):
        g = m.games[t["game"] - 1]
        if t["face"]:
            out.append("")
            out.append("-- a new face is put up --")
        shot = "  ".join("%s %s" % (token(e), rules.OUTCOMES[o]) for e, o in zip(t["arrows"], t["outcomes"]))
        out.append("")
        out.append(
            "Game %d, round %d, %s (%s): %s" % (t["game"], t["round"], rules.SIDES[t["side"]], t["archer"], shot)
        )
        out.append(board.draw(g))
        if g.over() and t["start"] + len(t["arrows"]) == len(g.arrows):
            out.append("Game %d over: %s" % (t["game"], result_text(g.winner, g.reason)))
    if m is not None:
        r = m.result()
        out.append("")
        if m.over():
            out.append("Match: %s, games A %d - B %d, draws %d" % (result_text(r), m.wins[0], m.wins[1], m.draws))
        else:
            out.append("Match not finished: games A %d - B %d, draws %d" % (m.wins[0], m.wins[1], m.draws))
    return out


def cmd_show(args):
    from scorebox.sync import open_store

    store = open_store(args.db)
    match = load_match(store.db, args.match)
    print("\n".join(show_lines(match)))
    return 0


# --- the face-wear log -------------------------------------------------------------------------
def effective(log):
    """The events in effect: each undo takes back the one before (TTB-15)."""
    out = []
    for ev in log:
        if ev == UNDO:
            if out:
                out.pop()
        else:
            out.append(ev)
    return out


class FaceLog:
    """Faces on each box's boss, from the match headers and the new-face events (TTB-16).

    Without replaying: an arrow in a square wears the face up at the time; a game counts on
    the face its last arrow was shot at (the rules count it when it ends); a header whose
    face is fresh after a used one means a face was put up between matches."""

    def __init__(self):
        self.faces = {}  # device -> [face dict], oldest first
        self._cur = {}

    def _new(self, uid, match, game, games=0, arrows=None, between=False):
        f = {
            "device": uid,
            "no": len(self.faces.setdefault(uid, [])) + 1,
            "put_up": match["key"],
            "put_up_at": match["started"],
            "game": game,
            "where": "between matches" if between else "before game %d" % game,
            "between": between,
            "games": games,
            "arrows": list(arrows) if arrows else [0] * 9,
            "last": match["key"],
            "last_at": match["started"],
            "face_games": None,
        }
        self.faces[uid].append(f)
        self._cur[uid] = f
        return f

    def add(self, match, finished_games):
        """Fold one match in (matches in order per box). finished_games: games of the match
        that ended (all but an unfinished last one)."""
        uid = match["device"]
        h = match["header"]
        hf = h.get("face") if isinstance(h.get("face"), dict) else None
        cur = self._cur.get(uid)
        used = cur is not None and (cur["games"] or any(cur["arrows"]))
        if hf is not None:
            fresh = not hf.get("games") and not any(hf.get("arrows") or [])
            if cur is None or (fresh and used):
                first = cur is None
                cur = self._new(uid, match, 1, hf.get("games", 0), hf.get("arrows"), between=not first)
                if first:
                    cur["where"] = "already up"  # the box's face as the store's first match began
            else:  # the box's own count wins (the store may not hold every match of the box)
                cur["games"] = hf.get("games", 0)
                cur["arrows"] = list(hf.get("arrows") or [0] * 9)
        elif cur is None:
            cur = self._new(uid, match, 1)
            cur["where"] = "already up"
        try:
            face_games = Options.from_dict(h["options"]).face_games
        except (KeyError, TypeError, ValueError):
            face_games = 4
        cur["face_games"] = face_games
        game, last_face, ended, in_game = 1, None, 0, 0
        evs = effective(match["log"])
        for k, ev in enumerate(evs):
            if ev == NEW_GAME:
                if last_face is not None and ended < finished_games:
                    last_face["games"] += 1
                    ended += 1
                game += 1
                last_face, in_game = None, 0
            elif ev == NEW_FACE:
                nxt = next((e for e in evs[k + 1 :] if e != NEW_FACE), None)
                cur = self._new(uid, match, game)
                cur["face_games"] = face_games
                if not in_game:
                    cur["where"] = "before game %d" % game
                elif nxt is None or nxt == NEW_GAME:
                    cur["where"] = "after game %d" % game
                else:
                    cur["where"] = "during game %d" % game
            elif ev < 256:
                if ev >> 6 != rules.MISS:
                    cur["arrows"][(ev >> 2 & 15) - 1] += 1
                last_face = cur
                in_game += 1
                cur["last"], cur["last_at"] = match["key"], match["started"]
        if last_face is not None and ended < finished_games:
            last_face["games"] += 1


def face_log(db, shown=FACES_SHOWN):
    """Per box: the newest faces, totals over all faces, and the face on the boss now."""
    finished = {}
    for mid, n in db.execute("SELECT match_id, count(*) FROM games WHERE winner IS NOT NULL GROUP BY match_id"):
        finished[mid] = n
    log = FaceLog()
    cur = db.execute(_MATCH_SQL + "ORDER BY d.id, m.number")
    while True:
        rows = cur.fetchmany(5000)
        if not rows:
            break
        for row in rows:
            m = _match_dict(row)
            log.add(m, finished.get(m["id"], 0))
    out = []
    for uid, faces in log.faces.items():
        retired = faces[:-1]
        over = [f for f in retired if f["face_games"] and f["games"] > f["face_games"]]
        out.append(
            {
                "device": uid,
                "count": len(faces),
                "mean_games": round(sum(f["games"] for f in retired) / len(retired), 2) if retired else None,
                "mean_arrows": round(sum(sum(f["arrows"]) for f in retired) / len(retired), 1) if retired else None,
                "overdue": len(over),
                "current": faces[-1],
                "faces": list(reversed(faces[-shown:])),
            }
        )
    return out


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
                    "first": _date(s["over_time"][0][0], "%Y-%m-%d") if s["over_time"] else "",
                    "last": _date(s["over_time"][-1][0], "%Y-%m-%d") if s["over_time"] else "",
                    "n": len(s["over_time"]),
                    "per": max(p[3] for p in s["over_time"]) if s["over_time"] else 0,
                },
                "heat_points": [q["points"] for q in s["squares"]],
                "heat_claims": [q["claims"] + q["flips"] for q in s["squares"]],
            }
        )
    return out


def months(db, shown):
    """The matches not replayed (older than the shown ones), summed up by month (local time)."""
    db.execute("CREATE TEMP TABLE IF NOT EXISTS report_shown (id INTEGER PRIMARY KEY)")
    db.execute("DELETE FROM report_shown")
    db.executemany("INSERT INTO report_shown VALUES (?)", [(i,) for i in shown])
    rows = db.execute(
        "SELECT coalesce(strftime('%Y-%m', m.started, 'unixepoch', 'localtime'), 'no date') AS mo, count(*), "
        "sum(m.wins_a + m.wins_b + m.draws), sum(m.winner = 'A'), sum(m.winner = 'B'), sum(m.winner = 'draw'), "
        "group_concat(DISTINCT d.uid) FROM matches m JOIN devices d ON d.id = m.device_id "
        "WHERE m.id NOT IN (SELECT id FROM report_shown) GROUP BY mo ORDER BY mo DESC"
    ).fetchall()
    keys = ("month", "matches", "games", "a", "b", "draws", "boxes")
    return [dict(zip(keys, r)) for r in rows]


def build(store, replays=REPLAYS, faces_shown=FACES_SHOWN):
    """Everything the template shows, as plain data."""
    db = store.db
    t0 = time.time()
    total = db.execute("SELECT count(*), min(started), max(started) FROM matches").fetchone()
    n_games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    n_arrows = db.execute("SELECT count(*) FROM arrows").fetchone()[0]
    rows = db.execute(_MATCH_SQL + "ORDER BY m.started DESC, m.id DESC LIMIT ?", (replays,)).fetchall()
    recent = []
    for row in rows:
        m = _match_dict(row)
        opts, archers, _ = from_header(m["header"])
        frames = [frame(mm, t) for mm, t in turns(m["header"], m["log"])]
        w = rules.SIDES.index(m["winner"]) if m["winner"] in ("A", "B") else (2 if m["winner"] == "draw" else None)
        recent.append(
            {
                "k": m["key"],
                "id": m["id"],
                "d": _date(m["started"]),
                "A": ", ".join(archers[0]),
                "B": ", ".join(archers[1]),
                "w": w,
                "res": "%s %d-%d" % (m["winner"] or "open", m["wins"][0], m["wins"][1]),
                "opt": options_text(opts),
                "claim": [opts.claim_a, opts.claim_b],
                "fr": frames,
            }
        )
    all_stats = stats.compute(store)
    h2h = stats.head_to_head(store)
    names = list(all_stats)
    return {
        "generated": _date(time.time()),
        "store": store.path,
        "matches": total[0],
        "games": n_games,
        "arrows": n_arrows,
        "first": _date(total[1], "%Y-%m-%d"),
        "last": _date(total[2], "%Y-%m-%d"),
        "devices": db.execute("SELECT count(*) FROM devices").fetchone()[0],
        "recent": recent,
        "older": total[0] - len(recent),
        "months": months(db, [m["id"] for m in recent]) if total[0] > len(recent) else [],
        "archers": archer_views(all_stats),
        "names": names,
        "h2h": {"%s|%s" % k: v for k, v in h2h.items()},
        "faces": face_log(db, faces_shown),
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
    env.filters["date"] = _date
    env.filters["pct"] = lambda v: "-" if v is None else "%d%%" % round(100 * v)
    env.filters["num"] = lambda v, d=2: "-" if v is None else ("%.*f" % (d, v) if isinstance(v, float) else str(v))
    env.filters["thousands"] = lambda v: "{:,}".format(v)
    return env.get_template("report.html.j2").render(
        d=data, sides=rules.SIDES, outcomes=rules.OUTCOMES, side_name=side_name
    )


def write(store, path, replays=REPLAYS):
    html = render(build(store, replays))
    tmp = path + ".part"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(html)
    os.replace(tmp, path)
    return len(html.encode("utf-8"))


def cmd_report(args):
    from scorebox.sync import open_store

    if args.replays < 0:
        from scorebox.cli import UserError

        raise UserError("--replays must be 0 or more")
    store = open_store(args.db)
    t0 = time.monotonic()
    size = write(store, args.out, args.replays)
    n = store.count()
    kind = "%.1f MB" % (size / 1e6) if size >= 1e6 else "%d KB" % round(size / 1e3)
    print(
        "report: %s (%d matches, %d replayable, %s, %.1f s)"
        % (os.path.abspath(args.out), n, min(n, args.replays), kind, time.monotonic() - t0)
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
    s = sub.add_parser("show", help="a stored match turn by turn, with the board after each turn")
    s.add_argument("match", help="the match's id (scorebox matches) or DEVICE/NUMBER")
    s.add_argument("--db", help="store file (default: in your user data folder)")
    s.set_defaults(run=cmd_show)
