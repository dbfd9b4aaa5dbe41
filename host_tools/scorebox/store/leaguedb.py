"""A league's accounts on its PostgreSQL store (issue 26, docs/league.md): the clubs and
their tokens' hashes, which club each box belongs to, and the log of every push.

These tables are a league's own schema beside the store's (store/schema.py), made here by
the first `scorebox league add-club` or `scorebox serve --league`, not a migration: a
club's SQLite store never holds accounts (and its backups' schema check would have to
allow them), and the store's migrations stay one list for both kinds of store. They are
made under the store's write lock, so that two commands never make them at once;
LEAGUE_VERSION is their version, for a later change.
"""

import time

from scorebox.store.errors import StoreError
from scorebox.store.queries import _GAME_SQL, _LIST_KEYS, _LIST_SQL
from scorebox_core import games

LEAGUE_VERSION = 2

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
"""
# What takes the league's tables from version N-1 to N (a league made at 1 is upgraded).
UPGRADES = {
    # the league's pages (league/pages.py): a club's boxes and its pushes, read by club
    2: """
CREATE INDEX league_boxes_by_club ON league_boxes(club_id);
CREATE INDEX league_pushes_by_club ON league_pushes(club_id, id);
UPDATE league_version SET version = 2;
""",
}
# The standings' points rule (docs/league.md): 2 a win, 1 a draw, 0 a loss.
WIN_POINTS, DRAW_POINTS = 2, 1
# The side that plays for the club whose box holds the match: each game's first (A, X).
# Until the store's archers belong to clubs (store/rows.py keeps one list by name), this is
# the only side a match says is the club's (docs/league.md).
HOME = tuple(g.SIDES[0] for g in games.every())
AWAY = tuple(g.SIDES[1] for g in games.every())


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
        if self._version() != LEAGUE_VERSION:
            store._write(self._make)

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
            have = 1
        for version in range(have + 1, LEAGUE_VERSION + 1):
            self.db.script(UPGRADES[version])

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
    def standings(self, game=None):
        """Every club's line, best first: dicts of id, name, matches, wins, draws, losses,
        points. A club's matches are those of its boxes; it won one its HOME side won, lost
        one its other side won; a match with no result yet counts in matches only. game:
        one game's matches only (a game id). Counted in one query over the matches' box
        index (and the game's index, matches_by_game)."""
        home, away = ", ".join("?" * len(HOME)), ", ".join("?" * len(AWAY))
        on, args = "", list(HOME) + list(AWAY)
        if game is not None:
            on, args = " AND " + _GAME_SQL + " = ?", args + [game]
        q = (
            "SELECT c.id, c.name, count(m.id), "
            "coalesce(sum(CASE WHEN m.winner IN (%s) THEN 1 ELSE 0 END), 0), "
            "coalesce(sum(CASE WHEN m.winner = 'draw' THEN 1 ELSE 0 END), 0), "
            "coalesce(sum(CASE WHEN m.winner IN (%s) THEN 1 ELSE 0 END), 0) "
            "FROM league_clubs c LEFT JOIN league_boxes b ON b.club_id = c.id "
            "LEFT JOIN devices d ON d.uid = b.uid LEFT JOIN matches m ON m.device_id = d.id%s "
            "GROUP BY c.id, c.name" % (home, away, on)
        )
        out = []
        for cid, name, n, won, drawn, lost in self.db.execute(q, args):
            points = WIN_POINTS * won + DRAW_POINTS * drawn
            out.append(
                {"id": cid, "name": name, "matches": n, "wins": won, "draws": drawn, "losses": lost, "points": points}
            )
        out.sort(key=lambda r: (-r["points"], -r["wins"], r["name"].casefold()))
        return out

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
        """A club's n newest stored matches, newest first, as Store.match_list gives them."""
        ids = [
            r[0]
            for r in self.db.execute(
                "SELECT m.id FROM matches m JOIN devices d ON d.id = m.device_id "
                "JOIN league_boxes b ON b.uid = d.uid WHERE b.club_id = ? ORDER BY m.id DESC LIMIT ?",
                (club_id, n),
            )
        ]
        rows = self.db.execute(
            _LIST_SQL + "WHERE m.id IN (%s) ORDER BY m.id DESC" % (", ".join("?" * len(ids)) or "NULL"), ids
        )
        out = []
        for r in rows:
            d = dict(zip(_LIST_KEYS, r[:9]))
            d.update(side_a=r[9], side_b=r[10], game=r[11], box_name=r[12], abandoned=bool(r[13]))
            out.append(d)
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
