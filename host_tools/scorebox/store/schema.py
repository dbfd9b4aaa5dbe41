"""The SQLite store's schema: its migrations, and how a file's schema is held to them."""

import sqlite3

from scorebox.store import figures

SCHEMA_VERSION = 8

# Migration N takes a store from user_version N-1 to N. Append, never edit.
MIGRATIONS = [
    """
    CREATE TABLE devices (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,
        firmware TEXT,
        first_seen REAL NOT NULL,
        last_seen REAL NOT NULL
    );
    CREATE TABLE archers (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        device_id INTEGER NOT NULL REFERENCES devices(id),
        number INTEGER NOT NULL,
        started REAL,
        options TEXT NOT NULL,
        header TEXT NOT NULL,
        log TEXT NOT NULL,
        extras TEXT NOT NULL,
        winner TEXT,
        wins_a INTEGER NOT NULL,
        wins_b INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        finished INTEGER NOT NULL,
        imported REAL NOT NULL,
        UNIQUE (device_id, number)
    );
    CREATE TABLE match_archers (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        side TEXT NOT NULL,
        position INTEGER NOT NULL,
        archer_id INTEGER NOT NULL REFERENCES archers(id),
        distance REAL,
        shaft_mm REAL,
        PRIMARY KEY (match_id, side, position)
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        first TEXT NOT NULL,
        winner TEXT,
        reason TEXT,
        rounds INTEGER NOT NULL,
        UNIQUE (match_id, number)
    );
    CREATE TABLE turns (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        round INTEGER NOT NULL,
        side TEXT NOT NULL,
        archer_id INTEGER REFERENCES archers(id),
        UNIQUE (game_id, number)
    );
    CREATE TABLE arrows (
        turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        square INTEGER,
        value INTEGER NOT NULL,
        called INTEGER NOT NULL,
        x_hit INTEGER,
        outcome TEXT NOT NULL,
        PRIMARY KEY (turn_id, number)
    ) WITHOUT ROWID;
    CREATE INDEX turns_by_archer ON turns(archer_id);
    """,
    """
    CREATE TABLE quarantine (
        id INTEGER PRIMARY KEY,
        device_id INTEGER NOT NULL REFERENCES devices(id),
        file TEXT NOT NULL,
        offset INTEGER NOT NULL,
        data BLOB NOT NULL,
        imported REAL NOT NULL,
        UNIQUE (device_id, file, offset, data)
    );
    """,
    # The club's roster (store/roster.py): a retired archer leaves the box's list, keeps history.
    """
    ALTER TABLE archers ADD COLUMN retired INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE archers ADD COLUMN added REAL;
    CREATE TABLE archer_renames (
        old TEXT NOT NULL,
        archer_id INTEGER NOT NULL REFERENCES archers(id),
        renamed REAL NOT NULL
    );
    """,
    # The store's identity, made once (issue 13, item 20): a box acknowledges only to the
    # store it belongs to (sync/pull.py). A box's name, set by `scorebox boxes` (issue 12).
    """
    CREATE TABLE store_info (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    INSERT INTO store_info (key, value) VALUES ('id', lower(hex(randomblob(8))));
    ALTER TABLE devices ADD COLUMN name TEXT;
    """,
    # An archer's full name from a member list, beside the box's name made from it (#21 item 6).
    """
    ALTER TABLE archers ADD COLUMN full_name TEXT;
    """,
    # The desk's pages at club scale (issue 24 item 6): an archer's figures kept as matches
    # are stored (store/figures.py, filled for the matches already there by FILLS below), and
    # the indexes of an archer's matches and of the matches list's filters.
    """
    CREATE TABLE archer_matches (
        archer_id INTEGER NOT NULL REFERENCES archers(id),
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        started REAL,
        arrows INTEGER NOT NULL,
        points INTEGER NOT NULL
    );
    CREATE INDEX archer_matches_by_archer ON archer_matches(archer_id, started, match_id, arrows, points);
    CREATE INDEX archer_matches_by_match ON archer_matches(match_id);
    CREATE TABLE archer_results (
        archer_id INTEGER NOT NULL REFERENCES archers(id),
        side TEXT NOT NULL,
        winner TEXT,
        matches INTEGER NOT NULL
    );
    CREATE INDEX archer_results_by_archer ON archer_results(archer_id);
    CREATE TABLE archer_games (
        archer_id INTEGER NOT NULL REFERENCES archers(id),
        side TEXT NOT NULL,
        winner TEXT,
        games INTEGER NOT NULL
    );
    CREATE INDEX archer_games_by_archer ON archer_games(archer_id);
    CREATE TABLE archer_opponents (
        archer_id INTEGER NOT NULL REFERENCES archers(id),
        opponent_id INTEGER NOT NULL REFERENCES archers(id),
        side TEXT NOT NULL,
        winner TEXT,
        matches INTEGER NOT NULL,
        won INTEGER NOT NULL,
        lost INTEGER NOT NULL,
        drawn INTEGER NOT NULL
    );
    CREATE INDEX archer_opponents_by_archer ON archer_opponents(archer_id);
    CREATE TABLE archer_arrows (
        archer_id INTEGER NOT NULL REFERENCES archers(id),
        square INTEGER,
        called INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        arrows INTEGER NOT NULL,
        value INTEGER NOT NULL
    );
    CREATE INDEX archer_arrows_by_archer ON archer_arrows(archer_id);
    CREATE TABLE archer_claims (
        archer_id INTEGER NOT NULL REFERENCES archers(id),
        lost INTEGER NOT NULL
    );
    CREATE INDEX archer_claims_by_archer ON archer_claims(archer_id);
    CREATE INDEX match_archers_by_archer ON match_archers(archer_id, match_id);
    CREATE INDEX matches_by_box ON matches(device_id, id);
    CREATE INDEX matches_by_started ON matches(started);
    CREATE INDEX matches_by_game ON matches((coalesce(json_extract(header, '$.game'), 'tictacbow')), id);
    """,
    # A box's space as its last sync read it (SPACE), for the Boxes page and `scorebox boxes`
    # (issue 24 item 2): free and total bytes, and the matches that still fit as the sync
    # counts them (device/space.py). NULL until the box's first sync after this migration.
    """
    ALTER TABLE devices ADD COLUMN space_free INTEGER;
    ALTER TABLE devices ADD COLUMN space_total INTEGER;
    ALTER TABLE devices ADD COLUMN matches_fit INTEGER;
    """,
    # A guest archer's home club, as the league names it (issue 26, docs/league.md "Archers
    # across clubs"): `scorebox archers club`, the desk's Archers page; NULL: the club's own.
    """
    ALTER TABLE archers ADD COLUMN club TEXT;
    """,
]
# What a migration fills from the rows already there, after its statements.
FILLS = {6: lambda db: figures.fill(db, 0, db.execute("SELECT coalesce(max(id), 0) FROM matches").fetchone()[0])}


def migrate(db, version):
    """Migration `version` on db's main store, inside the caller's write transaction (each
    statement on its own: executescript would commit it)."""
    for stmt in MIGRATIONS[version - 1].split(";"):
        if stmt.strip():
            db.execute(stmt)
    if version in FILLS:
        FILLS[version](db)
    db.execute("PRAGMA main.user_version = %d" % version)


def schema(db):
    """{(type, name): SQL} of every object in db: tables, indexes, triggers, views (SQLite's
    query-planner statistics aside), whitespace normalised."""
    rows = db.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    return {(t, n): sql and " ".join(sql.split()) for t, n, sql in rows if not n.startswith("sqlite_stat")}


def schema_problems(db):
    """What in db's schema is not exactly what this scorebox's migrations make for its
    version: a trigger, a view, another table or index, a table with other columns
    (issue 13: a backup carrying triggers that rewrite arrows). Empty when it is ours."""
    version = min(db.execute("PRAGMA user_version").fetchone()[0], SCHEMA_VERSION)
    mem = sqlite3.connect(":memory:")
    try:
        for migration in MIGRATIONS[:version]:
            mem.executescript(migration)
        want = schema(mem)
    finally:
        mem.close()
    have = schema(db)
    out = ["%s %s is not part of a Scorebox store" % k for k in sorted(set(have) - set(want))]
    out += ["no %s %s" % k for k in sorted(set(want) - set(have))]
    out += [
        "%s %s is not as a Scorebox store makes it" % k for k in sorted(set(want) & set(have)) if want[k] != have[k]
    ]
    return out
