"""The SQLite store's schema as its migrations make it (store/migrations), and how a file's
schema is held to it (a backup restored: store/backup.py)."""

import functools

from scorebox.store.migrate import STORE


def schema(db):
    """{(type, name): SQL} of every object in db (a DB-API connection): tables, indexes,
    triggers, views (SQLite's query-planner statistics aside), whitespace normalised."""
    rows = db.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    return {(t, n): sql and " ".join(sql.split()) for t, n, sql in rows if not n.startswith("sqlite_stat")}


@functools.lru_cache(maxsize=1)
def made():
    """schema() of a new store, as the migrations make it on SQLite (in memory)."""
    from sqlalchemy import create_engine, pool

    engine = create_engine("sqlite://", poolclass=pool.StaticPool)
    try:
        with engine.begin() as conn:
            STORE.upgrade(conn)
            return schema(conn.connection.dbapi_connection)
    finally:
        engine.dispose()


def schema_problems(db):
    """What in db's schema is not exactly what this scorebox's migrations make: a trigger, a
    view, another table or index, a table with other columns (a backup carrying triggers that
    rewrite arrows, say). Empty when it is ours."""
    want, have = made(), schema(db)
    out = ["%s %s is not part of a Scorebox store" % k for k in sorted(set(have) - set(want))]
    out += ["no %s %s" % k for k in sorted(set(want) - set(have))]
    out += [
        "%s %s is not as a Scorebox store makes it" % k for k in sorted(set(want) & set(have)) if want[k] != have[k]
    ]
    return out
