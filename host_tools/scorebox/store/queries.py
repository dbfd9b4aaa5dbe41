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
_MATCH_SQL = (
    "SELECT m.id, d.uid, m.number, m.started, m.header, m.log, m.winner, m.wins_a, m.wins_b, m.draws, "
    + _NAMES_SQL % ("A", "X")
    + ", "
    + _NAMES_SQL % ("B", "O")
    + ", d.name, json_extract(m.extras, '$.result.abandoned') FROM matches m JOIN devices d ON d.id = m.device_id "
)


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


def _match_dict(row):
    mid, uid, number, started, header, log, winner, wa, wb, dr, names_a, names_b, box_name, abandoned = row
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
        except (ValueError, OverflowError):  # past SQLite's 64-bit integers: no such match (#13 item 18)
            row = None
        if row is None:
            raise NotFound("no match %s in the store (give its id from `scorebox matches`, or DEVICE/NUMBER)" % ref)
        return _match_dict(row)

    def newest_matches(self, n):
        """The n newest matches (by start time), newest first."""
        n = min(n, 1 << 62)  # a count past SQLite's 64-bit integers means all of them (#13 item 18)
        rows = self.db.execute(_MATCH_SQL + "ORDER BY m.started DESC, m.id DESC LIMIT ?", (n,)).fetchall()
        return [_match_dict(r) for r in rows]

    def matches_by_box(self):
        """Every match, box by box in the order of their numbers, read a few thousand at a time."""
        cur = self.db.execute(_MATCH_SQL + "ORDER BY d.id, m.number")
        while True:
            rows = cur.fetchmany(5000)
            if not rows:
                return
            for row in rows:
                yield _match_dict(row)

    def matches_of(self, game, n=None):
        """The matches of the game with header id game as load_match gives them, oldest first
        (n: the newest n only, newest first): for a game whose moves the store keeps in the
        log only, which its report and figures replay."""
        where = "WHERE coalesce(json_extract(m.header, '$.game'), ?) = ? "
        args = (games.GAMES[0][0], game)  # a header without `game`: the registry's first's
        if n is None:
            rows = self.db.execute(_MATCH_SQL + where + "ORDER BY m.started, m.id", args).fetchall()
        else:
            rows = self.db.execute(
                _MATCH_SQL + where + "ORDER BY m.started DESC, m.id DESC LIMIT ?", args + (n,)
            ).fetchall()
        return [_match_dict(r) for r in rows]

    def finished_games(self):
        """{match id: games of it that ended}."""
        return dict(self.db.execute("SELECT match_id, count(*) FROM games WHERE winner IS NOT NULL GROUP BY match_id"))

    def totals(self):
        """How much the store holds: matches, games (the games rows, and a match of a game
        without them as one: log_games), arrows, boxes; the first and last start."""
        ids = list(log_games())
        matches, first, last, one = self.db.execute(
            "SELECT count(*), min(started), max(started), sum(json_extract(header, '$.game') IN (%s)) FROM matches"
            % ", ".join("?" * len(ids)),
            ids,
        ).fetchone()
        return {
            "matches": matches,
            "first": first,
            "last": last,
            "games": self.db.execute("SELECT count(*) FROM games").fetchone()[0] + (one or 0),
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
        rows = self.db.execute(
            "SELECT coalesce(strftime('%Y-%m', m.started, 'unixepoch', 'localtime'), 'no date') AS mo, count(*), "
            "sum(CASE WHEN json_extract(m.header, '$.game') IN (" + ", ".join("?" * len(ids)) + ") "
            "THEN m.winner IS NOT NULL "
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

    # Each takes only: the archer ids to read (None: every archer). An archer's are read through
    # the indexes on their id, and from the figures kept per archer as matches are stored
    # (store/figures.py), never from the arrows themselves: a few thousand rows at 100,000 matches.
    def match_results(self, only=None):
        """(archer id, side, match winner, matches) for every archer and result."""
        where, args = _only("x.archer_id", only)
        return self.db.execute(
            "SELECT x.archer_id, x.side, m.winner, count(*) FROM match_archers x "
            "JOIN match_results m ON m.match_id = x.match_id "
            "WHERE x.side IN ('A', 'B') "  # the games rows' sides: X and O's games are their logs (matches_of)
            + where
            + "GROUP BY x.archer_id, x.side, m.winner",
            args,
        )

    def game_results(self, only=None):
        """(archer id, side, game winner, games) for every archer and result."""
        where, args = _only("x.archer_id", only)
        return self.db.execute(
            "SELECT x.archer_id, x.side, g.winner, count(*) FROM match_archers x "
            "JOIN games g ON g.match_id = x.match_id WHERE 1 = 1 " + where + "GROUP BY x.archer_id, x.side, g.winner",
            args,
        )

    def arrow_counts(self, only=None):
        """(archer id, square, called, outcome, arrows, sum of values) by the archer who shot them."""
        where, args = _only("archer_id", only)
        return self.db.execute(
            "SELECT archer_id, square, called, outcome, sum(arrows), sum(value) FROM archer_arrows WHERE 1 = 1 "
            + where
            + "GROUP BY archer_id, square, called, outcome HAVING sum(arrows) != 0",
            args,
        )

    def claims_lost(self, only=None):
        """(archer id, claims lost): squares an archer had taken (a claim or a flip) that the other
        side flipped later in the same game (TTB-8)."""
        where, args = _only("archer_id", only)
        return self.db.execute(
            "SELECT archer_id, sum(claims_lost) FROM archer_matches WHERE claims_lost != 0 "
            + where
            + "GROUP BY archer_id",
            args,
        )

    def points_by_match(self, only=None):
        """(archer id, started, match id, arrows, points) per archer and match, oldest match first
        (points: the values of scored and claimed arrows, TTB-7)."""
        where, args = _only("archer_id", only)
        return self.db.execute(
            "SELECT archer_id, started, match_id, sum(arrows), sum(points) FROM archer_matches WHERE arrows != 0 "
            + where
            + "GROUP BY archer_id, started, match_id ORDER BY started, match_id",
            args,
        )

    def head_to_head(self, only=None):
        """(archer, opponent, archer's side, match winner, matches, games won, lost, drawn) for
        archers who met on opposite sides."""
        where, args = _only("x1.archer_id", only)
        return self.db.execute(
            "SELECT x1.archer_id, x2.archer_id, x1.side, m.winner, count(*), "
            "sum(CASE x1.side WHEN 'A' THEN m.wins_a ELSE m.wins_b END), "
            "sum(CASE x1.side WHEN 'A' THEN m.wins_b ELSE m.wins_a END), sum(m.draws) "
            "FROM match_archers x1 JOIN match_archers x2 ON x2.match_id = x1.match_id AND x2.side != x1.side "
            "JOIN match_results m ON m.match_id = x1.match_id WHERE x1.side IN ('A', 'B') "
            + where
            + "GROUP BY x1.archer_id, x2.archer_id, x1.side, m.winner",
            args,
        )


def _only(column, ids):
    """The WHERE clause's part that keeps the rows of archer ids (None: every archer's)."""
    if ids is None:
        return "", ()
    return "AND %s IN (%s) " % (column, ", ".join("?" * len(ids))), tuple(ids)
