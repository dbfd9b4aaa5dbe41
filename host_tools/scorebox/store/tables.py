"""The club's store's tables, declared once for SQLite and PostgreSQL (SQLAlchemy Core): each
database makes them in its own words through the migrations (store/migrations), and
tests/pc/test_store_migrations.py holds the migrated schema to this declaration.

The store's statements are written over these tables in SQLAlchemy Core (store/sql.py
compiles them for each database); opening a store that is up to date reads its version and
runs no migration (store/migrate.py: Alembic is loaded only to make or migrate one).
"""

from sqlalchemy import (
    BigInteger,
    Column,
    Double,
    ForeignKey,
    ForeignKeyConstraint,
    Identity,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects import sqlite

from scorebox.store.sql import json_text
from scorebox_core.games import GAMES

# SQLite's integers are 64-bit, and its INTEGER PRIMARY KEY is the row id (a row given no id
# gets the next one): BIGINT on PostgreSQL, INTEGER on SQLite.
INT = BigInteger().with_variant(Integer(), "sqlite")
REAL = Double().with_variant(sqlite.REAL(), "sqlite")
# A row's id is the database's: SQLite's row id, PostgreSQL's identity (its sequence:
# store/rows.py takes a batch's ids from it, store/sql.py's next_ids).

metadata = MetaData()


def _id():
    return Column("id", INT, Identity(), primary_key=True)


def _ref(table, delete=None):
    return ForeignKey("%s.id" % table, ondelete=delete)


devices = Table(
    "devices",
    metadata,
    _id(),
    Column("uid", Text, nullable=False, unique=True),
    Column("firmware", Text),
    Column("first_seen", REAL, nullable=False),
    Column("last_seen", REAL, nullable=False),
    Column("name", Text),
    Column("space_free", INT),
    Column("space_total", INT),
    Column("matches_fit", INT),
)

archers = Table(
    "archers",
    metadata,
    _id(),
    Column("name", Text, nullable=False, unique=True),
    Column("retired", INT, nullable=False, server_default=text("0")),
    Column("added", REAL),
    Column("full_name", Text),
    Column("club", Text),  # a guest's home club (store/roster.py)
)

matches = Table(
    "matches",
    metadata,
    _id(),
    Column("device_id", INT, _ref("devices"), nullable=False),
    Column("number", INT, nullable=False),
    Column("started", REAL),
    Column("options", Text, nullable=False),
    Column("header", Text, nullable=False),
    Column("log", Text, nullable=False),
    Column("extras", Text, nullable=False),
    Column("winner", Text),
    Column("wins_a", INT, nullable=False),
    Column("wins_b", INT, nullable=False),
    Column("draws", INT, nullable=False),
    Column("finished", INT, nullable=False),
    Column("imported", REAL, nullable=False),
    UniqueConstraint("device_id", "number"),
)

match_archers = Table(
    "match_archers",
    metadata,
    Column("match_id", INT, _ref("matches", "CASCADE"), nullable=False),
    Column("side", Text, nullable=False),
    Column("position", INT, nullable=False),
    Column("archer_id", INT, _ref("archers"), nullable=False),
    Column("distance", REAL),
    Column("shaft_mm", REAL),
    PrimaryKeyConstraint("match_id", "side", "position"),
)

games = Table(
    "games",
    metadata,
    _id(),
    Column("match_id", INT, _ref("matches", "CASCADE"), nullable=False),
    Column("number", INT, nullable=False),
    Column("first", Text, nullable=False),
    Column("winner", Text),
    Column("reason", Text),
    Column("rounds", INT, nullable=False),
    UniqueConstraint("match_id", "number"),
)

# A turn's game and archer and an arrow's turn: foreign keys on SQLite; on PostgreSQL checked
# once a statement by triggers (store/pgrefs.py), which the migration makes in their place.
turns = Table(
    "turns",
    metadata,
    _id(),
    Column("game_id", INT, nullable=False),
    Column("number", INT, nullable=False),
    Column("round", INT, nullable=False),
    Column("side", Text, nullable=False),
    Column("archer_id", INT),
    UniqueConstraint("game_id", "number"),
    ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE").ddl_if(dialect="sqlite"),
    ForeignKeyConstraint(["archer_id"], ["archers.id"]).ddl_if(dialect="sqlite"),
)

arrows = Table(
    "arrows",
    metadata,
    Column("turn_id", INT, nullable=False),
    Column("number", INT, nullable=False),
    Column("square", INT),
    Column("value", INT, nullable=False),
    Column("called", INT, nullable=False),
    Column("x_hit", INT),
    Column("outcome", Text, nullable=False),
    PrimaryKeyConstraint("turn_id", "number"),
    ForeignKeyConstraint(["turn_id"], ["turns.id"], ondelete="CASCADE").ddl_if(dialect="sqlite"),
    sqlite_with_rowid=False,  # its key is its order: no row id beside it
)

# Bytes the box set aside, each piece once. A piece can be longer than a B-tree index row on
# PostgreSQL: there it is told by its hash.
quarantine = Table(
    "quarantine",
    metadata,
    _id(),
    Column("device_id", INT, _ref("devices"), nullable=False),
    Column("file", Text, nullable=False),
    Column("offset", INT, nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("imported", REAL, nullable=False),
    UniqueConstraint("device_id", "file", "offset", "data", name="quarantine_piece").ddl_if(dialect="sqlite"),
)
Index(
    "quarantine_piece_by_hash",
    quarantine.c.device_id,
    quarantine.c.file,
    quarantine.c.offset,
    func.md5(quarantine.c.data),
    unique=True,
).ddl_if(dialect="postgresql")

# The roster's earlier names: a box or a later match may still say one (store/rows.py).
archer_renames = Table(
    "archer_renames",
    metadata,
    Column("old", Text, nullable=False),
    Column("archer_id", INT, _ref("archers"), nullable=False),
    Column("renamed", REAL, nullable=False),
)

# The store's identity, made once: a box acknowledges only to the store it belongs to.
store_info = Table(
    "store_info",
    metadata,
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
)

# Each archer's figures, kept as matches are stored (store/figures.py), so that the desk's pages
# read a few rows an archer at club scale.
archer_matches = Table(
    "archer_matches",
    metadata,
    Column("archer_id", INT, _ref("archers"), nullable=False),
    Column("match_id", INT, _ref("matches", "CASCADE"), nullable=False),
    Column("started", REAL),
    Column("arrows", INT, nullable=False),
    Column("points", INT, nullable=False),
)
archer_results = Table(
    "archer_results",
    metadata,
    Column("archer_id", INT, _ref("archers"), nullable=False),
    Column("side", Text, nullable=False),
    Column("winner", Text),
    Column("matches", INT, nullable=False),
)
archer_games = Table(
    "archer_games",
    metadata,
    Column("archer_id", INT, _ref("archers"), nullable=False),
    Column("side", Text, nullable=False),
    Column("winner", Text),
    Column("games", INT, nullable=False),
)
archer_opponents = Table(
    "archer_opponents",
    metadata,
    Column("archer_id", INT, _ref("archers"), nullable=False),
    Column("opponent_id", INT, _ref("archers"), nullable=False),
    Column("side", Text, nullable=False),
    Column("winner", Text),
    Column("matches", INT, nullable=False),
    Column("won", INT, nullable=False),
    Column("lost", INT, nullable=False),
    Column("drawn", INT, nullable=False),
)
archer_arrows = Table(
    "archer_arrows",
    metadata,
    Column("archer_id", INT, _ref("archers"), nullable=False),
    Column("square", INT),
    Column("called", INT, nullable=False),
    Column("outcome", Text, nullable=False),
    Column("arrows", INT, nullable=False),
    Column("value", INT, nullable=False),
)
archer_claims = Table(
    "archer_claims",
    metadata,
    Column("archer_id", INT, _ref("archers"), nullable=False),
    Column("lost", INT, nullable=False),
)

# A club's events (docs/events.md): an evening or a tournament of one game and format, its
# entrants (an archer, or a Try-Tac-Toe team of two), the pairings drawn for them (round,
# order on the target, target; a bye has no side B) and the match that settled each, and a
# log of every change made to them at the desk, with what it was before.
events = Table(
    "events",
    metadata,
    _id(),
    Column("name", Text, nullable=False),
    Column("day", Text, nullable=False),  # ISO 8601 date
    Column("game", Text, nullable=False),
    Column("options", Text, nullable=False),  # JSON: the game's options, as New match sets them
    Column("format", Text, nullable=False),
    Column("targets", INT, nullable=False),
    Column("seeding", Text, nullable=False),
    Column("time_limit", INT),  # seconds a match may last; None: none
    Column("created", REAL, nullable=False),
)
event_entrants = Table(
    "event_entrants",
    metadata,
    _id(),
    Column("event_id", INT, _ref("events", "CASCADE"), nullable=False),
    Column("seed", INT, nullable=False),
    Column("withdrawn", REAL),
    UniqueConstraint("event_id", "seed"),
)
entrant_archers = Table(
    "entrant_archers",
    metadata,
    Column("entrant_id", INT, _ref("event_entrants", "CASCADE"), nullable=False),
    Column("position", INT, nullable=False),
    Column("archer_id", INT, _ref("archers"), nullable=False),
    PrimaryKeyConstraint("entrant_id", "position"),
)
pairings = Table(
    "pairings",
    metadata,
    _id(),
    Column("event_id", INT, _ref("events", "CASCADE"), nullable=False),
    Column("round", INT, nullable=False),
    Column("number", INT, nullable=False),
    Column("leg", INT, nullable=False),  # 2, 3...: a knockout's drawn match shot again
    Column("target", INT),
    Column("entrant_a", INT, _ref("event_entrants"), nullable=False),
    Column("entrant_b", INT, _ref("event_entrants")),
    Column("match_id", INT, _ref("matches")),
    Column("paper", INT, nullable=False, server_default=text("0")),
    Column("drawn", REAL, nullable=False),
    UniqueConstraint("event_id", "round", "number", "leg"),
)
event_log = Table(
    "event_log",
    metadata,
    _id(),
    Column("event_id", INT, _ref("events", "CASCADE"), nullable=False),
    Column("pairing_id", INT),
    Column("match_id", INT),
    Column("at", REAL, nullable=False),
    Column("what", Text, nullable=False),
    Column("before", Text),  # JSON: what it was
    Column("after", Text),  # JSON: what it became
)

Index("turns_by_archer", turns.c.archer_id)
Index(
    "archer_matches_by_archer",
    archer_matches.c.archer_id,
    archer_matches.c.started,
    archer_matches.c.match_id,
    archer_matches.c.arrows,
    archer_matches.c.points,
)
Index("archer_matches_by_match", archer_matches.c.match_id)
Index("archer_results_by_archer", archer_results.c.archer_id)
Index("archer_games_by_archer", archer_games.c.archer_id)
Index("archer_opponents_by_archer", archer_opponents.c.archer_id)
Index("archer_arrows_by_archer", archer_arrows.c.archer_id)
Index("archer_claims_by_archer", archer_claims.c.archer_id)
Index("match_archers_by_archer", match_archers.c.archer_id, match_archers.c.match_id)
Index("matches_by_box", matches.c.device_id, matches.c.id)
Index("matches_by_started", matches.c.started)
# A match's game: its header's, or the registry's first's for a header without one
# (store/queries.py filters on the same expression, so that the filter uses this index).
Index("matches_by_game", func.coalesce(json_text(matches.c.header, "game"), GAMES[0][0]), matches.c.id)
Index("entrant_archers_by_archer", entrant_archers.c.archer_id)
Index("pairings_by_match", pairings.c.match_id)
Index("event_log_by_event", event_log.c.event_id, event_log.c.id)
