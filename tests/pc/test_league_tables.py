"""The league's tables as league/migrations makes them are the ones league/tables.py declares,
which league/keep.py and league/db.py write their statements over (as the club store's are
held to store/tables.py in test_store_migrations)."""

import warnings

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, pool

from scorebox.league import tables
from scorebox.league.db import LEAGUE, LeagueDB
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)  # pg_url


def _league_only(name, kind, parent_names):
    """Alembic compares the league's tables alone: the club store's beside them are
    store/tables.py's (test_store_migrations)."""
    table = name if kind == "table" else parent_names.get("table_name")
    return table is None or table.startswith("league_") and table != LEAGUE.version_table


def test_the_migrated_league_is_the_declared_one(pg_url):
    """No table, column, type, key, unique constraint or index differs."""
    with open_store(pg_url, create=True) as store:
        LeagueDB(store)
    engine = create_engine("postgresql+psycopg://" + pg_url[len("postgresql://") :], poolclass=pool.NullPool)
    try:
        with engine.connect() as connection, warnings.catch_warnings():
            warnings.filterwarnings("ignore", "(?s).*expression-based index")
            context = MigrationContext.configure(connection, opts={"compare_type": True, "include_name": _league_only})
            found = compare_metadata(context, tables.metadata)
    finally:
        engine.dispose()
    assert found == []
