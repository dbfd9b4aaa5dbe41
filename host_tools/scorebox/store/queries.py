"""What the reports and statistics read from the SQLite store, one named query each: the
Store's methods (store/sqlite.py), giving plain rows or dicts. The statistics read the
derived tables (games, turns, arrows) the store filled by replaying each match: a few
GROUP BY queries, no replay.
"""

import json

from scorebox.store.errors import NotFound
from scorebox_core import games

_NAMES_SQL = (  # a side's archers as the store names them now (renamed, or named after the match)
    "(SELECT json_group_array(name) FROM (SELECT a.name FROM match_archers x JOIN archers a ON a.id = x.archer_id "
    "WHERE x.match_id = m.id AND x.side IN ('%s', '%s') ORDER BY x.position))"
)  # sides A and B, or a Try-Tac-Toe game's X and O
# The two numbers a match's result is told by (text.score_of): its game's SCORE in the result
# record the store keeps of it (store/checks.py), as JSON text; NULL where it keeps none.
SCORE_SQL = "coalesce(%s)" % ", ".join("json_extract(m.extras, '$.result.%s')" % g.SCORE for g in games.every())
_MATCH_SQL = (
    "SELECT m.id, d.uid, m.number, m.started, m.header, m.log, m.winner, m.wins_a, m.wins_b, m.draws, "
    + _NAMES_SQL % ("A", "X")
    + ", "
    + _NAMES_SQL % ("B", "O")
    + ", d.name, json_extract(m.extras, '$.result.abandoned'), "
    + SCORE_SQL
    + " FROM matches m JOIN devices d ON d.id = m.device_id "
)


# A match's game: its header's, or the registry's first's for a header without one. The same
# expression as the index matches_by_game (tables.py), so that a filter on it uses the index.
GAME_SQL = "coalesce(json_extract(m.header, '$.game'), '%s')" % games.GAMES[0][0]
# A line of the matches list (Queries.match_list): what matches() gives but the counts of games and arrows.
_LIST_SQL = (
    "SELECT m.id, d.uid, m.number, m.started, m.winner, m.wins_a, m.wins_b, m.draws, m.finished, "
    "(SELECT group_concat(a.name, ',') FROM match_archers x JOIN archers a ON a.id = x.archer_id "
    " WHERE x.match_id = m.id AND x.side IN ('A', 'X')), "
    "(SELECT group_concat(a.name, ',') FROM match_archers x JOIN archers a ON a.id = x.archer_id "
    " WHERE x.match_id = m.id AND x.side IN ('B', 'O')), "
    + GAME_SQL
    + ", d.name, json_extract(m.extras, '$.result.abandoned'), "
    + SCORE_SQL
    + " FROM matches m JOIN devices d ON d.id = m.device_id "
)
_LIST_KEYS = ("id", "device", "number", "started", "winner", "wins_a", "wins_b", "draws", "finished")


def log_games():
    """{game id: its STORE} of the games whose stores keep no games, turns or arrows rows of a
    match (their moves stay in its log): those whose STORE's shots(log) counts from the log
    rather than from arrows rows (None, for every log)."""
    out = {}
    for gid, _ in games.GAMES:
        store = games.part(games.get(gid), "STORE")
        if store.shots([]) is not None:
            out[gid] = store
    return out


def score(text):
    """SCORE_SQL's column read: the two numbers, or None."""
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
    """The reports' reads: a part of the SQLite Store (self.db is its connection)."""

    # --- matches, whole ----------------------------------------------------------------------
    def load_match(self, ref):
        """A stored match by store id (as `scorebox matches` lists) or DEVICE/NUMBER."""
        dev, sep, num = str(ref).rpartition("/")
        try:
            if sep:
                row = self.db.execute(_MATCH_SQL + "WHERE d.uid = ? AND m.number = ?", (dev, int(num))).fetchone()
            else:
                row = self.db.execute(_MATCH_SQL + "WHERE m.id = ?", (int(ref),)).fetchone()
        except (ValueError, OverflowError):  # past SQLite's 64-bit integers: no such match
            row = None
        if row is None:
            raise NotFound("no match %s in the store (give its id from `scorebox matches`, or DEVICE/NUMBER)" % ref)
        return _match_dict(row)

    def newest_matches(self, n):
        """The n newest matches (by start time), newest first."""
        n = min(n, 1 << 62)  # a count past SQLite's 64-bit integers means all of them
        rows = self.db.execute(_MATCH_SQL + "ORDER BY m.started DESC, m.id DESC LIMIT ?", (n,)).fetchall()
        return [_match_dict(r) for r in rows]

    def matches_by_box(self):
        """Every match, box by box in the order of their numbers, read a few thousand at a time,
        as the face-wear log reads them (report/faces.py): id, device, key, started, header,
        log and box_name only (neither its archers' names nor its result: at 100,000 matches
        these were a third of its time)."""
        cur = self.db.execute(
            "SELECT m.id, d.uid, m.number, m.started, m.header, m.log, d.name "
            "FROM matches m JOIN devices d ON d.id = m.device_id ORDER BY d.id, m.number"
        )
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
        where = "WHERE " + GAME_SQL + " = ? "
        args = (game,)
        if n is None:
            rows = self.db.execute(_MATCH_SQL + where + "ORDER BY m.started, m.id", args).fetchall()
        else:
            rows = self.db.execute(
                _MATCH_SQL + where + "ORDER BY m.started DESC, m.id DESC LIMIT ?", args + (n,)
            ).fetchall()
        return [_match_dict(r) for r in rows]

    def match_list(self, archer=None, started=None, game=None, box=None, before=None, n=200):
        """A page of the matches list, newest stored first, and how many matches pass its
        filters: archer, a name (any case) among the match's archers; started, (first, end)
        seconds; game, a game id; box, a box's id or name; before: the matches stored before
        the one of that id only (the next page). Rows as matches() gives them, without the
        counts of games and arrows. Each filter is read through an index."""
        where, args = [], []
        # A day's matches are few: the other filters are then checked on them, not looked up
        # (`|| ''` and `+ 0` keep SQLite's planner off their indexes).
        day = started is not None
        if day:
            where.append("m.started >= ? AND m.started < ?")
            args += started
        if game is not None:
            where.append(GAME_SQL + (" || '' = ?" if day else " = ?"))
            args.append(game)
        if box is not None:
            where.append(
                "m.device_id%s IN (SELECT id FROM devices WHERE uid = ? OR name = ?)" % (" + 0" if day else "")
            )
            args += [box, box]
        source, key, count = "matches m", "m.id", "count(*)"
        if archer is not None:
            ids = [i for i, name in self.archer_names().items() if name.casefold() == archer.casefold()]
            marks = ", ".join("?" * len(ids)) or "NULL"
            if day:
                where.append("m.id + 0 IN (SELECT match_id FROM match_archers WHERE archer_id IN (%s))" % marks)
                args += ids
            else:  # walked down the archer's index, newest first: the page stops after n
                source = "match_archers x" + (" JOIN matches m ON m.id = x.match_id" if where else "")
                key, count = "x.match_id", "count(DISTINCT x.match_id)"
                where.insert(0, "x.archer_id IN (%s)" % marks)
                args = ids + args
        cond = "".join(" %s %s" % ("AND" if i else "WHERE", w) for i, w in enumerate(where))  # none: count(*) is quick
        total = self.db.execute("SELECT %s FROM %s%s" % (count, source, cond), args).fetchone()[0]
        if before is not None:
            cond += " %s %s < ?" % ("AND" if where else "WHERE", key)
            args.append(before)
        # The page's ids first: the names and game of its matches only are then read.
        page = "SELECT DISTINCT %s FROM %s%s ORDER BY %s DESC LIMIT ?" % (key, source, cond, key)
        ids = [r[0] for r in self.db.execute(page, args + [n])]
        return listed(self.db, ids), total

    def finished_games(self):
        """{match id: games of it that ended}."""
        return dict(self.db.execute("SELECT match_id, count(*) FROM games WHERE winner IS NOT NULL GROUP BY match_id"))

    def totals(self):
        """How much the store holds: matches, games (the games rows, and a match of a game
        without them as one: log_games), arrows, boxes; the first and last start."""
        ids = list(log_games())
        # Each count from an index (matches_by_started, matches_by_game): not a row of matches is read.
        matches, first, last = self.db.execute("SELECT count(*), min(started), max(started) FROM matches").fetchone()
        one = self.db.execute(
            "SELECT count(*) FROM matches m WHERE " + GAME_SQL + " IN (%s)" % ", ".join("?" * len(ids)), ids
        ).fetchone()[0]
        return {
            "matches": matches,
            "first": first,
            "last": last,
            "games": self.db.execute("SELECT count(*) FROM games").fetchone()[0] + one,
            "arrows": self.db.execute("SELECT count(*) FROM arrows").fetchone()[0],
            "devices": self.db.execute("SELECT count(*) FROM devices").fetchone()[0],
        }

    def months(self, shown):
        """The matches but those with ids in shown, summed up by month (local time), newest first.

        games: a match's games that ended; a match of a game without games rows (log_games) is
        one game, once it ended (TTT-6: a Try-Tac-Toe row's wins are its two matches, not
        games). a, b: matches won by the first side (A, or X) and the second (B, or O), as the
        list shows them."""
        ids = list(log_games())
        self.db.execute("CREATE TEMP TABLE IF NOT EXISTS report_shown (id INTEGER PRIMARY KEY)")
        self.db.execute("DELETE FROM report_shown")
        self.db.executemany("INSERT INTO report_shown VALUES (?)", [(i,) for i in shown])
        # The matches of those games, read once from the index matches_by_game: no header is read per match.
        of_log_game = "m.id IN (SELECT id FROM matches m WHERE %s IN (%s))" % (GAME_SQL, ", ".join("?" * len(ids)))
        rows = self.db.execute(
            "SELECT coalesce(strftime('%Y-%m', m.started, 'unixepoch', 'localtime'), 'no date') AS mo, count(*), "
            "sum(CASE WHEN " + of_log_game + " THEN m.winner IS NOT NULL "
            "ELSE m.wins_a + m.wins_b + m.draws END), sum(m.winner IN ('A', 'X')), sum(m.winner IN ('B', 'O')), "
            "sum(m.winner = 'draw'), group_concat(DISTINCT coalesce(d.name, d.uid)) "
            "FROM matches m JOIN devices d ON d.id = m.device_id "
            "WHERE m.id NOT IN (SELECT id FROM report_shown) GROUP BY mo ORDER BY mo DESC",
            ids,
        ).fetchall()
        keys = ("month", "matches", "games", "a", "b", "draws", "boxes")
        return [dict(zip(keys, r)) for r in rows]

    # --- the archers' statistics (docs/reports.md) ---------------------------------------------
    def archer_names(self):
        """{archer id: name}."""
        return {r[0]: r[1] for r in self.db.execute("SELECT id, name FROM archers")}

    # Each takes only: the archer ids to read (None: every archer), and reads the figures kept
    # per archer as matches are stored (store/figures.py), never the arrows themselves: an
    # archer's are a few dozen rows and one per match they shot in, at 100,000 matches too.
    def match_results(self, only=None):
        """(archer id, side, match winner, matches) for every archer and result (sides A and
        B: X and O's games are their logs, matches_of)."""
        return self._sums("side, winner", "matches", "archer_results", only)

    def game_results(self, only=None):
        """(archer id, side, game winner, games) for every archer and result."""
        return self._sums("side, winner", "games", "archer_games", only)

    def arrow_counts(self, only=None):
        """(archer id, square, called, outcome, arrows, sum of values) by the archer who shot them."""
        return self._sums("square, called, outcome", "arrows", "archer_arrows", only, "value")

    def claims_lost(self, only=None):
        """(archer id, claims lost): squares an archer had taken (a claim or a flip) that the other
        side flipped later in the same game (TTB-8)."""
        return self._sums(None, "lost", "archer_claims", only)

    def head_to_head(self, only=None):
        """(archer, opponent, archer's side, match winner, matches, games won, lost, drawn) for
        archers who met on opposite sides."""
        return self._sums("opponent_id, side, winner", "matches", "archer_opponents", only, "won", "lost", "drawn")

    def _sums(self, keys, count, table, only, *more):
        """The sums of a table of figures by archer and keys, for the archers who have any."""
        where, args = _only("archer_id", only)
        group = "archer_id" + (", " + keys if keys else "")
        sums = ", ".join("sum(%s)" % c for c in (count,) + more)
        return self.db.execute(
            "SELECT %s, %s FROM %s WHERE 1 = 1 %sGROUP BY %s HAVING sum(%s) != 0"
            % (group, sums, table, where, group, count),
            args,
        )

    def points_by_match(self, only=None):
        """(archer id, started, match id, arrows, points) per archer and match, archer by archer,
        each archer's oldest match first (points: the values of scored and claimed arrows,
        TTB-7). In the order of the index archer_matches_by_archer: no sort."""
        where, args = _only("archer_id", only)
        return self.db.execute(
            "SELECT archer_id, started, match_id, arrows, points FROM archer_matches WHERE 1 = 1 "
            + where
            + "ORDER BY archer_id, started, match_id",
            args,
        )


def _only(column, ids):
    """The WHERE clause's part that keeps the rows of archer ids (None: every archer's)."""
    if ids is None:
        return "", ()
    return "AND %s IN (%s) " % (column, ", ".join("?" * len(ids))), tuple(ids)


def listed(db, ids):
    """The matches of these ids, newest stored first, as Queries.match_list gives them (a
    league's pages list theirs so too: league/db.py)."""
    rows = db.execute(_LIST_SQL + "WHERE m.id IN (%s) ORDER BY m.id DESC" % (", ".join("?" * len(ids)) or "NULL"), ids)
    out = []
    for r in rows.fetchall():
        d = dict(zip(_LIST_KEYS, r[:9]))
        d.update(side_a=r[9], side_b=r[10], game=r[11], box_name=r[12], abandoned=bool(r[13]), score=score(r[14]))
        out.append(d)
    return out
