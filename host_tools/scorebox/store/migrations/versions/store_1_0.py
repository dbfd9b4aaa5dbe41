"""Scorebox 1.0's club store: the baseline every store starts from (store/tables.py declares
the tables as they are now; a later change there comes with a migration of its own beside this
one, and a test that opens a 1.0 store). Never edited once released.

A row's id is SQLite's row id, PostgreSQL's identity. On PostgreSQL, also: a turn's game and
archer and an arrow's turn checked once a statement by triggers, not by foreign keys
(store/pgrefs.py).
"""

import secrets

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import sqlite

from scorebox.store import pgrefs
from scorebox.store.sql import json_text
from scorebox_core.games import GAMES

revision = "store_1_0"
down_revision = None
branch_labels = None
depends_on = None

INT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")  # SQLite's INTEGER PRIMARY KEY: its row id
REAL = sa.Double().with_variant(sqlite.REAL(), "sqlite")


def column(name, kind, null=True, **kw):
    return sa.Column(name, kind, nullable=null, **kw)


def row_id():
    return sa.Column("id", INT, sa.Identity(), primary_key=True)


def ref(columns, table, delete=None):
    return sa.ForeignKeyConstraint(columns, ["%s.id" % table], ondelete=delete)


def sqlite_only(constraint):
    return constraint.ddl_if(dialect="sqlite")


def plpgsql(sql):
    """Statements as they are, to the driver itself: a format() of PL/pgSQL's % is no parameter."""
    op.get_bind().connection.driver_connection.execute(sql)


def upgrade():
    postgres = op.get_bind().dialect.name == "postgresql"
    op.create_table(
        "devices",
        row_id(),
        column("uid", sa.Text, False, unique=True),
        column("firmware", sa.Text),
        column("first_seen", REAL, False),
        column("last_seen", REAL, False),
        column("name", sa.Text),
        column("space_free", INT),
        column("space_total", INT),
        column("matches_fit", INT),
    )
    op.create_table(
        "archers",
        row_id(),
        column("name", sa.Text, False, unique=True),
        column("retired", INT, False, server_default=sa.text("0")),
        column("added", REAL),
        column("full_name", sa.Text),
        column("club", sa.Text),
    )
    op.create_table(
        "matches",
        row_id(),
        column("device_id", INT, False),
        column("number", INT, False),
        column("started", REAL),
        column("options", sa.Text, False),
        column("header", sa.Text, False),
        column("log", sa.Text, False),
        column("extras", sa.Text, False),
        column("winner", sa.Text),
        column("wins_a", INT, False),
        column("wins_b", INT, False),
        column("draws", INT, False),
        column("finished", INT, False),
        column("imported", REAL, False),
        sa.UniqueConstraint("device_id", "number"),
        ref(["device_id"], "devices"),
    )
    op.create_table(
        "match_archers",
        column("match_id", INT, False),
        column("side", sa.Text, False),
        column("position", INT, False),
        column("archer_id", INT, False),
        column("distance", REAL),
        column("shaft_mm", REAL),
        sa.PrimaryKeyConstraint("match_id", "side", "position"),
        ref(["match_id"], "matches", "CASCADE"),
        ref(["archer_id"], "archers"),
    )
    op.create_table(
        "games",
        row_id(),
        column("match_id", INT, False),
        column("number", INT, False),
        column("first", sa.Text, False),
        column("winner", sa.Text),
        column("reason", sa.Text),
        column("rounds", INT, False),
        sa.UniqueConstraint("match_id", "number"),
        ref(["match_id"], "matches", "CASCADE"),
    )
    op.create_table(
        "turns",
        row_id(),
        column("game_id", INT, False),
        column("number", INT, False),
        column("round", INT, False),
        column("side", sa.Text, False),
        column("archer_id", INT),
        sa.UniqueConstraint("game_id", "number"),
        sqlite_only(ref(["game_id"], "games", "CASCADE")),
        sqlite_only(ref(["archer_id"], "archers")),
    )
    op.create_table(
        "arrows",
        column("turn_id", INT, False),
        column("number", INT, False),
        column("square", INT),
        column("value", INT, False),
        column("called", INT, False),
        column("x_hit", INT),
        column("outcome", sa.Text, False),
        sa.PrimaryKeyConstraint("turn_id", "number"),
        sqlite_only(ref(["turn_id"], "turns", "CASCADE")),
        sqlite_with_rowid=False,
    )
    op.create_index("turns_by_archer", "turns", ["archer_id"])
    op.create_table(
        "quarantine",
        row_id(),
        column("device_id", INT, False),
        column("file", sa.Text, False),
        column("offset", INT, False),
        column("data", sa.LargeBinary, False),
        column("imported", REAL, False),
        sqlite_only(sa.UniqueConstraint("device_id", "file", "offset", "data", name="quarantine_piece")),
        ref(["device_id"], "devices"),
    )
    if postgres:  # a piece can be longer than a B-tree index row: told by its hash
        op.create_index(
            "quarantine_piece_by_hash",
            "quarantine",
            ["device_id", "file", "offset", sa.text("md5(data)")],
            unique=True,
        )
    op.create_table(
        "archer_renames",
        column("old", sa.Text, False),
        column("archer_id", INT, False),
        column("renamed", REAL, False),
        ref(["archer_id"], "archers"),
    )
    info = op.create_table(
        "store_info",
        column("key", sa.Text, False, primary_key=True),
        column("value", sa.Text, False),
    )
    op.bulk_insert(info, [{"key": "id", "value": secrets.token_hex(8)}])  # the store's identity (sync/pull.py)
    _figures()
    op.create_index("match_archers_by_archer", "match_archers", ["archer_id", "match_id"])
    op.create_index("matches_by_box", "matches", ["device_id", "id"])
    op.create_index("matches_by_started", "matches", ["started"])
    # a header without a game is the registry's first game's (docs/formats.md: every 1.0 form)
    game = sa.func.coalesce(json_text(sa.column("header"), "game"), GAMES[0][0])
    op.create_index("matches_by_game", "matches", [game, "id"])
    _events()
    if postgres:
        plpgsql(pgrefs.FUNCTIONS)
        for sql in pgrefs.TRIGGERS.values():
            op.execute(sql)


def _figures():
    """Each archer's figures, kept as matches are stored (store/figures.py)."""
    op.create_table(
        "archer_matches",
        column("archer_id", INT, False),
        column("match_id", INT, False),
        column("started", REAL),
        column("arrows", INT, False),
        column("points", INT, False),
        ref(["archer_id"], "archers"),
        ref(["match_id"], "matches", "CASCADE"),
    )
    op.create_index(
        "archer_matches_by_archer", "archer_matches", ["archer_id", "started", "match_id", "arrows", "points"]
    )
    op.create_index("archer_matches_by_match", "archer_matches", ["match_id"])
    counts = {
        "archer_results": [column("side", sa.Text, False), column("winner", sa.Text), column("matches", INT, False)],
        "archer_games": [column("side", sa.Text, False), column("winner", sa.Text), column("games", INT, False)],
        "archer_opponents": [
            column("opponent_id", INT, False),
            column("side", sa.Text, False),
            column("winner", sa.Text),
            column("matches", INT, False),
            column("won", INT, False),
            column("lost", INT, False),
            column("drawn", INT, False),
            ref(["opponent_id"], "archers"),
        ],
        "archer_arrows": [
            column("square", INT),
            column("called", INT, False),
            column("outcome", sa.Text, False),
            column("arrows", INT, False),
            column("value", INT, False),
        ],
        "archer_claims": [column("lost", INT, False)],
    }
    for table, parts in counts.items():
        op.create_table(table, column("archer_id", INT, False), *parts, ref(["archer_id"], "archers"))
        op.create_index("%s_by_archer" % table, table, ["archer_id"])


def _events():
    """A club's events, their entrants and pairings, and the log of changes to them."""
    op.create_table(
        "events",
        row_id(),
        column("name", sa.Text, False),
        column("day", sa.Text, False),
        column("game", sa.Text, False),
        column("options", sa.Text, False),
        column("format", sa.Text, False),
        column("targets", INT, False),
        column("seeding", sa.Text, False),
        column("time_limit", INT),
        column("created", REAL, False),
    )
    op.create_table(
        "event_entrants",
        row_id(),
        column("event_id", INT, False),
        column("seed", INT, False),
        column("withdrawn", REAL),
        sa.UniqueConstraint("event_id", "seed"),
        ref(["event_id"], "events", "CASCADE"),
    )
    op.create_table(
        "entrant_archers",
        column("entrant_id", INT, False),
        column("position", INT, False),
        column("archer_id", INT, False),
        sa.PrimaryKeyConstraint("entrant_id", "position"),
        ref(["entrant_id"], "event_entrants", "CASCADE"),
        ref(["archer_id"], "archers"),
    )
    op.create_index("entrant_archers_by_archer", "entrant_archers", ["archer_id"])
    op.create_table(
        "pairings",
        row_id(),
        column("event_id", INT, False),
        column("round", INT, False),
        column("number", INT, False),
        column("leg", INT, False),
        column("target", INT),
        column("entrant_a", INT, False),
        column("entrant_b", INT),
        column("match_id", INT),
        column("paper", INT, False, server_default=sa.text("0")),
        column("drawn", REAL, False),
        sa.UniqueConstraint("event_id", "round", "number", "leg"),
        ref(["event_id"], "events", "CASCADE"),
        ref(["entrant_a"], "event_entrants"),
        ref(["entrant_b"], "event_entrants"),
        ref(["match_id"], "matches"),
    )
    op.create_index("pairings_by_match", "pairings", ["match_id"])
    op.create_table(
        "event_log",
        row_id(),
        column("event_id", INT, False),
        column("pairing_id", INT),
        column("match_id", INT),
        column("at", REAL, False),
        column("what", sa.Text, False),
        column("before", sa.Text),
        column("after", sa.Text),
        ref(["event_id"], "events", "CASCADE"),
    )
    op.create_index("event_log_by_event", "event_log", ["event_id", "id"])
