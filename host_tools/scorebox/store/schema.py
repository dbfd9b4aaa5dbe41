"""The SQLite store's schema: its migrations, and how a file's schema is held to them."""

import sqlite3

SCHEMA_VERSION = 1

# The store's schema at 1.0, its baseline. A later version appends a migration to MIGRATIONS
# (migration N takes a store from user_version N-1 to N) and a test that opens a 1.0 store;
# never edit one that shipped.
BASELINE = """
    CREATE TABLE devices (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,
        firmware TEXT,
        first_seen REAL NOT NULL,
        last_seen REAL NOT NULL,
        name TEXT,
        space_free INTEGER,
        space_total INTEGER,
        matches_fit INTEGER
    );
    CREATE TABLE archers (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        retired INTEGER NOT NULL DEFAULT 0,
        added REAL,
        full_name TEXT,
        club TEXT
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
    CREATE TABLE quarantine (
        id INTEGER PRIMARY KEY,
        device_id INTEGER NOT NULL REFERENCES devices(id),
        file TEXT NOT NULL,
        offset INTEGER NOT NULL,
        data BLOB NOT NULL,
        imported REAL NOT NULL,
        UNIQUE (device_id, file, offset, data)
    );
    -- The club's roster (store/roster.py): a retired archer leaves the box's list, keeps history.
    CREATE TABLE archer_renames (
        old TEXT NOT NULL,
        archer_id INTEGER NOT NULL REFERENCES archers(id),
        renamed REAL NOT NULL
    );
    -- The store's identity, made once: a box acknowledges only to the store it belongs to
    -- (sync/pull.py).
    CREATE TABLE store_info (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    INSERT INTO store_info (key, value) VALUES ('id', lower(hex(randomblob(8))));
    -- Each archer's figures, kept as matches are stored (store/figures.py), so that the desk's
    -- pages read a few rows an archer at club scale.
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
"""
MIGRATIONS = [BASELINE]


def migrate(db, version):
    """Migration `version` on db's main store, inside the caller's write transaction (each
    statement on its own: executescript would commit it)."""
    for stmt in _statements(MIGRATIONS[version - 1]):
        db.execute(stmt)
    db.execute("PRAGMA main.user_version = %d" % version)


def _statements(script):
    """A migration's statements, its comment lines left out (one statement each: executescript
    would commit the caller's transaction)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [stmt for stmt in "\n".join(lines).split(";") if stmt.strip()]


def schema(db):
    """{(type, name): SQL} of every object in db: tables, indexes, triggers, views (SQLite's
    query-planner statistics aside), whitespace normalised."""
    rows = db.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    return {(t, n): sql and " ".join(sql.split()) for t, n, sql in rows if not n.startswith("sqlite_stat")}


def schema_problems(db):
    """What in db's schema is not exactly what this scorebox's migrations make for its
    version: a trigger, a view, another table or index, a table with other columns
    (a backup carrying triggers that rewrite arrows, say). Empty when it is ours."""
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
