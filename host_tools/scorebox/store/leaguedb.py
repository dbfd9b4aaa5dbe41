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

LEAGUE_VERSION = 1

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
            raise StoreError("%s: league schema %d is newer than this scorebox's (%d)" % (self.store.path, have, 1))
        if have == 0:
            self.db.script(SCHEMA)

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
