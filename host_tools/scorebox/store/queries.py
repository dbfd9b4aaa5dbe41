"""What the reports and statistics read from the store, one named query each: the Store's
methods (store/sqlite.py; PostgreSQL's store/postgres.py too), giving plain rows or dicts.
The statistics read the derived tables (games, turns, arrows) the store filled by replaying
each match: a few GROUP BY queries, no replay. Each query is SQLAlchemy Core, run through
store/sql.py.
"""

import functools
import json

from sqlalchemy import Column, Integer, MetaData, Table, bindparam, case, cast, delete, func, literal_column, select
from sqlalchemy.schema import CreateTable
from sqlalchemy.types import Text

from scorebox.store import sql, tables
from scorebox.store.errors import NotFound
from scorebox_core import games


def _lit(value):
    """A string constant written into the statement (not a parameter): the same text each
    run, and the text an index's expression says (GAME)."""
    return literal_column("'%s'" % value, Text)


M = tables.matches.alias("m")  # the alias SCORE and GAME are written over
_D = tables.devices.alias("d")
_X = tables.match_archers.alias("x")
_A = tables.archers.alias("a")
# a match's first side's letter and its second's, in every game (the registry's)
_A_SIDES = tuple(_lit(s) for s in dict.fromkeys(g.SIDES[0] for g in games.every()))
_B_SIDES = tuple(_lit(s) for s in dict.fromkeys(g.SIDES[1] for g in games.every()))


def score_of(m):
    """The two numbers a match's result is told by (text.score_of): its game's SCORE in the
    result record the store keeps of it (store/checks.py), as JSON text; NULL where it keeps
    none. m: the matches table, or an alias of it."""
    return func.coalesce(*(sql.json_text(m.c.extras, "result." + g.SCORE) for g in games.every()))


def game_of(m):
    """A match's game: its header's, or the registry's first's for a header without one. The
    same expression as the index matches_by_game (tables.py), so that a filter on it uses the
    index."""
    return func.coalesce(sql.json_text(m.c.header, "game"), _lit(games.GAMES[0][0]))


SCORE = score_of(M)
GAME = game_of(M)


def _names(sides, joined):
    """A side's archers as the store names them now (renamed, or named after the match): a
    JSON array in their order (joined False), or the names joined by commas."""
    of_side = (_X.c.match_id == M.c.id, _X.c.side.in_(sides))
    pair = _X.join(_A, _A.c.id == _X.c.archer_id)
    if joined:
        return select(sql.strings(_A.c.name)).select_from(pair).where(*of_side).scalar_subquery()
    ordered = select(_A.c.name).select_from(pair).where(*of_side).order_by(_X.c.position).correlate(M).subquery()
    return select(sql.json_array(ordered.c.name)).scalar_subquery()


_FROM = M.join(_D, _D.c.id == M.c.device_id)
_MATCH = select(
    M.c.id,
    _D.c.uid,
    M.c.number,
    M.c.started,
    M.c.header,
    M.c.log,
    M.c.winner,
    M.c.wins_a,
    M.c.wins_b,
    M.c.draws,
    _names(_A_SIDES, False),
    _names(_B_SIDES, False),
    _D.c.name,
    sql.json_truth(M.c.extras, "result.abandoned"),
    SCORE,
).select_from(_FROM)
_MATCH_BY_KEY = _MATCH.where(_D.c.uid == bindparam("uid"), M.c.number == bindparam("number"))
_MATCH_BY_ID = _MATCH.where(M.c.id == bindparam("id"))
_NEWEST = _MATCH.order_by(M.c.started.desc(), M.c.id.desc()).limit(bindparam("n"))
_OF_GAME = _MATCH.where(GAME == bindparam("game"))
_OF_GAME_OLDEST = _OF_GAME.order_by(M.c.started, M.c.id)
_OF_GAME_NEWEST = _OF_GAME.order_by(M.c.started.desc(), M.c.id.desc()).limit(bindparam("n"))
_BY_BOX = (
    select(M.c.id, _D.c.uid, M.c.number, M.c.started, M.c.header, M.c.log, _D.c.name)
    .select_from(_FROM)
    .order_by(_D.c.id, M.c.number)
)

# A line of the matches list (Queries.match_list): what matches() gives but the counts of games and arrows.
_LISTED = (
    select(
        M.c.id,
        _D.c.uid,
        M.c.number,
        M.c.started,
        M.c.winner,
        M.c.wins_a,
        M.c.wins_b,
        M.c.draws,
        M.c.finished,
        _names(_A_SIDES, True),
        _names(_B_SIDES, True),
        GAME,
        _D.c.name,
        sql.json_truth(M.c.extras, "result.abandoned"),
        SCORE,
    )
    .select_from(_FROM)
    .where(M.c.id.in_(bindparam("ids", expanding=True)))
    .order_by(M.c.id.desc())
)
_G, _T, _R = tables.games.alias("g"), tables.turns.alias("t"), tables.arrows.alias("r")
# Every match, oldest first, with the counts of its games and arrows (Queries.matches).
_EVERY = (
    select(
        *_LISTED.selected_columns[:11],
        select(func.count()).select_from(_G).where(_G.c.match_id == M.c.id).scalar_subquery(),
        select(func.count())
        .select_from(_R.join(_T, _T.c.id == _R.c.turn_id).join(_G, _G.c.id == _T.c.game_id))
        .where(_G.c.match_id == M.c.id)
        .scalar_subquery(),
        *_LISTED.selected_columns[11:],
    )
    .select_from(_FROM)
    .order_by(M.c.id)
)
_LOG = select(tables.matches.c.log).where(tables.matches.c.id == bindparam("id"))
_LIST_KEYS = ("id", "device", "number", "started", "winner", "wins_a", "wins_b", "draws", "finished")


@functools.lru_cache(maxsize=64)
def _list_statements(day, game, box, archer, before):
    """(count, page) of Queries.match_list for the filters given (each a truth: its
    parameters are bound by name: first and end, game, box, archers, before, n)."""
    where = []
    # A day's matches are few: the other filters are then checked on them, not looked up
    # (`|| ''` and `+ 0` keep SQLite's planner off their indexes).
    if day:
        where.append(M.c.started >= bindparam("first"))
        where.append(M.c.started < bindparam("end"))
    if game:
        where.append((GAME.concat(_lit("")) if day else GAME) == bindparam("game"))
    if box:
        devices = tables.devices
        of_box = select(devices.c.id).where((devices.c.uid == bindparam("box")) | (devices.c.name == bindparam("box")))
        where.append((M.c.device_id + literal_column("0") if day else M.c.device_id).in_(of_box))
    source, key, count = M, M.c.id, func.count()
    archers = bindparam("archers", expanding=True)
    if archer:
        x = tables.match_archers
        if day:
            where.append((M.c.id + literal_column("0")).in_(select(x.c.match_id).where(x.c.archer_id.in_(archers))))
        else:  # walked down the archer's index, newest first: the page stops after n
            source = _X.join(M, M.c.id == _X.c.match_id) if where else _X
            key, count = _X.c.match_id, func.count(_X.c.match_id.distinct())
            where.insert(0, _X.c.archer_id.in_(archers))
    total = select(count).select_from(source).where(*where)  # no filter: count(*) is quick
    if before:
        where.append(key < bindparam("before"))
    # The page's ids first: the names and game of its matches only are then read.
    page = select(key).distinct().select_from(source).where(*where).order_by(key.desc()).limit(bindparam("n"))
    return total, page


_FINISHED = select(tables.games.c.match_id, func.count()).where(tables.games.c.winner.isnot(None))
_FINISHED = _FINISHED.group_by(tables.games.c.match_id)
# Each count from an index (matches_by_started, matches_by_game): not a row of matches is read.
_MATCH_TOTALS = select(func.count(), func.min(tables.matches.c.started), func.max(tables.matches.c.started))
_LOG_GAME_IDS = bindparam("log_games", expanding=True)  # log_games()
_OF_LOG_GAMES = select(func.count()).select_from(M).where(GAME.in_(_LOG_GAME_IDS))
_COUNTS = {t: select(func.count()).select_from(t) for t in (tables.games, tables.arrows, tables.devices)}

# The matches the report's months leave out (those it lists): a table, the ids may be many.
_SHOWN = Table(
    "report_shown", MetaData(), Column("id", tables.INT, primary_key=True, autoincrement=False), prefixes=["TEMPORARY"]
)
_SHOWN_MADE = CreateTable(_SHOWN, if_not_exists=True)
_SHOWN_EMPTIED = delete(_SHOWN)


def _months():
    # The matches of the games without games rows, read once from the index matches_by_game:
    # no header is read per match.
    inner = tables.matches.alias("lm")
    of_log_game = M.c.id.in_(select(inner.c.id).where(game_of(inner).in_(_LOG_GAME_IDS)))
    month = func.coalesce(sql.month(M.c.started), _lit("no date")).label("mo")
    won = [cast(M.c.winner.in_(s), Integer) for s in (_A_SIDES, _B_SIDES)]  # SQLite's truth: 1 or 0, NULL none
    return (
        select(
            month,
            func.count(),
            func.sum(
                case(
                    (of_log_game, cast(M.c.winner.isnot(None), Integer)),
                    else_=M.c.wins_a + M.c.wins_b + M.c.draws,
                )
            ),
            func.sum(won[0]),
            func.sum(won[1]),
            func.sum(cast(M.c.winner == _lit("draw"), Integer)),
            sql.distinct_strings(func.coalesce(_D.c.name, _D.c.uid)),
        )
        .select_from(_FROM)
        .where(M.c.id.notin_(select(_SHOWN.c.id)))
        .group_by(month)
        .order_by(month.desc())
    )


_MONTHS = _months()
_ARCHER_NAMES = select(tables.archers.c.id, tables.archers.c.name)


@functools.lru_cache(maxsize=32)
def _sums_statement(table, keys, count, more, only):
    """The sums of a table of figures by archer and keys, for the archers who have any (only:
    of the archers of the bound list "only")."""
    t = getattr(tables, table)
    group = [t.c.archer_id] + [t.c[k] for k in keys]
    s = select(*group, *(func.sum(t.c[c]) for c in (count,) + more))
    if only:
        s = s.where(t.c.archer_id.in_(bindparam("only", expanding=True)))
    return s.group_by(*group).having(func.sum(t.c[count]) != literal_column("0"))


@functools.lru_cache(maxsize=2)
def _points_statement(only):
    t = tables.archer_matches
    s = select(t.c.archer_id, t.c.started, t.c.match_id, t.c.arrows, t.c.points)
    if only:
        s = s.where(t.c.archer_id.in_(bindparam("only", expanding=True)))
    return s.order_by(t.c.archer_id, t.c.started, t.c.match_id)


def log_games():
    """{game id: its STORE} of the games whose stores keep no games, turns or arrows rows of a
    match (their moves stay in its log): those whose STORE's shots(log) counts from the log
    rather than from arrows rows (None, for every log)."""
    out = {}
    for gid in [g.ID for g in games.every()]:
        store = games.part(games.get(gid), "STORE")
        if store.shots([]) is not None:
            out[gid] = store
    return out


def score(text):
    """SCORE's column read: the two numbers, or None."""
    n = json.loads(text) if text else None
    return n if isinstance(n, list) and len(n) == 2 and all(isinstance(x, int) for x in n) else None


def _match_dict(row):
    mid, uid, number, started, header, log, winner, wa, wb, dr, names_a, names_b, box_name, abandoned, sc = row
    return {
        "abandoned": bool(abandoned),  # opened by mistake and given up with nothing in it (docs/journal.md)
        "names": [json.loads(names_a), json.loads(names_b)],
        "id": mid,
        "key": "%s/%d" % (uid, number),
        "device": uid,
        "box_name": box_name,  # the club's name for the box (`scorebox boxes`), or None
        "number": number,
        "started": started,
        "header": json.loads(header),
        "log": json.loads(log),
        "winner": winner,
        "wins": [wa, wb],
        "draws": dr,
        "score": score(sc),  # the two numbers its result is told by (text.said)
    }


def named(match):
    """A match's header with the archers the store names (the box's header keeps them as
    keyed: "A v B" named on the PC afterwards, or a renamed archer)."""
    h = match["header"]
    if all(match["names"]) and isinstance(h, dict):
        return dict(h, archers=match["names"])
    return h


class Queries:
    """The reports' reads: a part of the Store (self.db is its connection)."""

    # --- matches, whole ----------------------------------------------------------------------
    def matches(self):
        """Stored matches, oldest first, as dicts for listing."""
        rows = sql.run(self.db, _EVERY).fetchall()
        counts = log_games()  # the games whose lines count from the log (their surface's SHOTS)
        keys = ("id", "device", "number", "started", "winner", "wins_a", "wins_b", "draws", "finished")
        out = []
        for r in rows:
            d = dict(zip(keys, r[:9]))
            # side_a and side_b: the game's first and second side (A and B, X and O)
            d.update(side_a=r[9], side_b=r[10], games=r[11], arrows=r[12], game=r[13], box_name=r[14])
            d["abandoned"] = bool(r[15])  # opened by mistake, given up with nothing in it
            d["score"] = score(r[16])  # the two numbers its result is told by (text.said)
            if d["game"] in counts:
                log = json.loads(sql.run(self.db, _LOG, {"id": d["id"]}).fetchone()[0])
                d[games.get(d["game"]).SHOTS] = counts[d["game"]].shots(log)
            out.append(d)
        return out

    def load_match(self, ref):
        """A stored match by store id (as `scorebox matches` lists) or DEVICE/NUMBER."""
        dev, sep, num = str(ref).rpartition("/")
        try:
            if sep:
                row = sql.run(self.db, _MATCH_BY_KEY, {"uid": dev, "number": int(num)}).fetchone()
            else:
                row = sql.run(self.db, _MATCH_BY_ID, {"id": int(ref)}).fetchone()
        except (ValueError, OverflowError):  # past SQLite's 64-bit integers: no such match
            row = None
        if row is None:
            raise NotFound("no match %s in the store (give its id from `scorebox matches`, or DEVICE/NUMBER)" % ref)
        return _match_dict(row)

    def newest_matches(self, n):
        """The n newest matches (by start time), newest first."""
        n = min(n, 1 << 62)  # a count past SQLite's 64-bit integers means all of them
        return [_match_dict(r) for r in sql.run(self.db, _NEWEST, {"n": n}).fetchall()]

    def matches_by_box(self):
        """Every match, box by box in the order of their numbers, read a few thousand at a time,
        as the face-wear log reads them (games/ttb/wear.py): id, device, key, started, header,
        log and box_name only (neither its archers' names nor its result: at 100,000 matches
        these were a third of its time)."""
        cur = sql.run(self.db, _BY_BOX)
        while True:
            rows = cur.fetchmany(5000)
            if not rows:
                return
            for mid, uid, number, started, header, log, box_name in rows:
                yield {
                    "id": mid,
                    "device": uid,
                    "key": "%s/%d" % (uid, number),
                    "started": started,
                    "header": json.loads(header),
                    "log": json.loads(log),
                    "box_name": box_name,
                }

    def matches_of(self, game, n=None):
        """The matches of the game with header id game as load_match gives them, oldest first
        (n: the newest n only, newest first): for a game whose moves the store keeps in the
        log only, which its report and figures replay."""
        if n is None:
            rows = sql.run(self.db, _OF_GAME_OLDEST, {"game": game}).fetchall()
        else:
            rows = sql.run(self.db, _OF_GAME_NEWEST, {"game": game, "n": n}).fetchall()
        return [_match_dict(r) for r in rows]

    def match_list(self, archer=None, started=None, game=None, box=None, before=None, n=200):
        """A page of the matches list, newest stored first, and how many matches pass its
        filters: archer, a name (any case) among the match's archers; started, (first, end)
        seconds; game, a game id; box, a box's id or name; before: the matches stored before
        the one of that id only (the next page). Rows as matches() gives them, without the
        counts of games and arrows. Each filter is read through an index."""
        params = {"game": game, "box": box, "before": before, "n": n}
        if started is not None:
            params["first"], params["end"] = started
        if archer is not None:
            params["archers"] = [i for i, name in self.archer_names().items() if name.casefold() == archer.casefold()]
        total, page = _list_statements(
            started is not None, game is not None, box is not None, archer is not None, before is not None
        )
        count = sql.run(self.db, total, params).fetchone()[0]
        ids = [r[0] for r in sql.run(self.db, page, params)]
        return listed(self.db, ids), count

    def finished_games(self):
        """{match id: games of it that ended}."""
        return dict(sql.run(self.db, _FINISHED).fetchall())

    def totals(self):
        """How much the store holds: matches, games (the games rows, and a match of a game
        without them as one: log_games), arrows, boxes; the first and last start."""
        matches, first, last = sql.run(self.db, _MATCH_TOTALS).fetchone()
        one = sql.run(self.db, _OF_LOG_GAMES, {"log_games": list(log_games())}).fetchone()[0]
        counts = {t.name: sql.run(self.db, s).fetchone()[0] for t, s in _COUNTS.items()}
        return {
            "matches": matches,
            "first": first,
            "last": last,
            "games": counts["games"] + one,
            "arrows": counts["arrows"],
            "devices": counts["devices"],
        }

    def months(self, shown):
        """The matches but those with ids in shown, summed up by month (local time), newest first.

        games: a match's games that ended; a match of a game without games rows (log_games) is
        one game, once it ended (TTT-6: a Try-Tac-Toe row's wins are its two matches, not
        games). a, b: matches won by the first side (A, or X) and the second (B, or O), as the
        list shows them."""
        # DDL is not run's: its text, as this database spells it, on the connection
        self.db.execute(sql.compiled_text(_SHOWN_MADE, self.db.dialect), {})
        sql.run(self.db, _SHOWN_EMPTIED)
        sql.insert_rows(self.db, _SHOWN, ("id",), [(i,) for i in shown])
        rows = sql.run(self.db, _MONTHS, {"log_games": list(log_games())}).fetchall()
        keys = ("month", "matches", "games", "a", "b", "draws", "boxes")
        return [dict(zip(keys, r)) for r in rows]

    # --- the archers' statistics (docs/reports.md) ---------------------------------------------
    def archer_names(self):
        """{archer id: name}."""
        return {r[0]: r[1] for r in sql.run(self.db, _ARCHER_NAMES)}

    # Each takes only: the archer ids to read (None: every archer), and reads the figures kept
    # per archer as matches are stored (store/figures.py), never the arrows themselves: an
    # archer's are a few dozen rows and one per match they shot in, at 100,000 matches too.
    def match_results(self, only=None):
        """(archer id, side, match winner, matches) for every archer and result (sides A and
        B: X and O's games are their logs, matches_of)."""
        return self._sums(("side", "winner"), "matches", "archer_results", only)

    def game_results(self, only=None):
        """(archer id, side, game winner, games) for every archer and result."""
        return self._sums(("side", "winner"), "games", "archer_games", only)

    def arrow_counts(self, only=None):
        """(archer id, square, called, outcome, arrows, sum of values) by the archer who shot them."""
        return self._sums(("square", "called", "outcome"), "arrows", "archer_arrows", only, "value")

    def claims_lost(self, only=None):
        """(archer id, claims lost): squares an archer had taken (a claim or a flip) that the other
        side flipped later in the same game (TTB-8)."""
        return self._sums((), "lost", "archer_claims", only)

    def head_to_head(self, only=None):
        """(archer, opponent, archer's side, match winner, matches, games won, lost, drawn) for
        archers who met on opposite sides."""
        return self._sums(
            ("opponent_id", "side", "winner"), "matches", "archer_opponents", only, "won", "lost", "drawn"
        )

    def _sums(self, keys, count, table, only, *more):
        """The sums of a table of figures by archer and keys, for the archers who have any."""
        statement = _sums_statement(table, keys, count, more, only is not None)
        return sql.run(self.db, statement, {"only": list(only) if only is not None else None})

    def points_by_match(self, only=None):
        """(archer id, started, match id, arrows, points) per archer and match, archer by archer,
        each archer's oldest match first (points: the values of scored and claimed arrows,
        TTB-7). In the order of the index archer_matches_by_archer: no sort."""
        statement = _points_statement(only is not None)
        return sql.run(self.db, statement, {"only": list(only) if only is not None else None})


def listed(db, ids):
    """The matches of these ids, newest stored first, as Queries.match_list gives them (a
    league's pages list theirs so too: league/db.py)."""
    out = []
    for r in sql.run(db, _LISTED, {"ids": list(ids)}).fetchall():
        d = dict(zip(_LIST_KEYS, r[:9]))
        d.update(side_a=r[9], side_b=r[10], game=r[11], box_name=r[12], abandoned=bool(r[13]), score=score(r[14]))
        out.append(d)
    return out
