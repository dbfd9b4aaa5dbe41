"""The stores' schemas under Alembic (store/migrate.py): the revision each kind of store is
made at is the newest of its scripts, the store the migrations make is the one store/tables.py
declares (SQLite and PostgreSQL), and a store that is up to date opens without SQLAlchemy."""

import os
import subprocess
import sys
import warnings

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import bindparam, create_engine, pool, select

from scorebox.league.db import LEAGUE, LeagueDB
from scorebox.store import pgrefs, queries, sql, tables
from scorebox.store.access import open_store
from scorebox.store.migrate import STORE

pytest_plugins = ("pgserver",)  # pg_server, pg_url, store_at

POSTGRES_DRIVER = "postgresql+psycopg://"


def scripts(schema):
    cfg = Config()
    cfg.set_main_option("script_location", schema.scripts)
    return ScriptDirectory.from_config(cfg)


@pytest.mark.parametrize("schema", [STORE, LEAGUE], ids=["store", "league"])
def test_the_head_is_the_newest_script(schema):
    """One line of migrations, and the revision a store is made at is its newest."""
    assert scripts(schema).get_heads() == [schema.head]


def _engine(store_at):
    if store_at.startswith("postgresql://"):
        return create_engine(POSTGRES_DRIVER + store_at[len("postgresql://") :], poolclass=pool.NullPool)
    return create_engine("sqlite:///" + store_at, poolclass=pool.NullPool)


def _named(diff):
    """A difference Alembic found, in words: what it would add or drop, and where."""
    what, thing = diff[0], diff[1]
    if what == "add_fk":
        return (what, thing.parent.name, thing.column_keys[0], thing.referred_table.name)
    return (what, getattr(thing, "name", None))


def test_the_migrated_store_is_the_declared_one(store_at):
    """Alembic compares the store the migrations made with store/tables.py: no table, column,
    type, key, default or index differs (SQLite cannot read back an index on an expression).
    On PostgreSQL, what tables.py declares for SQLite alone: three foreign keys, which
    store/pgrefs.py's statement triggers check there, and a quarantined piece's uniqueness,
    which an index on its hash holds. PostgreSQL gives an index on an expression back in its
    own words, which Alembic compares as text with the declaration's: matches_by_game is held
    to it by its use instead (test_a_game_filter_reads_the_game_index)."""
    postgres = store_at.startswith("postgresql://")
    sqlite_only = {("add_fk", table, column, referred) for table, column, referred, _ in pgrefs.REFS}
    sqlite_only |= {("add_constraint", "quarantine_piece"), ("add_index", "matches_by_game")}
    sqlite_only.add(("remove_index", "matches_by_game"))
    open_store(store_at, create=True).close()
    engine = _engine(store_at)
    try:
        with engine.connect() as connection, warnings.catch_warnings():
            warnings.filterwarnings("ignore", "(?s).*expression-based index")
            context = MigrationContext.configure(
                connection, opts={"version_table": STORE.version_table, "compare_type": True}
            )
            found = {_named(d) for d in compare_metadata(context, tables.metadata)}
    finally:
        engine.dispose()
    assert found == (sqlite_only if postgres else set())


def test_a_store_at_a_revision_of_its_scripts_is_current(store_at):
    with open_store(store_at, create=True) as store:
        revision = store.db.execute("SELECT version_num FROM %s" % STORE.version_table).fetchone()[0]
    assert revision == STORE.head and STORE.current(revision, store_at)


def test_a_league_store_is_made_once_at_its_head(pg_url):
    """The league's own tables, in their own version table, beside the club's store."""
    for _ in range(2):  # the second opening finds it current and migrates nothing
        with open_store(pg_url, create=True) as store:
            LeagueDB(store)
            versions = [
                store.db.execute("SELECT version_num FROM %s" % s.version_table).fetchone()[0] for s in (STORE, LEAGUE)
            ]
    assert versions == [STORE.head, LEAGUE.head]


def test_an_up_to_date_store_opens_without_alembic(tmp_path):
    """Only making or migrating a store loads Alembic: every command's opening of a store
    already made reads one version row; its statements are SQLAlchemy Core's, compiled and
    run on the store's own connection (store/sql.py), no engine made."""
    path = str(tmp_path / "club.sqlite")
    open_store(path, create=True).close()
    probe = (
        "import sys; from scorebox.store.access import open_store; "
        "s = open_store(%r, create=True); s.count(); s.close(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))" % path
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=os.getcwd())
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_a_game_filter_reads_the_game_index(store_at):
    """The store's filter on a match's game (queries.py's GAME) is the expression the
    migration indexed (matches_by_game), so that a game's matches are found through it."""
    postgres = store_at.startswith("postgresql://")
    statement = select(queries.M.c.id).where(queries.GAME == bindparam("game")).order_by(queries.M.c.id)
    game = {"game": "try-tac-toe"}
    with open_store(store_at, create=True) as store:
        text = sql.compiled_text(statement, store.db.dialect)
        if postgres:
            store.db.execute("SET enable_seqscan = off", {})
            plan = " ".join(r[0] for r in store.db.execute("EXPLAIN " + text, game).fetchall())
        else:
            plan = " ".join(r[-1] for r in store.db.execute("EXPLAIN QUERY PLAN " + text, game).fetchall())
    assert "matches_by_game" in plan, plan
