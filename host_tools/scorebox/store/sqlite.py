"""The club's store in SQLite: every synced match in one file.

A match is keyed by (device, its number on the device), so it can never be stored twice.
Each match is checked before it is stored by replaying its events with the rules core the
box runs (store/checks.py); the events as keyed (undos included) are kept beside the
derived games, turns and arrows (store/rows.py), so nothing the box recorded is lost and
everything else can be rebuilt. The schema and its migrations: store/schema.py.
"""

import contextlib
import json
import os
import sqlite3
import time
from urllib.parse import quote

from sqlalchemy import bindparam, func, literal_column, select, update

from scorebox.store import figures, lock
from scorebox.store import tables as t
from scorebox.store.checks import check, match_digest
from scorebox.store.errors import CannotWrite, NoStore, NotAStore, NotFound, Refused, SchemaMismatch, StoreFull
from scorebox.store.eventsdb import EventsDB
from scorebox.store.historydb import HistoryDB
from scorebox.store.lock import kind
from scorebox.store.migrate import STORE
from scorebox.store.queries import Queries
from scorebox.store.rosterdb import RosterDB
from scorebox.store.rows import Rows, compile_rows
from scorebox.store.sql import Each, compile_ahead, run, run_many


class Store(Queries, RosterDB, HistoryDB, EventsDB):
    """The SQLite store. Its public methods, with those of its parts (queries.py: what the
    reports read; rosterdb.py: the roster; historydb.py: export and import; eventsdb.py: events), are the store's
    interface: commands, sync and reports call them and never its connection
    (tests/pc/test_layers.py), so that another database can sit beside this one."""

    def __init__(self, path, create=True):
        self.path = path
        self.new = not os.path.lexists(path)  # made here: discard_if_empty() may take it back
        if not create and not os.path.exists(path):  # a link to nothing too: SQLite would make its target
            raise NoStore(path)
        d = os.path.dirname(os.path.abspath(path))
        self._made, up = None, d  # the highest folder made for it, if any
        while not os.path.exists(up) and os.path.dirname(up) != up:
            self._made, up = up, os.path.dirname(up)
        try:
            os.makedirs(d, exist_ok=True)
        except OSError as e:
            raise CannotWrite("%s: cannot make its folder: %s" % (path, e.strerror or e))
        try:
            # Transactions by hand; a store another program writes is waited for (store/lock.py).
            self.db = sqlite3.connect(path, isolation_level=None, timeout=lock.TRY, factory=lock.Connection)
            self.db.store = path
            self.db.execute("PRAGMA foreign_keys = ON")
            # WAL. SQLite's busy wait does not cover this switch: a new store that another
            # command is switching at the same moment is "locked", waited for like any lock.
            self.db.execute("PRAGMA journal_mode = WAL")
            self.upgrade(STORE)
        except sqlite3.DatabaseError as e:
            if kind(e) not in ("readonly", "cantopen"):
                raise NotAStore("%s: not a Scorebox store (%s)" % (path, e))
            if create:
                # a read-only store or folder: SQLite writes beside the store even to read it
                raise CannotWrite(
                    "%s: cannot write the store or its folder (%s): a command that stores needs both "
                    "writable" % (path, e)
                )
            if getattr(self, "db", None) is not None:
                self.db.close()
            self._open_read_only(e)

    def _open_read_only(self, why):
        """A store on a medium this process cannot write (a write-protected stick): read as
        it is, so that reports and a backup of it still work; a
        write is then one CannotWrite line (_rollback). A WAL store there cannot make the
        -shm file SQLite reads it through: it is read as immutable, unless a -wal beside it
        holds what is not yet in the file itself."""
        uri = "file:%s?" % quote(os.path.abspath(self.path))
        try:
            self._connect_as(uri + "mode=ro")
        except sqlite3.DatabaseError as e:
            if kind(e) not in ("cantopen", "readonly"):
                raise NotAStore("%s: not a Scorebox store (%s)" % (self.path, e))
            if os.path.exists(self.path + "-wal") and os.path.getsize(self.path + "-wal"):
                raise CannotWrite(
                    "%s: cannot read the store where it cannot be written (%s): its -wal file holds changes "
                    "not yet in the store; open it once where it can be written" % (self.path, why)
                )
            self._connect_as(uri + "immutable=1")
        have = self._revision(STORE)
        try:
            current = STORE.current(have, self.path)  # a newer schema is refused as on any medium
        except SchemaMismatch:
            self.db.close()
            raise
        if have is None:
            self.db.close()
            raise CannotWrite(
                "%s: no Scorebox store in it yet, and one cannot be made where it cannot be written (%s)"
                % (self.path, why)
            )
        if not current:
            self.db.close()
            raise CannotWrite(
                "%s: the store is of an older schema (%s) and cannot be brought up to date where it cannot "
                "be written (%s): open it once where it can be written" % (self.path, have, why)
            )

    def _connect_as(self, uri):
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=lock.TRY, factory=lock.Connection)
        try:
            db.store = self.path
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens the file: its errors here
        except BaseException:
            db.close()
            raise
        self.db = db

    def close(self):
        self.db.close()

    def discard_if_empty(self):
        """Close; a store this Store made that still holds nothing (a sync no box answered)
        is removed, with the folders made for it, so a mistyped --db leaves nothing behind."""
        tables = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        empty = self.new and not any(
            self.db.execute('SELECT 1 FROM "%s" LIMIT 1' % t).fetchone()
            for t in tables
            if t not in ("store_info", STORE.version_table)  # made with the store itself
        )
        self.close()
        if not empty:
            return
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                os.remove(self.path + suffix)
            except FileNotFoundError:
                pass
        d = os.path.dirname(os.path.abspath(self.path))
        while self._made and len(d) >= len(self._made):
            try:
                os.rmdir(d)  # only while empty: nothing of anyone else's goes
            except OSError:
                return
            d = os.path.dirname(d)

    def _rollback(self, e):
        """End a failed write transaction. SQLite has already rolled it back after a full
        disk (a second ROLLBACK would hide why with "no transaction is active")."""
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")
        self._cannot_write(e)

    def _cannot_write(self, e):
        """A write SQLite refused for want of room or permission is one line of its kind."""
        if kind(e) in ("full", "readonly"):
            raise (StoreFull if kind(e) == "full" else CannotWrite)(
                "%s: cannot write the store (%s): free disk space or check the file's permissions, "
                "then try again; nothing was stored" % (self.path, e)
            )

    @contextlib.contextmanager
    def transaction(self, shared=False):
        """`with store.transaction():` one write transaction: all written inside it is
        stored, or none of it. Inside another (a league's push: league/server.py), a part of
        that one. shared: it only adds matches (add_checked), and may run beside others
        that do where the database allows it (PostgreSQL's store: postgres.py's begin)."""
        if self.db.in_transaction:
            yield
            return
        self._begin(shared)
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException as e:
            self._rollback(e)
            raise

    def _begin(self, shared):
        self.db.execute("BEGIN IMMEDIATE")  # one writer at a time

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _revision(self, schema):
        made = self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (schema.version_table,)
        ).fetchone()
        return schema.revision(self.db, made is not None)

    def upgrade(self, schema):
        """Bring schema (store/migrate.py's; the store's own, STORE, as it opens) up to date, in
        one write transaction: Alembic's, on a connection of SQLAlchemy's over the store's own
        kind (store/lock.py: the wait for another writer, the writer's note), which reads the
        version again under the lock (another command may have made the same new store)."""
        if schema.current(self._revision(schema), self.path):
            return
        from sqlalchemy import create_engine, event, exc, pool

        def connect():
            db = sqlite3.connect(self.path, isolation_level=None, timeout=lock.TRY, factory=lock.Connection)
            db.store = self.path
            return db

        engine = create_engine("sqlite://", creator=connect, poolclass=pool.NullPool)
        event.listen(engine, "begin", lambda conn: conn.connection.dbapi_connection.execute("BEGIN IMMEDIATE"))
        try:
            with engine.begin() as conn:
                schema.upgrade(conn)
        except exc.DBAPIError as e:
            self._cannot_write(e.orig)
            raise e.orig from None
        finally:
            engine.dispose()

    # --- writing -----------------------------------------------------------------------
    def device(self, uid, firmware=None):
        """The row id of a device, added or refreshed, in a write transaction."""
        with self.transaction():
            return self._device(uid, firmware)

    def _device(self, uid, firmware=None):
        """device() inside a write transaction."""
        now = time.time()
        run(self.db, _MET, {"uid": uid, "firmware": firmware, "first_seen": now, "last_seen": now})
        return run(self.db, _DEVICE_ID, {"uid": uid}).fetchone()[0]

    def keep_space(self, uid, free, total, fit):
        """What box uid's sync read of its space: free and total bytes (None: not said), the
        matches that still fit (device/space.py kept); the Boxes page's capacity."""
        with self.transaction():
            run(self.db, _SPACE, {"uid": uid, "space_free": free, "space_total": total, "matches_fit": fit})

    def has_match(self, uid, number):
        return run(self.db, _HAS_MATCH, {"uid": uid, "number": number}).fetchone() is not None

    def last_number(self, uid):
        """The highest match number stored from box uid (0: none)."""
        return run(self.db, _LAST_NUMBER, {"uid": uid}).fetchone()[0] or 0

    def digests(self, uid, numbers):
        """{number: match_digest} of the matches of numbers the store holds from box uid."""
        out = {}
        numbers = [n for n in numbers if isinstance(n, int) and -(2**63) <= n < 2**63]
        for i in range(0, len(numbers), 500):  # SQLite's limit on parameters
            part = numbers[i : i + 500]
            for n, header, log in run(self.db, _DIGESTS, {"uid": uid, "numbers": part}):
                try:
                    out[n] = match_digest(json.loads(header), json.loads(log))
                except ValueError:  # an unreadable row: never the same as the box's
                    out[n] = None
        return out

    def add_matches(self, uid, items, from_box=False):
        """Check and store several matches [(number, header, log, extras)] in one
        transaction (one disk sync for the lot). Returns, per match, True (stored), False
        (already held) or the Refused that kept it out; the others are stored all the
        same. from_box: read refused events as the box does on resume (check_match)."""
        return self.add_checked(uid, [check(*item, from_box=from_box) for item in items])[0]

    def add_checked(self, uid, checked, quarantine=(), damaged=(), on_stored=None):
        """add_matches for matches check() has already replayed, with bytes for the
        quarantine table [(file, offset, data)] in the same transaction: quarantine,
        unreadable stretches, and damaged, the bytes of matches that cannot be stored.
        on_stored(first id, last id), when given, is called in that transaction once the new
        matches are stored (ids are given in order): what a league keeps of them
        (league/db.py's LeagueDB.keep). Returns (per match True, False or Refused; how many
        quarantine pieces were new)."""
        with self.transaction(shared=True):
            out = []
            dev = self._device(uid)
            added = self._quarantine(dev, quarantine)
            self._quarantine(dev, damaged)
            rows = Rows(self.db)
            seen = self._held(dev, [c.number for c in checked if not isinstance(c, Refused)])
            for c in checked:
                if isinstance(c, Refused):
                    out.append(c)
                    continue
                if c.number in seen:
                    out.append(False)
                    continue
                seen.add(c.number)
                rows.add(dev, c)
                out.append(True)
            rows.write()
            if rows.matches:  # the archers' figures of the new matches (store/figures.py)
                figures.fill(self.db, rows.matches[0][0], rows.matches[-1][0])
                if on_stored is not None:
                    on_stored(rows.matches[0][0], rows.matches[-1][0])
            return out, added

    def compile_writes(self):
        """Compile the statements add_checked runs now, not in its first call: a sync does it
        while the box sends the first file."""
        compile_ahead(self.db.dialect, (_MET, _DEVICE_ID, QUARANTINE, _HELD) + figures.SUMS + (figures.SERIES,))
        compile_rows(self.db.dialect)

    def _held(self, dev, numbers):
        """The numbers of these the store holds from device row dev: asked at once, not one
        a match (a round trip each to a PostgreSQL server)."""
        numbers, out = sorted(set(numbers)), set()
        for i in range(0, len(numbers), 500):  # SQLite's limit on parameters
            part = numbers[i : i + 500]
            out.update(n for (n,) in run(self.db, _HELD, {"dev": dev, "numbers": part}))
        return out

    # --- reading -----------------------------------------------------------------------
    def add_quarantine(self, uid, pieces):
        """Keep bytes the box set aside (file, offset, data); returns how many were new."""
        return self.add_checked(uid, [], pieces)[1]

    def _quarantine(self, dev, pieces):
        before = self.db.total_changes
        rows = [(dev, name, off, raw, time.time()) for name, off, raw in pieces]
        run_many(self.db, QUARANTINE, [dict(zip(QUARANTINE_COLUMNS, r)) for r in rows])
        return self.db.total_changes - before

    def count(self):
        return run(self.db, _COUNT).fetchone()[0]

    def identity(self):
        """The store's own id, made once by its migration: the box it syncs remembers it."""
        return run(self.db, _IDENTITY).fetchone()[0]

    def match_flags(self, mid):
        """What the box said of stored match mid beyond its events (its extras, KEPT_EXTRAS;
        docs/journal.md): confirmed, [side A, side B] or None when it said nothing; lost, the
        records a sync found damaged (["header"], ["result"]); damaged, unreadable stretches
        inside it; stray, records outside it; skipped, the events the replay left out after a
        reboot. None when there is no such match."""
        row = run(self.db, _EXTRAS, {"id": mid}).fetchone()
        if row is None:
            return None
        x = json.loads(row[0])
        lost = x.get("lost")
        return {
            "confirmed": x.get("confirmed"),
            "lost": lost if isinstance(lost, list) else [],  # a store older than the import's check
            "damaged": x.get("damaged") or 0,
            "stray": x.get("stray") or 0,
            "skipped": x.get("skipped") or [],
        }

    def boxes(self):
        """[(device id, name or None, matches, last seen)] of every box the store has met."""
        return run(self.db, _BOXES).fetchall()

    def box_spaces(self):
        """{device id: (free bytes, total bytes, matches that fit)} of the boxes whose space
        a sync has read (keep_space), as the last one read it."""
        rows = run(self.db, _SPACES)
        return {uid: (free, total, fit) for uid, free, total, fit in rows}

    def box_name(self, uid):
        row = run(self.db, _BOX_NAME, {"uid": uid}).fetchone()
        return row[0] if row else None

    def name_box(self, uid, name):
        """Give box uid a name (None: none); NotFound if the store never met it."""
        cur = run(self.db, _NAME_BOX, {"uid": uid, "name": name})
        if not cur.rowcount:
            raise NotFound("no box %s in %s: `scorebox boxes` lists them" % (uid, self.path))

    def check(self):
        """Problems found by SQLite's own checks (empty when the store is sound)."""
        problems = [r[0] for r in self.db.execute("PRAGMA integrity_check") if r[0] != "ok"]
        problems += ["foreign key: %s" % (r,) for r in self.db.execute("PRAGMA foreign_key_check")]
        return problems


# --- the statements (store/sql.py compiles each for the database it runs on) -------------------
_m, _d = t.matches.alias("m"), t.devices.alias("d")
_MATCHES_OF_BOX = _m.join(_d, _d.c.id == _m.c.device_id)
_MET = Each(
    lambda insert: (
        insert(t.devices).values(
            uid=bindparam("uid"),
            firmware=bindparam("firmware"),
            first_seen=bindparam("first_seen"),
            last_seen=bindparam("last_seen"),
        )
    ).on_conflict_do_update(
        index_elements=["uid"],
        set_={
            "last_seen": literal_column("excluded.last_seen"),
            "firmware": func.coalesce(literal_column("excluded.firmware"), t.devices.c.firmware),
        },
    )
)
_DEVICE_ID = select(t.devices.c.id).where(t.devices.c.uid == bindparam("uid"))
_SPACE = (
    update(t.devices)
    .where(t.devices.c.uid == bindparam("uid"))
    .values(
        space_free=bindparam("space_free"), space_total=bindparam("space_total"), matches_fit=bindparam("matches_fit")
    )
)
_HAS_MATCH = (
    select(literal_column("1"))
    .select_from(_MATCHES_OF_BOX)
    .where(_d.c.uid == bindparam("uid"), _m.c.number == bindparam("number"))
)
_LAST_NUMBER = select(func.max(_m.c.number)).select_from(_MATCHES_OF_BOX).where(_d.c.uid == bindparam("uid"))
_DIGESTS = (
    select(_m.c.number, _m.c.header, _m.c.log)
    .select_from(_MATCHES_OF_BOX)
    .where(_d.c.uid == bindparam("uid"), _m.c.number.in_(bindparam("numbers", expanding=True)))
)
_HELD = select(t.matches.c.number).where(
    t.matches.c.device_id == bindparam("dev"), t.matches.c.number.in_(bindparam("numbers", expanding=True))
)
_EXTRAS = select(t.matches.c.extras).where(t.matches.c.id == bindparam("id"))
QUARANTINE_COLUMNS = ("device_id", "file", "offset", "data", "imported")
# a piece of the box's already kept is left as it is
QUARANTINE = Each(
    lambda insert: insert(t.quarantine).values({c: bindparam(c) for c in QUARANTINE_COLUMNS}).on_conflict_do_nothing()
)
_COUNT = select(func.count()).select_from(t.matches)
_IDENTITY = select(t.store_info.c.value).where(t.store_info.c.key == literal_column("'id'"))
_BOXES = select(
    t.devices.c.uid,
    t.devices.c.name,
    select(func.count()).where(t.matches.c.device_id == t.devices.c.id).scalar_subquery(),
    t.devices.c.last_seen,
).order_by(t.devices.c.uid)
_SPACES = select(t.devices.c.uid, t.devices.c.space_free, t.devices.c.space_total, t.devices.c.matches_fit).where(
    t.devices.c.matches_fit.is_not(None)
)
_BOX_NAME = select(t.devices.c.name).where(t.devices.c.uid == bindparam("uid"))
_NAME_BOX = update(t.devices).where(t.devices.c.uid == bindparam("uid")).values(name=bindparam("name"))
