"""A league's accounts on its PostgreSQL store (docs/league.md): the clubs and
their tokens' hashes, which club each box belongs to, and the log of every push; its
seasons, its archers (a club's name), and what its pages read kept as matches are stored
(LeagueDB.keep): each match's archers as the league's, the counts per club and day, and the
totals per club and archer, season and game.

These tables are a league's own schema beside the store's (store/schema.py), made here by
the first `scorebox league add-club` or `scorebox serve --league`, not a migration: a
club's SQLite store never holds accounts (and its backups' schema check would have to
allow them), and the store's migrations stay one list for both kinds of store. They are
made under the store's write lock, so that two commands never make them at once;
LEAGUE_VERSION is their version, for a later change.
"""

import time

from scorebox.store.errors import StoreError
from scorebox.store.queries import _GAME_SQL, _LIST_KEYS, _LIST_SQL, score
from scorebox_core import games

LEAGUE_VERSION = 1

# The league's tables at 1.0, their baseline. A later version adds an upgrade beside it (from
# N-1 to N) and a test that opens a 1.0 league.
SCHEMA = """
CREATE TABLE league_version (version INTEGER NOT NULL);
INSERT INTO league_version VALUES (1);
CREATE TABLE league_clubs (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token_id TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL,
    added DOUBLE PRECISION NOT NULL
);
CREATE TABLE league_boxes (
    uid TEXT PRIMARY KEY,
    club_id BIGINT NOT NULL REFERENCES league_clubs(id),
    claimed DOUBLE PRECISION NOT NULL
);
CREATE INDEX league_boxes_by_club ON league_boxes(club_id);
CREATE TABLE league_pushes (
    id BIGSERIAL PRIMARY KEY,
    club_id BIGINT REFERENCES league_clubs(id),
    push_id TEXT,
    pushed DOUBLE PRECISION NOT NULL,
    remote TEXT,
    sent INTEGER NOT NULL,
    stored INTEGER NOT NULL,
    held INTEGER NOT NULL,
    status INTEGER NOT NULL,
    outcome TEXT NOT NULL
);
CREATE UNIQUE INDEX league_pushes_once ON league_pushes(club_id, push_id) WHERE status = 200;
CREATE INDEX league_pushes_by_club ON league_pushes(club_id, id);
-- Seasons, archers per club, and the standings and archers' records kept as matches are
-- stored (LeagueDB.keep).
CREATE TABLE league_seasons (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    first_day DATE NOT NULL,
    last_day DATE NOT NULL,
    added DOUBLE PRECISION NOT NULL,
    CHECK (first_day <= last_day)
);
CREATE TABLE league_archers (
    id BIGSERIAL PRIMARY KEY,
    club_id BIGINT NOT NULL REFERENCES league_clubs(id),
    archer_id BIGINT NOT NULL REFERENCES archers(id),
    UNIQUE (club_id, archer_id)
);
CREATE TABLE league_match_sides (
    match_id BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    side TEXT NOT NULL,
    position INTEGER NOT NULL,
    archer_id BIGINT NOT NULL REFERENCES league_archers(id),
    game TEXT NOT NULL,
    day DATE,
    outcome TEXT,
    PRIMARY KEY (match_id, side, position)
);
CREATE INDEX league_match_sides_by_archer ON league_match_sides(archer_id, day DESC NULLS LAST, match_id DESC);
CREATE TABLE league_club_days (
    club_id BIGINT NOT NULL REFERENCES league_clubs(id),
    game TEXT NOT NULL,
    day DATE,
    matches BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL
);
CREATE INDEX league_club_days_by_day ON league_club_days(day);
CREATE TABLE league_club_totals (
    club_id BIGINT NOT NULL REFERENCES league_clubs(id),
    season_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    matches BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    PRIMARY KEY (club_id, season_id, game)
);
CREATE INDEX league_club_totals_by_season ON league_club_totals(season_id);
CREATE TABLE league_archer_totals (
    archer_id BIGINT NOT NULL REFERENCES league_archers(id),
    season_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    matches BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    PRIMARY KEY (archer_id, season_id, game)
);
CREATE INDEX league_archer_totals_by_season ON league_archer_totals(season_id);
-- The clubs of a match's sides when they are not both its box's club's (a guest archer's
-- home club, from the push's `clubs`): a row for each side of such a match, none for the
-- others. Not kept from the matches (keep_all keeps it): what the club said. By club, newest
-- first, for a club's page (LeagueDB.club_matches).
CREATE TABLE league_match_clubs (
    match_id BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    side TEXT NOT NULL,
    club_id BIGINT NOT NULL REFERENCES league_clubs(id),
    PRIMARY KEY (match_id, side)
);
CREATE INDEX league_match_clubs_by_club ON league_match_clubs(club_id, match_id);
-- The report's count of matches per season and game (a match of two clubs once), kept as
-- the totals are (LeagueDB.keep).
CREATE TABLE league_match_totals (
    season_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    matches BIGINT NOT NULL,
    PRIMARY KEY (season_id, game)
);
"""
# The standings' points rule (docs/league.md): 2 a win, 1 a draw, 0 a loss.
WIN_POINTS, DRAW_POINTS = 2, 1
# The side that plays for the club whose box holds the match when both sides are that
# club's: each game's first (A, X) (docs/league.md, "Whose win a match is").
HOME = tuple(g.SIDES[0] for g in games.every())
AWAY = tuple(g.SIDES[1] for g in games.every())
# The day a match was played: its box's clock (the header's, matches.started) as a date in
# the server's time zone (the store's session's: store/postgres.py); none for a match whose
# box had no clock set, or one no calendar holds.
_DAY = "CASE WHEN m.started >= 0 AND m.started < 253402300800 THEN CAST(to_timestamp(m.started) AS DATE) END"
_CLUB_OF = "JOIN devices d ON d.id = m.device_id JOIN league_boxes b ON b.uid = d.uid "  # a match's box's club
# A side's club: its league_match_clubs row's (a match with a guest side), else its box's.
_SIDE_CLUB = "LEFT JOIN league_match_clubs g ON g.match_id = x.match_id AND g.side = x.side "
# The day LeagueDB.refile moves a match's kept counts by (?3): the day they were kept with
# (league_match_sides.day), not the one the session's time zone gives now.
_KEPT_DAY = "CAST(?3 AS DATE)"
# What LeagueDB.keep adds for the matches with ids ?1..?2. A side's archers are its club's
# (_SIDE_CLUB); an archer's outcome is W when their side won, L when the other side did, D a
# draw, none without a result. league_club_days is only added to (one batch's rows beside
# another's); the totals are kept per season (ALL: every match) and added to in place.
ALL = 0
_IN = "(%s)" % ", ".join("'%s'" % side for side in HOME)
_SIDES = "(%s)" % ", ".join("'%s'" % side for side in HOME + AWAY)
_COUNTS = "matches, wins, draws, losses"
_OUTCOMES = (
    "count(*), count(CASE WHEN outcome = 'W' THEN 1 END), count(CASE WHEN outcome = 'D' THEN 1 END), "
    "count(CASE WHEN outcome = 'L' THEN 1 END)"
)
_ADDED = " DO UPDATE SET " + ", ".join("%s = t.%s + EXCLUDED.%s" % (c, c, c) for c in _COUNTS.split(", "))
# Each kept day's season, and ALL: the buckets a day's counts are added to.
_BUCKETS = (
    "JOIN (SELECT %d AS id, NULL AS first_day, NULL AS last_day UNION ALL "
    "SELECT id, first_day, last_day FROM league_seasons) z ON z.id = %d OR day BETWEEN z.first_day AND z.last_day "
    % (ALL, ALL)
)


def _views(day):
    """Whose win, draw or loss each match of ?1..?2 is (docs/league.md, "Whose win a match
    is"): a row (club, game, day, outcome) for its box's club, seen from its HOME side, when
    both sides are one club's; else a row for each side's club, seen from that side. day:
    the SQL of its day."""
    return (
        "SELECT coalesce(g.club_id, b.club_id) AS club_id, " + _GAME_SQL + " AS game, " + day + " AS day, "
        "CASE WHEN m.winner = 'draw' THEN 'D' WHEN g.side IS NULL AND m.winner IN " + _IN + " OR m.winner = g.side "
        "THEN 'W' WHEN m.winner IN "
        + _SIDES
        + " THEN 'L' END AS outcome FROM matches m "
        + _CLUB_OF
        + "LEFT JOIN league_match_clubs g ON g.match_id = m.id WHERE m.id BETWEEN ?1 AND ?2 "
        "AND (g.side IS NULL OR g.side IN " + _IN + " OR g.club_id <> "
        "(SELECT h.club_id FROM league_match_clubs h WHERE h.match_id = m.id AND h.side IN " + _IN + "))"
    )


def _club_counts(day):
    """The counts of those per club, game and day: a table k of club_id, game, day and _COUNTS."""
    return (
        "(SELECT club_id, game, day, " + _OUTCOMES + " FROM (" + _views(day) + ") AS v GROUP BY 1, 2, 3) "
        "AS k (club_id, game, day, " + _COUNTS + ") "
    )


def _club_buckets(day):
    """... added to each day's buckets."""
    return (
        "(SELECT club_id, z.id, game, sum(matches), sum(wins), sum(draws), sum(losses) FROM "
        + _club_counts(day)
        + _BUCKETS
        + "GROUP BY 1, 2, 3) AS k (club_id, season_id, game, "
        + _COUNTS
        + ") "
    )


def _keep(day):
    """keep's statements, each match's day the SQL day."""
    return (
        "INSERT INTO league_archers (club_id, archer_id) SELECT DISTINCT coalesce(g.club_id, b.club_id), x.archer_id "
        "FROM match_archers x JOIN matches m ON m.id = x.match_id "
        + _CLUB_OF
        + _SIDE_CLUB
        + "WHERE x.match_id BETWEEN ?1 AND ?2 ON CONFLICT DO NOTHING",
        "INSERT INTO league_match_sides (match_id, side, position, archer_id, game, day, outcome) "
        "SELECT x.match_id, x.side, x.position, a.id, " + _GAME_SQL + ", " + day + ", "
        "CASE WHEN m.winner = x.side THEN 'W' WHEN m.winner = 'draw' THEN 'D' WHEN m.winner IS NOT NULL THEN 'L' END "
        "FROM match_archers x JOIN matches m ON m.id = x.match_id "
        + _CLUB_OF
        + _SIDE_CLUB
        + "JOIN league_archers a ON a.club_id = coalesce(g.club_id, b.club_id) AND a.archer_id = x.archer_id "
        "WHERE x.match_id BETWEEN ?1 AND ?2",
        "INSERT INTO league_club_days (club_id, game, day, " + _COUNTS + ") SELECT * FROM " + _club_counts(day),
        # the totals: the batch's counts per club, game and day (as above) added to each day's buckets
        "INSERT INTO league_club_totals AS t (club_id, season_id, game, "
        + _COUNTS
        + ") SELECT * FROM "
        + _club_buckets(day)
        + "ON CONFLICT (club_id, season_id, game)"
        + _ADDED,
        # the report's count: each match once, whatever its clubs (refile leaves it as it is)
        "INSERT INTO league_match_totals AS t (season_id, game, matches) SELECT z.id, game, count(*) FROM "
        "(SELECT " + _GAME_SQL + " AS game, " + day + " AS day FROM matches m " + _CLUB_OF + "WHERE m.id BETWEEN ?1 "
        "AND ?2) AS v " + _BUCKETS + "GROUP BY 1, 2 ON CONFLICT (season_id, game) DO UPDATE SET matches = "
        "t.matches + EXCLUDED.matches",
        "INSERT INTO league_archer_totals AS t (archer_id, season_id, game, " + _COUNTS + ") "
        "SELECT archer_id, z.id, game, "
        + _OUTCOMES
        + " FROM league_match_sides "
        + _BUCKETS
        + "WHERE match_id BETWEEN ?1 AND ?2 GROUP BY 1, 2, 3 ON CONFLICT (archer_id, season_id, game)"
        + _ADDED,
    )


_KEEP = _keep(_DAY)
_KEEP_AGAIN = _keep(_KEPT_DAY)  # a refiled match's, by the day it was kept with
# A new season's totals, from the kept days and sides (?1: its id, ?2 and ?3 its days).
_SEASON = (
    "INSERT INTO league_club_totals (club_id, season_id, game, " + _COUNTS + ") "
    "SELECT club_id, ?1, game, sum(matches), sum(wins), sum(draws), sum(losses) FROM league_club_days "
    "WHERE day BETWEEN ?2 AND ?3 GROUP BY 1, 2, 3",
    "INSERT INTO league_archer_totals (archer_id, season_id, game, " + _COUNTS + ") "
    "SELECT archer_id, ?1, game, " + _OUTCOMES + " FROM league_match_sides WHERE day BETWEEN ?2 AND ?3 "
    "GROUP BY 1, 2, 3",
    "INSERT INTO league_match_totals (season_id, game, matches) SELECT ?1, game, count(DISTINCT match_id) "
    "FROM league_match_sides WHERE day BETWEEN ?2 AND ?3 GROUP BY 1, 2",
)
# A match's archers' totals taken back (?1: its id), before it is filed under other archers
# (LeagueDB.refile), as keep added them.
_TAKE_BACK = (
    "UPDATE league_archer_totals AS t SET "
    + ", ".join("%s = t.%s - k.%s" % (c, c, c) for c in _COUNTS.split(", "))
    + " FROM (SELECT archer_id, z.id, game, "
    + _OUTCOMES
    + " FROM league_match_sides "
    + _BUCKETS
    + "WHERE match_id = ?1 GROUP BY 1, 2, 3) AS k (archer_id, season_id, game, "
    + _COUNTS
    + ") WHERE t.archer_id = k.archer_id AND t.season_id = k.season_id AND t.game = k.game"
)
# A match's clubs' counts taken back (?1, ?2: its id; ?3: the day they were kept by), before
# its sides are filed under other clubs (LeagueDB.refile): a row of that day taking the
# counts away, the totals less them.
_CLUBS_TAKE_BACK = (
    "INSERT INTO league_club_days (club_id, game, day, "
    + _COUNTS
    + ") SELECT club_id, game, day, "
    + ", ".join("-" + c for c in _COUNTS.split(", "))
    + " FROM "
    + _club_counts(_KEPT_DAY),
    "UPDATE league_club_totals AS t SET "
    + ", ".join("%s = t.%s - k.%s" % (c, c, c) for c in _COUNTS.split(", "))
    + " FROM "
    + _club_buckets(_KEPT_DAY)
    + "WHERE t.club_id = k.club_id AND t.season_id = k.season_id AND t.game = k.game",
)
# A match's sides' clubs (?1: its id; ?2, ?3: its HOME side's club and the other's): a row a
# side unless both are its box's club's.
_SET_CLUBS = (
    "DELETE FROM league_match_clubs WHERE match_id = ?1",
    "INSERT INTO league_match_clubs (match_id, side, club_id) SELECT DISTINCT x.match_id, x.side, "
    "CASE WHEN x.side IN " + _IN + " THEN CAST(?2 AS BIGINT) ELSE CAST(?3 AS BIGINT) END "
    "FROM match_archers x JOIN matches m ON m.id = x.match_id "
    + _CLUB_OF
    + "WHERE x.match_id = ?1 AND NOT (b.club_id = ?2 AND b.club_id = ?3)",
)
_KEPT = ("league_archer_totals", "league_club_totals", "league_club_days", "league_match_sides", "league_match_totals")


class LeagueDB:
    """The league's tables on a PostgreSQL Store (store/postgres.py), through its connection
    and write transactions."""

    def __init__(self, store):
        if not hasattr(store.db, "script"):
            raise StoreError(
                "%s: a league's server runs on a PostgreSQL store: give --db postgresql://..." % store.path
            )
        self.store = store
        self.db = store.db
        self._sides_clubs = {}  # {(box uid, number): [club ids]} of a push's new matches keep files (push)
        if self._version() != LEAGUE_VERSION:
            store._write(self._make)
        store.keepers = (self.keep,)  # a push's matches (add_checked) kept in the league's tables too

    def _version(self):
        if self.db.execute("SELECT to_regclass('league_version')").fetchone()[0] is None:
            return 0
        return self.db.execute("SELECT version FROM league_version").fetchone()[0]

    def _make(self):
        have = self._version()  # again under the lock: another command may have made them
        if have > LEAGUE_VERSION:
            raise StoreError(
                "%s: league schema %d is newer than this scorebox's (%d)" % (self.store.path, have, LEAGUE_VERSION)
            )
        if have == 0:
            self.db.script(SCHEMA)

    # --- what is kept as matches are stored ---------------------------------------------------
    def keep(self, first, last):
        """The league's archers, their sides, the counts per club, game and day, the totals
        per club and archer, season and game, and the report's count of matches per season
        and game (league_match_totals) of the matches with ids first..last, inside the
        caller's write transaction (the Store's add_checked calls it for each batch:
        Store.keepers). A match of a box no club has claimed is not the league's:
        nothing is kept of it. A match of a push's sides_clubs is filed under its sides' clubs
        first, so that its archers are kept as their clubs' from the start."""
        if self._sides_clubs:
            q = (
                "SELECT m.id, d.uid, m.number FROM matches m JOIN devices d ON d.id = m.device_id "
                "WHERE m.id BETWEEN ? AND ?"
            )
            for mid, uid, number in self.db.execute(q, (first, last)).fetchall():
                clubs = self._sides_clubs.get((uid, number))
                if clubs is not None:
                    self.db.execute(_SET_CLUBS[1], (mid, clubs[0], clubs[1]))
        for sql in _KEEP:
            self.db.execute(sql, (first, last))

    def push(self, fn, sides_clubs):
        """fn() in one write transaction, a push's (league/server.py): all it stores and files
        is kept, or none of it. The new matches it stores (Store.add_checked) of sides_clubs,
        {(box uid, number): [the club id of the first side, of the other]}, are kept under
        those clubs (keep)."""

        def run():
            self._sides_clubs = sides_clubs
            try:
                return fn()
            finally:
                self._sides_clubs = {}

        return self.store._write(run)

    def names(self, uid, numbers):
        """{number: (match id, [side A's names, side B's], [side A's club id, side B's])} of
        the matches of numbers the league holds from box uid, named as the league files them
        (each game's first side first); a side's club is its box's club's unless the push
        named another (league_match_clubs)."""
        numbers = sorted(set(numbers))
        if not numbers:
            return {}
        out = {}
        rows = self.db.execute(
            "SELECT m.number, m.id, x.side IN "
            + _IN
            + ", a.name, coalesce(g.club_id, b.club_id) FROM matches m "
            + _CLUB_OF
            + "JOIN match_archers x ON x.match_id = m.id JOIN archers a ON a.id = x.archer_id "
            + _SIDE_CLUB
            + "WHERE d.uid = ? AND m.number IN (%s) ORDER BY m.number, x.position" % ",".join("?" * len(numbers)),
            [uid] + numbers,
        )
        for number, mid, home, name, club in rows:
            got = out.setdefault(number, (mid, [[], []], [None, None]))
            got[1][0 if home else 1].append(name)
            got[2][0 if home else 1] = club
        return out

    def refile(self, match_id, names=None, clubs=None):
        """File a held match under other archers or other clubs, inside the caller's write
        transaction. names: side A's and side B's as the club's store names it now (None: as
        they are), set as Store.name_match sets them (its turns and figures too); clubs: the
        club ids of its first side and its other (None: as they are). What keep kept of it is
        moved with it, by the day it was kept with (whatever the session's time zone now): its
        sides and its archers' totals (every season's), and, when its clubs change, its clubs'
        counts (a day's row taking them back, the totals less them). A league archer it leaves
        with no match is no league archer any more."""
        kept = self.db.execute("SELECT archer_id, day FROM league_match_sides WHERE match_id = ?", (match_id,))
        kept = kept.fetchall()
        if not kept:  # a match of a box no club claimed: nothing kept of it
            if names is not None:
                self.store.name_match(match_id, names[0] + names[1])
            return
        old, day = sorted({r[0] for r in kept}), kept[0][1]
        args = (match_id, match_id, day)
        self.db.execute(_TAKE_BACK, (match_id,))
        if clubs is not None:
            for sql in _CLUBS_TAKE_BACK:
                self.db.execute(sql, args)
        self.db.execute("DELETE FROM league_match_sides WHERE match_id = ?", (match_id,))
        if clubs is not None:
            for sql in _SET_CLUBS:
                self.db.execute(sql, (match_id, clubs[0], clubs[1]))
            for sql in _KEEP_AGAIN[2:4]:  # its clubs' counts, as they are now
                self.db.execute(sql, args)
        if names is not None:
            self.store.name_match(match_id, names[0] + names[1])
        ids = ",".join("?" * len(old))
        self.db.execute("DELETE FROM league_archer_totals WHERE matches = 0 AND archer_id IN (%s)" % ids, old)
        for sql in (_KEEP_AGAIN[0], _KEEP_AGAIN[1], _KEEP_AGAIN[-1]):  # the archers, their sides and totals
            self.db.execute(sql, args)
        self.db.execute(
            "DELETE FROM league_archers a WHERE a.id IN (%s) AND NOT EXISTS "
            "(SELECT 1 FROM league_match_sides s WHERE s.archer_id = a.id) AND NOT EXISTS "
            "(SELECT 1 FROM league_archer_totals t WHERE t.archer_id = a.id)" % ids,
            old,
        )

    def keep_all(self):
        """What keep keeps, made again from every stored match, in a write transaction of its
        own: for a league whose matches were stored another way (tests/support/leaguegen.py's
        bulk load). The league's archers keep their ids (their pages' addresses)."""
        self.store._write(self._keep_all)

    def _keep_all(self):
        for table in _KEPT:
            self.db.execute("DELETE FROM " + table)
        last = self.db.execute("SELECT coalesce(max(id), 0) FROM matches").fetchone()[0]
        self.keep(0, last)

    # --- clubs ---------------------------------------------------------------------------------
    def add_club(self, name, token_id, token_hash):
        def run():
            if self.db.execute("SELECT 1 FROM league_clubs WHERE name = ?", (name,)).fetchone():
                raise StoreError("the league has a club named %s already" % name)
            self.db.execute(
                "INSERT INTO league_clubs (name, token_id, token_hash, added) VALUES (?, ?, ?, ?)",
                (name, token_id, token_hash, time.time()),
            )

        self.store._write(run)

    def club_by_token(self, token_id):
        """(club id, name, token hash) of the club whose token has this public part, or None."""
        return self.db.execute(
            "SELECT id, name, token_hash FROM league_clubs WHERE token_id = ?", (token_id,)
        ).fetchone()

    def clubs(self):
        return [
            {"id": i, "name": n, "added": a}
            for i, n, a in self.db.execute("SELECT id, name, added FROM league_clubs ORDER BY id")
        ]

    # --- boxes ---------------------------------------------------------------------------------
    def box_owners(self, uids):
        """{uid: club id} of those of uids that a club has claimed."""
        uids = sorted(set(uids))
        if not uids:
            return {}
        q = "SELECT uid, club_id FROM league_boxes WHERE uid IN (%s)" % ",".join("?" * len(uids))
        return dict(self.db.execute(q, uids).fetchall())

    def claim_boxes(self, club_id, uids):
        """Make the boxes of uids that no club has yet club_id's; returns {uid: owner} after,
        read under the write lock (another club may have claimed one first)."""

        def run():
            for uid in sorted(set(uids)):
                self.db.execute(
                    "INSERT INTO league_boxes (uid, club_id, claimed) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (uid, club_id, time.time()),
                )
            return self.box_owners(uids)

        return self.store._write(run)

    # --- the pushes' log ------------------------------------------------------------------------
    def push_seen(self, club_id, push_id):
        """Whether club_id's push push_id was taken before (a refused one may come again)."""
        q = "SELECT 1 FROM league_pushes WHERE club_id = ? AND push_id = ? AND status = 200"
        return self.db.execute(q, (club_id, push_id)).fetchone() is not None

    def log_push(self, club_id, push_id, remote, sent, stored, held, status, outcome):
        """Log one push, refused ones too. False when this club's push push_id was taken
        already (a replay that came in at the same moment as the first)."""
        cur = self.db.execute(
            "INSERT INTO league_pushes (club_id, push_id, pushed, remote, sent, stored, held, status, outcome) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (club_id, push_id) WHERE status = 200 DO NOTHING",
            (club_id, push_id, time.time(), remote, sent, stored, held, status, outcome),
        )
        return cur.rowcount == 1

    def pushes(self):
        """The log, oldest first: dicts of club (its name, None: no club's token), push_id, pushed,
        remote, sent, stored, held, status, outcome."""
        keys = ("club", "push_id", "pushed", "remote", "sent", "stored", "held", "status", "outcome")
        rows = self.db.execute(
            "SELECT c.name, p.push_id, p.pushed, p.remote, p.sent, p.stored, p.held, p.status, p.outcome "
            "FROM league_pushes p LEFT JOIN league_clubs c ON c.id = p.club_id ORDER BY p.id"
        )
        return [dict(zip(keys, r)) for r in rows]

    # --- the league's pages (league/pages.py) --------------------------------------------------
    def standings(self, game=None, season=None):
        """Every club's line, best first: dicts of id, name, matches, wins, draws, losses,
        points. A match counts for its sides' clubs (docs/league.md, "Whose win a match is"):
        a match between two clubs for both, its side's win the other's loss, a draw both's; a
        match of one club's two sides once, for that club, its win when its HOME side won, its
        loss when the other did; a match with no result yet counts in matches only. game: one
        game's matches only (a game id); season: one season's (a dict of seasons()). Read
        from the totals kept per club, season and game (keep), not from the matches."""
        on, args = _bucket("k", game, season)
        q = (
            "SELECT c.id, c.name, " + _sums("k") + " FROM league_clubs c "
            "LEFT JOIN league_club_totals k ON k.club_id = c.id" + on + " GROUP BY c.id, c.name"
        )
        return _ranked(dict(zip(("id", "name"), r[:2]), **_tally(r[2:])) for r in self.db.execute(q, args))

    # --- seasons ---------------------------------------------------------------------------------
    def add_season(self, name, first, last):
        """A season of the days first..last (dates), its totals made from what is kept of the
        matches played in its days; refused when its name is taken or its days overlap
        another's (a match falls in one season at most)."""

        def run():
            if self.db.execute("SELECT 1 FROM league_seasons WHERE name = ?", (name,)).fetchone():
                raise StoreError("the league has a season named %s already" % name)
            other = self.db.execute(
                "SELECT name, first_day, last_day FROM league_seasons WHERE first_day <= ? AND last_day >= ? "
                "ORDER BY first_day",
                (last, first),
            ).fetchone()
            if other:
                raise StoreError(
                    "season %s (%s to %s) has some of these days: seasons do not overlap"
                    % (other[0], other[1], other[2])
                )
            sid = self.db.execute(
                "INSERT INTO league_seasons (name, first_day, last_day, added) VALUES (?, ?, ?, ?) RETURNING id",
                (name, first, last, time.time()),
            ).fetchone()[0]
            for sql in _SEASON:  # its matches pushed before it was added
                self.db.execute(sql, (sid, first, last))

        self.store._write(run)

    def seasons(self):
        """The seasons, first first: dicts of id, name, first, last (dates)."""
        rows = self.db.execute("SELECT id, name, first_day, last_day FROM league_seasons ORDER BY first_day")
        return [{"id": i, "name": n, "first": f, "last": la} for i, n, f, la in rows]

    # --- archers across clubs ------------------------------------------------------------------
    def archers(self, game=None, season=None):
        """Every league archer who played (in the season, the game), best first as the
        standings: dicts of id, name, club_id, club, matches, wins, draws, losses, points."""
        on, args = _bucket("k", game, season)
        q = (
            "SELECT a.id, s.name, c.id, c.name, " + _sums("k") + " FROM league_archer_totals k "
            "JOIN league_archers a ON a.id = k.archer_id JOIN archers s ON s.id = a.archer_id "
            "JOIN league_clubs c ON c.id = a.club_id WHERE 1 = 1" + on + " GROUP BY a.id, s.name, c.id, c.name"
        )
        keys = ("id", "name", "club_id", "club")
        return _ranked(dict(zip(keys, r[:4]), **_tally(r[4:])) for r in self.db.execute(q, args))

    def archer(self, archer_id):
        """{id, name, club_id, club} of a league archer, or None."""
        row = self.db.execute(
            "SELECT a.id, s.name, c.id, c.name FROM league_archers a JOIN archers s ON s.id = a.archer_id "
            "JOIN league_clubs c ON c.id = a.club_id WHERE a.id = ?",
            (archer_id,),
        ).fetchone()
        return row and dict(zip(("id", "name", "club_id", "club"), row))

    def record(self, archer_id, season=None):
        """An archer's record, {game id: tally}, and "all": their tally of every game; a tally
        is a dict of matches, wins, draws, losses, points. Read from their kept totals."""
        on, args = _bucket("k", None, season)
        q = "SELECT game, " + _sums("k") + " FROM league_archer_totals k WHERE archer_id = ?" + on + " GROUP BY game"
        out = {g: _tally(r) for g, *r in self.db.execute(q, [archer_id] + args)}
        out["all"] = _tally([sum(t[k] for t in out.values()) for k in _TALLY_KEYS])
        return out

    def archer_matches(self, archer_id, season=None, versus=None, n=100):
        """An archer's n newest matches (by the day played, then as stored), as club_matches
        gives them, each with their side and outcome (W, D, L or None). versus: only those
        against that league archer."""
        on, args = _within("s", season)
        q = "SELECT s.match_id, s.side, s.outcome FROM league_match_sides s "
        if versus is not None:
            q += "JOIN league_match_sides o ON o.match_id = s.match_id AND o.side <> s.side AND o.archer_id = ? "
            args.insert(0, versus)
        q += "WHERE s.archer_id = ?" + on + " ORDER BY s.day DESC NULLS LAST, s.match_id DESC LIMIT ?"
        args.insert(1 if versus is not None else 0, archer_id)
        theirs = {}
        for mid, side, outcome in self.db.execute(q, args + [n]):
            theirs.setdefault(mid, (side, outcome))  # one line a match, on a side they shot twice on
        rows = {m["id"]: m for m in self._list(list(theirs))}
        return [dict(rows[mid], side=side, outcome=outcome) for mid, (side, outcome) in theirs.items()]

    def opponents(self, archer_id, season=None):
        """The league archers a league archer shot against, most matches first: dicts of id,
        name, club_id, club and the tally of the archer's matches against them."""
        on, args = _within("s", season)
        q = (
            "SELECT o.archer_id, count(*), count(CASE WHEN s.outcome = 'W' THEN 1 END), "
            "count(CASE WHEN s.outcome = 'D' THEN 1 END), count(CASE WHEN s.outcome = 'L' THEN 1 END) "
            "FROM league_match_sides s JOIN league_match_sides o ON o.match_id = s.match_id AND o.side <> s.side "
            "WHERE s.archer_id = ?" + on + " GROUP BY o.archer_id"
        )
        tallies = {r[0]: _tally(r[1:]) for r in self.db.execute(q, [archer_id] + args)}
        names = self._archers(list(tallies))
        out = [dict(names[i], **t) for i, t in tallies.items()]
        out.sort(key=lambda r: (-r["matches"], r["name"].casefold(), r["club"].casefold()))
        return out

    def _archers(self, ids):
        """{id: {id, name, club_id, club}} of these league archers."""
        rows = self.db.execute(
            "SELECT a.id, s.name, c.id, c.name FROM league_archers a JOIN archers s ON s.id = a.archer_id "
            "JOIN league_clubs c ON c.id = a.club_id WHERE a.id IN (%s)" % (", ".join("?" * len(ids)) or "NULL"),
            ids,
        )
        return {r[0]: dict(zip(("id", "name", "club_id", "club"), r)) for r in rows}

    # --- the league's report (league/pages.py) -----------------------------------------------
    def counts(self, season=None):
        """{matches: per game id, pushes: taken, refused: pushes refused} of the season (a
        push by the day it came, in the server's time zone), or of all."""
        on, args = _bucket("k", None, season)
        # kept per season and game (keep), a match between two clubs once
        q = "SELECT game, matches FROM league_match_totals k WHERE 1 = 1" + on
        matches = dict(self.db.execute(q, args).fetchall())
        q = (
            "SELECT count(CASE WHEN status = 200 THEN 1 END), count(CASE WHEN status <> 200 THEN 1 END) "
            "FROM league_pushes"
        )
        args = []
        if season is not None:
            q += " WHERE CAST(to_timestamp(pushed) AS DATE) BETWEEN ? AND ?"
            args = [season["first"], season["last"]]
        taken, refused = self.db.execute(q, args).fetchone()
        return {"matches": matches, "pushes": taken, "refused": refused}

    def club(self, club_id):
        """{id, name, added} of a club, or None."""
        row = self.db.execute("SELECT id, name, added FROM league_clubs WHERE id = ?", (club_id,)).fetchone()
        return row and {"id": row[0], "name": row[1], "added": row[2]}

    def club_boxes(self, club_id):
        """A club's boxes, first claimed first: dicts of uid, name (the box's, if it has one),
        claimed, matches."""
        rows = self.db.execute(
            "SELECT b.uid, d.name, b.claimed, (SELECT count(*) FROM matches m WHERE m.device_id = d.id) "
            "FROM league_boxes b LEFT JOIN devices d ON d.uid = b.uid WHERE b.club_id = ? ORDER BY b.claimed, b.uid",
            (club_id,),
        )
        return [{"uid": u, "name": n, "claimed": c, "matches": k} for u, n, c, k in rows]

    def club_matches(self, club_id, n=200):
        """A club's n newest stored matches, newest first, as _list gives them: its boxes'
        and those its archers shot as guests on other clubs' boxes (filed by those clubs: a
        match between two clubs counts for both), these read by league_match_clubs_by_club."""
        # Its sides' rows, newest first, whose match's box is none of the club's: each row's box
        # looked up as the index gives it, against the club's boxes read once (a join was
        # planned as a merge reading the matches' whole index).
        q = (
            "SELECT id FROM (SELECT m.id FROM matches m " + _CLUB_OF + "WHERE b.club_id = ?1 "
            "ORDER BY m.id DESC LIMIT ?2) AS own UNION ALL SELECT id FROM (SELECT g.match_id AS id "
            "FROM league_match_clubs g WHERE g.club_id = ?1 AND (SELECT m.device_id FROM matches m "
            "WHERE m.id = g.match_id) NOT IN (SELECT d.id FROM devices d JOIN league_boxes b ON b.uid = d.uid "
            "WHERE b.club_id = ?1) ORDER BY g.match_id DESC LIMIT ?2) AS away ORDER BY id DESC LIMIT ?2"
        )
        return self._list([r[0] for r in self.db.execute(q, (club_id, n))])

    def _list(self, ids):
        """The matches of these ids, newest stored first, as Store.match_list gives them, each
        with filed_by: {id, name} of the club that filed it (its box's), or None."""
        rows = self.db.execute(
            _LIST_SQL + "WHERE m.id IN (%s) ORDER BY m.id DESC" % (", ".join("?" * len(ids)) or "NULL"), ids
        )
        out = []
        for r in rows:
            d = dict(zip(_LIST_KEYS, r[:9]))
            d.update(side_a=r[9], side_b=r[10], game=r[11], box_name=r[12], abandoned=bool(r[13]), score=score(r[14]))
            out.append(d)
        uids = sorted({d["device"] for d in out})
        filers = self.db.execute(
            "SELECT b.uid, c.id, c.name FROM league_boxes b JOIN league_clubs c ON c.id = b.club_id "
            "WHERE b.uid IN (%s)" % (", ".join("?" * len(uids)) or "NULL"),
            uids,
        )
        filers = {uid: {"id": cid, "name": name} for uid, cid, name in filers}
        for d in out:
            d["filed_by"] = filers.get(d["device"])
        return out

    def club_pushes(self, club_id, n=100):
        """A club's n latest pushes from the log, newest first, for its public page: dicts of
        pushed, sent, stored, held, status, outcome (not the address it came from: the log's
        `league pushes` keeps that)."""
        keys = ("pushed", "sent", "stored", "held", "status", "outcome")
        rows = self.db.execute(
            "SELECT pushed, sent, stored, held, status, outcome FROM league_pushes "
            "WHERE club_id = ? ORDER BY id DESC LIMIT ?",
            (club_id, n),
        )
        return [dict(zip(keys, r)) for r in rows]

    def box_club(self, uid):
        """(club id, name) of the club that owns a box, or None."""
        return self.db.execute(
            "SELECT c.id, c.name FROM league_boxes b JOIN league_clubs c ON c.id = b.club_id WHERE b.uid = ?", (uid,)
        ).fetchone()


_TALLY_KEYS = ("matches", "wins", "draws", "losses")


def _sums(alias):
    """The sums of a kept table's four counts, as SQL."""
    return ", ".join("coalesce(sum(%s.%s), 0)" % (alias, k) for k in _TALLY_KEYS)


def _bucket(alias, game, season):
    """(SQL, args) of the conditions on a kept totals table's season and game: " AND ..."."""
    sql, args = " AND %s.season_id = ?" % alias, [ALL if season is None else season["id"]]
    if game is not None:
        sql, args = sql + " AND %s.game = ?" % alias, args + [game]
    return sql, args


def _within(alias, season):
    """(SQL, args) of the condition on league_match_sides' day: " AND ...", or none."""
    if season is None:
        return "", []
    return " AND %s.day BETWEEN ? AND ?" % alias, [season["first"], season["last"]]


def _tally(counts):
    """{matches, wins, draws, losses, points} of these four counts."""
    out = dict(zip(_TALLY_KEYS, counts))
    out["points"] = WIN_POINTS * out["wins"] + DRAW_POINTS * out["draws"]
    return out


def _ranked(rows):
    """Rows best first: points, then wins, then name."""
    return sorted(rows, key=lambda r: (-r["points"], -r["wins"], r["name"].casefold()))


def current(seasons, today):
    """Of seasons (first first), the one that holds today, or else the last one begun before
    it; None when none has begun."""
    begun = [x for x in seasons if x["first"] <= today]
    return begun[-1] if begun else None
