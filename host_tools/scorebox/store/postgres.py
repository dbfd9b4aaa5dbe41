"""The store on a PostgreSQL server (a league's store), chosen by a database URL
(store/access.py): the same Store as SQLite's (store/sqlite.py), its writers, queries and
checks shared, each statement compiled for PostgreSQL by store/sql.py; only the connection,
the transactions and the schema's versions are this module's.

The Store's methods run here as they are, on Connection below, which gives them sqlite3's
calls (execute, executemany, fetch...) on psycopg 3. A write transaction holds an advisory
lock: a push's (only adding matches, their ids from the tables' sequences) beside other
pushes, any other writer alone, as SQLite's BEGIN IMMEDIATE, so that two commands never
migrate the same store or rename the same archer at once. What is about a file (backup with
SQLite's backup API, the writer's note of store/lock.py, discarding a store nobody filled)
is not done here: docs/postgres.md says what a league does instead.
"""

import contextlib
import datetime
import os
import time

import psycopg
import psycopg.sql
from psycopg.adapt import Dumper, Loader

from scorebox.store import lock
from scorebox.store.errors import CannotWrite, NoStore, StoreError, StoreFull, StoreLocked
from scorebox.store.migrate import STORE
from scorebox.store.sql import run
from scorebox.store.sqlite import QUARANTINE, QUARANTINE_COLUMNS
from scorebox.store.sqlite import Store as SQLiteStore
from scorebox.store.urls import shown

WRITE_LOCK = 0x5C0BE80C  # the advisory lock's key: the store's writers
ID_LOCK = 0x5C0BE80D  # the advisory lock's key while a batch's ids are taken
# Held from where a writer sharing the write lock takes them to its transaction's end: the
# names of archers (one archer a name, whatever its case, though two clubs add it at once)
# and a league's kept totals (rows every push updates, taken by one push at a time).
NAMES_LOCK = 0x5C0BE80E
TOTALS_LOCK = 0x5C0BE80F
LOCK = {"alone": "SELECT pg_advisory_lock(%s)", "shared": "SELECT pg_advisory_lock_shared(%s)"}
UNLOCK = {"alone": "SELECT pg_advisory_unlock(%s)", "shared": "SELECT pg_advisory_unlock_shared(%s)"}


class Connection:
    """psycopg's connection as the store's shared parts call sqlite3's: statements
    PostgreSQL's already (store/sql.py compiles them), transactions by hand (autocommit,
    BEGIN and COMMIT as statements, as sqlite3's isolation_level=None), a truth value as
    SQLite's 0 or 1, a whole-number sum as an int."""

    def __init__(self, url):
        try:
            self.pg = psycopg.connect(url, autocommit=True)
        except psycopg.Error as e:
            raise StoreError("cannot reach the PostgreSQL store %s: %s" % (shown(url), _first_line(e)))
        self.pg.adapters.register_loader("numeric", _NumberLoader)
        self.pg.adapters.register_dumper(bool, _TruthDumper)
        self.locked = None  # the write lock held: "alone" or "shared" (begin)
        self.store = shown(url)
        # another writer is waited for as long as on SQLite, then StoreLocked (_error)
        self.pg.execute("SELECT set_config('lock_timeout', %s, false)", ("%dms" % (lock.LOCK_WAIT * 1000),))
        self.pg.execute("SELECT set_config('TimeZone', %s, false)", (_local_zone(),))

    @property
    def in_transaction(self):
        return self.pg.info.transaction_status != psycopg.pq.TransactionStatus.IDLE

    dialect = "postgresql"  # store/sql.py compiles its statements for it

    def execute(self, sql, params=None):
        """Run one statement, PostgreSQL's (`%(name)s` parameters, as store/sql.py compiles
        them); COMMIT and ROLLBACK give the write lock back once the transaction is over."""
        try:
            cur = self.pg.execute(sql, params)
            if self.locked and sql in ("COMMIT", "ROLLBACK"):
                self.pg.execute(UNLOCK[self.locked], (WRITE_LOCK,))
                self.locked = None
            return cur
        except psycopg.Error as e:
            raise _error(e, self.store)

    def begin(self, shared):
        """A write transaction: the store's write lock, then BEGIN. The lock is taken before
        the transaction begins so that it sees what the writer it waited for made (a table
        too: the server reads its catalogue anew at BEGIN, not after an advisory lock's wait);
        given back after its end. shared: a writer that only adds matches (a club's push)
        holds it beside others of its kind, each taking its rows' ids from the sequences;
        every other writer holds it alone."""
        kind = "shared" if shared else "alone"
        try:
            self.pg.execute(LOCK[kind], (WRITE_LOCK,))
            self.locked = kind
            self.pg.execute("BEGIN")
        except psycopg.Error as e:
            raise _error(e, self.store)

    def executemany(self, sql, rows):
        """One statement for each of rows ({name: value}); psycopg sends them in one round
        trip (its pipeline). Many rows of a table go by COPY instead (copy)."""
        rows = list(rows)
        cur = self.pg.cursor()
        try:
            if rows:
                cur.executemany(sql, rows)
        except psycopg.Error as e:
            raise _error(e, self.store)
        return cur

    @contextlib.contextmanager
    def taking_ids(self):
        """While a writer takes a batch's ids from a sequence (store/sql.py's next_ids): a
        lock of its own, held for that statement alone, so that pushing clubs' batches are
        each one range of ids."""
        self.execute("SELECT pg_advisory_lock(%s)", (ID_LOCK,))
        try:
            yield
        finally:
            self.execute("SELECT pg_advisory_unlock(%s)", (ID_LOCK,))

    def lock_names(self):
        """Until this transaction ends, no other writer adds or renames an archer."""
        self.execute("SELECT pg_advisory_xact_lock(%s)", (NAMES_LOCK,))

    def lock_totals(self):
        """Until this transaction ends, no other writer keeps a league's totals."""
        self.execute("SELECT pg_advisory_xact_lock(%s)", (TOTALS_LOCK,))

    def savepoint(self):
        """A savepoint in the caller's transaction (store/sql.py's insert_made)."""
        return self.pg.transaction()

    def copy(self, table, columns, rows):
        """rows (tuples, in columns' order) into table, by COPY (store/sql.py's insert_rows)."""
        cur = self.pg.cursor()
        try:
            _copy(cur, "COPY %s (%s) FROM STDIN" % (_name(table), ", ".join(map(_name, columns))), rows)
        except psycopg.Error as e:
            raise _error(e, self.store)

    def script(self, sql):
        """Several statements, no parameters (DDL)."""
        try:
            self.pg.execute(sql)
        except psycopg.Error as e:
            raise _error(e, self.store)

    def close(self):
        self.pg.close()


def _local_zone():
    """The PC's time zone for the server's session, so that the report's months are in local
    time as SQLite's 'localtime' makes them: TZ's or /etc/localtime's zone by its name (summer
    time included), else the offset from UTC now."""
    name = os.environ.get("TZ", "").lstrip(":")
    if not name and "zoneinfo/" in os.path.realpath("/etc/localtime"):
        name = os.path.realpath("/etc/localtime").split("zoneinfo/", 1)[1]
    if name and os.path.exists(os.path.join("/usr/share/zoneinfo", name)):
        return name
    secs = int(datetime.datetime.now().astimezone().utcoffset().total_seconds())
    h, m = divmod(abs(secs) // 60, 60)
    east = "+" if secs >= 0 else "-"
    # POSIX's form, a name in <> and no summer time (a bare "+1" would take the US's rules)
    return "<%s%02d%02d>%s%d:%02d" % (east, h, m, "-" if secs >= 0 else "+", h, m)


def _error(e, store):
    """The StoreError, of its kind, that says in one line what the server refused."""
    errors, why = psycopg.errors, _first_line(e)
    if isinstance(e, errors.LockNotAvailable):
        return StoreLocked(
            "%s: another command held the store's write lock for %d s (%s): try again when it is done"
            % (store, lock.LOCK_WAIT, why)
        )
    if isinstance(e, (errors.DiskFull, errors.OutOfMemory)):
        return StoreFull("%s: the server cannot write (%s): nothing was stored" % (store, why))
    if isinstance(e, (errors.InsufficientPrivilege, errors.ReadOnlySqlTransaction)):
        return CannotWrite("%s: cannot write the store (%s): nothing was stored" % (store, why))
    return StoreError("%s: the PostgreSQL server says: %s" % (store, why))


def _name(identifier):
    return psycopg.sql.Identifier(identifier).as_string(None)


def _first_line(e):
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


def _copy(cur, statement, rows):
    with cur.copy(statement) as c:
        for r in rows:
            c.write_row(r)


class _TruthDumper(Dumper):
    """A truth value as SQLite's 0 or 1 (the store's columns of them are integers), in a
    statement's parameters and in COPY's rows alike."""

    oid = psycopg.postgres.types["int8"].oid

    def dump(self, obj):
        return b"1" if obj else b"0"


class _NumberLoader(Loader):
    """A numeric (PostgreSQL's sum of integers) as SQLite gives it: an int, or a float."""

    def load(self, data):
        text = bytes(data).decode()
        return float(text) if "." in text or "e" in text.lower() else int(text)


class Store(SQLiteStore):
    """The Store on PostgreSQL: SQLite's Store (store/sqlite.py) with its own connection,
    transactions and schema versions. path is the store's URL, its password left out."""

    def __init__(self, url, create=True):
        self.path = shown(url)
        self.new = False  # a database is never discarded
        self._url = url
        self.db = Connection(url)
        try:
            if not create and self._revision(STORE) is None:
                raise NoStore(self.path)
            self.upgrade(STORE)
        except BaseException:
            self.db.close()
            raise

    def _revision(self, schema):
        made = self.db.execute("SELECT to_regclass(%(t)s)", {"t": schema.version_table}).fetchone()[0] is not None
        return schema.revision(self.db, made)

    def upgrade(self, schema):
        """Bring schema (store/migrate.py's; the store's own, STORE, as it opens; a league's:
        league/db.py) up to date, in one write transaction: Alembic's, on a connection of
        SQLAlchemy's under the store's write lock, which reads the version again under it
        (another command may have made the same new store)."""
        if schema.current(self._revision(schema), self.path):
            return
        from sqlalchemy import create_engine, exc, pool

        engine = create_engine(
            "postgresql+psycopg://", creator=lambda: psycopg.connect(self._url), poolclass=pool.NullPool
        )
        try:
            with engine.begin() as conn:
                conn.exec_driver_sql("SELECT set_config('lock_timeout', %s, true)", ("%dms" % (lock.LOCK_WAIT * 1000),))
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                schema.upgrade(conn)
        except exc.DBAPIError as e:
            raise _error(e.orig, self.path) from None
        finally:
            engine.dispose()

    def _begin(self, shared):
        self.db.begin(shared)

    def discard_if_empty(self):
        """Close: a PostgreSQL store is a database a league made, never removed here."""
        self.close()

    def _rollback(self, e):
        """End a failed write transaction (what the server refused is a StoreError already:
        _error)."""
        if self.db.in_transaction or self.db.locked:  # the lock is given back with it
            self.db.execute("ROLLBACK")

    def _quarantine(self, dev, pieces):
        added = 0
        for name, off, raw in pieces:
            row = dict(zip(QUARANTINE_COLUMNS, (dev, name, off, raw, time.time())))
            added += run(self.db, QUARANTINE, row).rowcount
        return added

    def check(self):
        """Problems in the store: the server keeps its keys and pages itself (no SQLite
        integrity check); what is checked is that it is of this scorebox's version."""
        have = self._revision(STORE)
        return [] if have == STORE.head else ["store schema %s, this scorebox's %s" % (have, STORE.head)]
