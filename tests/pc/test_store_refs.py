"""A turn's game and archer and an arrow's turn refer to rows that exist, on both stores: SQLite
by its foreign keys, PostgreSQL by the statement triggers that stand for them there
(store/pgrefs.py: once a statement, not once a row). The same writes are refused or done on
both, on a store holding a match of each game."""

import sqlite3

import pytest
from bothstore import both_games
from sqlalchemy import text

from scorebox.store import pgrefs, sql
from scorebox.store.access import open_store
from scorebox.store.errors import StoreError

pytest_plugins = ("pgserver",)  # its fixtures: pg_server, pg_url, store_at
psycopg = pytest.importorskip("psycopg", reason="psycopg not installed: pip install -e .[test] (make does)")

REFUSED = (sqlite3.IntegrityError, StoreError)
NO_ROW = "(?i)foreign key|refers to no row|still referred"
MISSING = 10**9  # no row's id


@pytest.fixture
def store(store_at):
    """A store of both games' matches (bothstore.py's), at store_at."""
    s = open_store(both_games(store_at))
    yield s
    s.close()


def q(s, statement, **params):
    """A test's own statement (SQL text, :name parameters) on either store's connection."""
    return sql.run(s.db, text(statement), params)


def one(s, statement, **params):
    return q(s, statement, **params).fetchone()


def test_written_rows_refer_to_rows_that_exist(store):
    turn, game, archer = one(store, "SELECT id, game_id, archer_id FROM turns ORDER BY id LIMIT 1")
    new_turn = (
        "INSERT INTO turns (id, game_id, number, round, side, archer_id) VALUES (:id, :game, 999, 1, 'A', :archer)"
    )
    cases = [
        ("INSERT INTO arrows VALUES (:turn, 1, NULL, 0, 0, NULL, 'missed')", dict(turn=MISSING)),
        (new_turn, dict(id=MISSING, game=MISSING, archer=None)),
        (new_turn, dict(id=MISSING, game=game, archer=MISSING)),
        ("UPDATE turns SET archer_id = :to WHERE id = :id", dict(to=MISSING, id=turn)),
        ("UPDATE turns SET game_id = :to WHERE id = :id", dict(to=MISSING, id=turn)),
        ("UPDATE arrows SET turn_id = :to WHERE turn_id = :id", dict(to=MISSING, id=turn)),
    ]
    before = [one(store, "SELECT count(*) FROM %s" % t)[0] for t in ("turns", "arrows")]
    for statement, params in cases:
        with pytest.raises(REFUSED, match=NO_ROW):
            q(store, statement, **params)
    assert [one(store, "SELECT count(*) FROM %s" % t)[0] for t in ("turns", "arrows")] == before
    assert one(store, "SELECT game_id, archer_id FROM turns WHERE id = :id", id=turn) == (game, archer)
    # what refers to rows that exist, or to no archer, is written
    q(store, new_turn, id=MISSING, game=game, archer=None)
    q(store, "INSERT INTO arrows VALUES (:turn, 1, NULL, 0, 0, NULL, 'missed')", turn=MISSING)
    q(store, "UPDATE turns SET archer_id = :to WHERE id = :id", to=archer, id=MISSING)


def test_rows_referred_to_keep_their_ids_and_archers_stay(store):
    turn, game, archer = one(store, "SELECT id, game_id, archer_id FROM turns ORDER BY id LIMIT 1")
    for table, id in (("games", game), ("turns", turn), ("archers", archer)):
        with pytest.raises(REFUSED, match=NO_ROW):
            q(store, "UPDATE %s SET id = :to WHERE id = :id" % table, to=MISSING, id=id)
    # an archer only a turn refers to (no match's side, no figures) is not deleted
    q(store, "INSERT INTO archers (id, name) VALUES (:id, 'Nobody Else')", id=MISSING)
    q(store, "UPDATE turns SET archer_id = :to WHERE id = :id", to=MISSING, id=turn)
    with pytest.raises(REFUSED, match=NO_ROW):
        q(store, "DELETE FROM archers WHERE id = :id", id=MISSING)
    q(store, "UPDATE turns SET archer_id = :to WHERE id = :id", to=archer, id=turn)
    q(store, "DELETE FROM archers WHERE id = :id", id=MISSING)  # referred to by none now
    assert one(store, "SELECT count(*) FROM archers WHERE id = :id", id=MISSING) == (0,)
    # a name changed is not an id changed
    q(store, "UPDATE archers SET name = name || ' Jr' WHERE id = :id", id=archer)


def test_a_match_deleted_takes_its_games_turns_and_arrows(store):
    counts = "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM turns), (SELECT count(*) FROM arrows)"
    first, last = one(store, "SELECT min(id), max(id) FROM matches")
    theirs = (
        "SELECT (SELECT count(*) FROM games WHERE match_id = :m), "
        "(SELECT count(*) FROM turns t JOIN games g ON g.id = t.game_id WHERE g.match_id = :m), "
        "(SELECT count(*) FROM arrows r JOIN turns t ON t.id = r.turn_id JOIN games g ON g.id = t.game_id "
        "WHERE g.match_id = :m)"
    )
    before, gone = one(store, counts), one(store, theirs, m=first)
    assert min(gone) > 0 and first != last
    q(store, "DELETE FROM matches WHERE id = :id", id=first)
    assert one(store, counts) == tuple(b - g for b, g in zip(before, gone))
    orphans = (
        "SELECT (SELECT count(*) FROM turns t WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = t.game_id)), "
        "(SELECT count(*) FROM arrows r WHERE NOT EXISTS (SELECT 1 FROM turns t WHERE t.id = r.turn_id))"
    )
    assert one(store, orphans) == (0, 0)


_TABLES = sorted({r[0] for r in pgrefs.REFS})
_PARENTS = sorted({r[2] for r in pgrefs.REFS})
_OIDS = "ARRAY(SELECT to_regclass(t) FROM unnest(%s::text[]) AS t)"  # tables by name, as the session finds them


def made(db):
    """Whether the checks are the store's: none of the three foreign keys, every trigger on
    its tables (the tables as the connection's search_path finds them)."""
    state = db.execute(
        "SELECT (SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY(" + _OIDS + ") "
        "AND confrelid = ANY(" + _OIDS + ")), "
        "(SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal AND tgname = ANY(%s) AND tgrelid = ANY("
        + _OIDS
        + "))",
        (_TABLES, _PARENTS, list(pgrefs.TRIGGERS), sorted(set(_TABLES + _PARENTS))),
    )
    return state.fetchone() == (0, len(pgrefs.TRIGGERS))


def test_postgresql_checks_once_a_statement(pg_url):
    """A new PostgreSQL store has the triggers, not the three foreign keys; the tables
    referred to are not truncated."""
    both_games(pg_url)
    s = open_store(pg_url)
    try:
        assert made(s.db)
        for table in ("games", "turns", "archers"):
            with pytest.raises(StoreError, match="is not truncated"):
                s.db.execute("TRUNCATE %s CASCADE" % table)
    finally:
        s.close()


def test_the_checks_read_the_stores_own_tables(pg_url):
    """On PostgreSQL the triggers name the store's tables with their schema: a table of the
    same name that the session finds first (a temporary one) is not taken for the store's;
    a second store in another schema of the database has its own checks, each store's made."""
    both_games(pg_url)
    s = open_store(pg_url)
    try:
        game = one(s, "SELECT max(id) FROM games")[0] + 1
        s.db.execute("CREATE TEMPORARY TABLE games (id BIGINT)")
        s.db.execute("INSERT INTO pg_temp.games VALUES (%s)", (game,))
        with pytest.raises(StoreError, match=NO_ROW):
            s.db.execute(
                "INSERT INTO public.turns (id, game_id, number, round, side, archer_id) "
                "VALUES (%s, %s, 1, 1, 'A', NULL)",
                (MISSING, game),
            )
        s.db.execute("CREATE SCHEMA club2")
    finally:
        s.close()
    other = pg_url + "&options=-csearch_path%3Dclub2"
    both_games(other)
    for url in (pg_url, other):
        s = open_store(url)
        try:
            assert made(s.db)
        finally:
            s.close()


def test_unmatched_counts_what_a_load_without_the_checks_left(pg_url):
    """pgrefs.unmatched: the rows that refer to no row, as adding a foreign key finds them
    (tests/support/leaguegen.py loads with the checks off, then counts)."""
    both_games(pg_url)
    s = open_store(pg_url)
    try:

        def counts():
            return [one(s, pgrefs.unmatched(*ref[:3]))[0] for ref in pgrefs.REFS]

        assert counts() == [0, 0, 0]
        s.db.execute("ALTER TABLE arrows DISABLE TRIGGER USER")
        s.db.execute("INSERT INTO arrows VALUES (%s, 1, NULL, 0, 0, NULL, 'missed')", (MISSING,))
        s.db.execute("ALTER TABLE arrows ENABLE TRIGGER USER")
        assert counts() == [0, 0, 1]
    finally:
        s.close()
