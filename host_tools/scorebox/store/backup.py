"""The SQLite store's file, copied and checked, for `scorebox backup` and `scorebox restore`.

Both copy with SQLite's online backup API (a consistent copy even while another scorebox
is writing, WAL included), never with a file copy. A backup is one self-contained file
(rollback journal mode, no -wal beside it) and is checked after it is written. Restore
checks the file first and refuses anything that is not a sound Scorebox store; the store
it replaces is itself backed up beside it first.
"""

import json
import os
import sqlite3
import time

from scorebox.store import files, lock
from scorebox.store.checks import check
from scorebox.store.errors import CannotWrite, NoStore, NotAStore, Refused, StoreError
from scorebox.store.migrate import STORE
from scorebox.store.schema import schema_problems
from scorebox.store.sqlite import Store
from scorebox.store.urls import is_url, shown
from scorebox.text import plural

MAGIC = b"SQLite format 3\x00"
TABLES = ("devices", "archers", "matches", "match_archers", "games", "turns", "arrows", "quarantine")
REPLAY_CHECK = 50  # newest matches replayed by the rules core when a file is checked
_AS_IT_WAS = "free disk space, then try again; nothing was restored, the store is as it was"
UNREAD = ("cannot read", "cannot open")  # problems() that say nothing of the file's contents


def _connect_ro(path):
    return sqlite3.connect("file:%s?mode=ro" % os.path.abspath(path), uri=True, isolation_level=None)


def problems(path, replay=REPLAY_CHECK):
    """Why the file at path is not a sound Scorebox store (empty list when it is)."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as e:
        return ["cannot read: %s" % (e.strerror or e)]
    if not head.startswith(MAGIC):
        return ["not an SQLite database"]
    try:
        db = _connect_ro(path)
    except sqlite3.Error as e:
        return ["cannot open: %s" % e]
    try:
        bad = [r[0] for r in db.execute("PRAGMA integrity_check") if r[0] != "ok"]
        if bad:
            return ["integrity check: %s" % b for b in bad[:10]]
        have = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        version = STORE.revision(db, STORE.version_table in have)
        if version is None:
            return ["not a Scorebox store (no schema version)"]
        if not STORE.knows(version):
            return ["store schema %s is newer than this scorebox (%s): upgrade scorebox" % (version, STORE.head)]
        missing = [t for t in TABLES if t not in have]
        if missing:
            return ["not a Scorebox store: no table %s" % ", ".join(missing)]
        other = schema_problems(db)  # no triggers, views or other objects; every table as ours
        if other:
            return ["not a Scorebox store's schema: %s" % p for p in other[:10]]
        fk = db.execute("PRAGMA foreign_key_check").fetchall()
        if fk:
            return ["foreign key: %s" % (r,) for r in fk[:10]]
        # The derived results must be what the rules core makes of the events, each game
        # with its own rules (Try-Tac-Toe's too), as a sync stored them.
        out = []
        for mid, number, header, log, extras, stored in db.execute(
            "SELECT id, number, header, log, extras, json_array(winner, wins_a, wins_b, draws, finished) "
            "FROM matches ORDER BY id DESC LIMIT ?",
            (replay,),
        ):
            try:
                c = check(number, json.loads(header), json.loads(log), json.loads(extras))
            except ValueError as e:
                c = Refused(e)
            if isinstance(c, Refused):
                out.append("match %d: %s" % (mid, c))
                continue
            stored = json.loads(stored)
            if c.row[6] != stored[0]:
                out.append("match %d: stored result %s, the rules core says %s" % (mid, stored[0], c.row[6]))
            elif list(c.row[7:11]) != stored[1:]:
                out.append(
                    "match %d: stored wins, draws and end %s, the rules core says %s" % (mid, stored[1:], c.row[7:11])
                )
        return out
    except sqlite3.DatabaseError as e:
        if lock.kind(e) in ("cantopen", "readonly"):  # a WAL store on a read-only medium: unread, not damaged
            return ["cannot open: %s" % e]
        return ["damaged: %s" % e]
    finally:
        db.close()


def _count(path):
    db = _connect_ro(path)
    try:
        return db.execute("SELECT count(*) FROM matches").fetchone()[0]
    finally:
        db.close()


def _copy(
    src_db, dest_path, journal="DELETE", check=True, what="the backup", then="free disk space or choose another place"
):
    """SQLite backup of an open connection into dest_path, through a new file beside it
    that becomes dest_path only once it is written whole and, with check, checked: no
    half-made file is ever left behind. Returns the matches copied."""
    tmp = files.temporary(dest_path)  # a new name: no file of anyone's is removed on the way
    try:
        # One read transaction: the count and the copy are the same moment of the store.
        src_db.execute("BEGIN")
        try:
            n = src_db.execute("SELECT count(*) FROM matches").fetchone()[0]
            dst = sqlite3.connect(tmp, isolation_level=None)
            try:
                src_db.backup(dst)
                dst.execute("PRAGMA journal_mode = %s" % journal)
            finally:
                dst.close()
        finally:
            src_db.execute("ROLLBACK")
        if check:
            bad = problems(tmp)
            if bad:
                raise StoreError("%s: the backup did not check out, nothing written: %s" % (dest_path, "; ".join(bad)))
            got = _count(tmp)
            if got != n:
                raise StoreError(
                    "%s: the backup holds %s, the store %d" % (dest_path, plural(got, "match", "matches"), n)
                )
        os.replace(tmp, dest_path)
        return n
    except (sqlite3.Error, OSError) as e:  # a full disk, a folder not ours...
        files.discard(tmp)
        why = e.strerror if isinstance(e, OSError) and e.strerror else e
        raise CannotWrite("%s: cannot write %s (%s): %s" % (dest_path, what, why, then))
    except BaseException:
        files.discard(tmp)
        raise


def _a_file(store_path, what):
    """Refuse, in one line, a store on a PostgreSQL server: SQLite's backup API copies files."""
    if is_url(store_path):
        raise StoreError(
            "%s is a PostgreSQL store: scorebox %s copies a store file; use pg_dump and pg_restore "
            "(docs/postgres.md)" % (shown(store_path), what)
        )


def backup(store_path, dest):
    """Copy the store to dest and check the copy; returns (matches, bytes)."""
    _a_file(store_path, "backup")
    if not os.path.exists(store_path):
        raise NoStore(store_path)
    if _same_file(dest, store_path):
        raise StoreError("the backup must go to another file than the store")
    # Migrates an old store first (the backup is of the current schema); a store on a
    # write-protected medium is read as it is (store/sqlite.py).
    src = Store(store_path, create=False)
    try:
        n = _copy(src.db, dest)
    finally:
        src.close()
    return n, os.path.getsize(dest)


def _kept_name(store_path):
    """A new name for the store a restore replaces: STORE.before-restore-DATE-TIME.sqlite."""
    stem = "%s.before-restore-%s" % (os.path.splitext(store_path)[0], time.strftime("%Y%m%d-%H%M%S"))
    old, n = stem + ".sqlite", 1
    while os.path.lexists(old) or os.path.lexists(old + "-wal"):  # two restores in a second: keep both
        n += 1
        old = "%s-%d.sqlite" % (stem, n)
    return old


def restore(store_path, src_path, keep_old=True, shown=None):
    """Replace the store with the backup at src_path, after checking it. The store it
    replaces is backed up first (its path returned, or None when there was none). shown:
    what a refusal calls the backup (an upload's own file name, not where it was saved)."""
    _a_file(store_path, "restore")
    shown = shown or src_path
    if _same_file(src_path, store_path):  # else the swap would wait on its own lock
        raise StoreError("%s is the store itself: nothing restored" % shown)
    bad = problems(src_path)
    if bad:
        raise NotAStore("%s: not a sound Scorebox store, nothing restored: %s" % (shown, "; ".join(bad)))
    old = None
    damaged = os.path.exists(store_path) and [
        p for p in problems(store_path, replay=0) if not p.startswith(UNREAD)
    ]  # one that cannot be opened here (a read-only medium) is the swap's to refuse
    if damaged and keep_old:
        # A damaged store (maybe why it is restored): moved aside as it is, -wal and all,
        # and moved back if the restore fails.
        old = _kept_name(store_path)
        _move(store_path, old, store_path)
    if os.path.exists(store_path):
        old = _swap(store_path, src_path, keep_old)
    else:
        try:
            src = _connect_ro(src_path)
            try:
                # checked below, once up to date
                _copy(src, store_path, "WAL", check=False, what="the restored store", then=_AS_IT_WAS)
            finally:
                src.close()
        except BaseException:
            if old:
                _move(old, store_path, store_path, back=True)
            raise
    store = Store(store_path)  # brings an older backup up to the current schema
    try:
        left = store.check()
        n = store.count()
    finally:
        store.close()
    if left:
        raise StoreError("%s: the restored store did not check out: %s" % (store_path, "; ".join(left)))
    return n, old


def _same_file(a, b):
    """a and b name one file: the same path, a symbolic link to the other, or a hard link
    (the same inode)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them is not there
        return False


def _move(src, dest, store_path, back=False):
    """The store's files (-wal and all) renamed from src to dest; an OSError is one line
    saying where the store is."""
    try:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(src + suffix):
                os.replace(src + suffix, dest + suffix)
    except OSError as e:
        where = "it is now %s" % src if back else "it is still %s" % store_path
        raise CannotWrite(
            "%s: the restore failed, cannot move the damaged store (%s): %s" % (store_path, e.strerror or e, where)
        )


def _swap(store_path, src_path, keep_old):
    """The live store's rows replaced by the backup's, in one write transaction that also
    covers the copy of what it replaces. Another writer (a sync) either
    committed before: its matches are in the copy; or waits, and commits into the restored
    store after. Either way a match it acknowledged is in one of the two. The file stays
    the same file, so that a writer with it open never writes into one that is gone.
    Returns the copy's path (None without keep_old)."""
    live = Store(store_path)
    db, old = live.db, None
    try:
        db.execute("PRAGMA foreign_keys = OFF")  # the tables go and come back in any order
        db.execute("ATTACH DATABASE ? AS backup", (os.path.abspath(src_path),))
        db.execute("BEGIN IMMEDIATE")  # waits for a writer's transaction to end (store/lock.py)
        try:
            if keep_old:
                old = _kept_name(store_path)
                reader = sqlite3.connect(store_path, isolation_level=None)  # sees what is committed
                try:
                    # Its copy goes beside the store, where no one chose: the message says what it is.
                    _copy(reader, old, what="the copy of the store before the restore", then=_AS_IT_WAS)
                finally:
                    reader.close()
            _replace_rows(db)
            db.execute("COMMIT")
        except BaseException as e:
            if old:
                files.discard(old)  # the store is as it was: its copy is not needed
            if db.in_transaction:  # after a full disk SQLite has rolled it back itself
                db.execute("ROLLBACK")
            if isinstance(e, sqlite3.Error):  # a full disk, a read-only store: one line
                raise CannotWrite(
                    "%s: the restore failed, the store is as it was (%s): free disk space or check "
                    "the file's permissions, then try again" % (store_path, e)
                )
            raise
    finally:
        live.close()
    return old


def _replace_rows(db):
    """Inside db's write transaction: drop main's tables, make the attached backup's (its
    schema is this scorebox's, problems() checked: 1.0's is the only one) and copy their rows,
    its version table's too. A later schema brings an older backup up to date here, in the
    same transaction: a sync waiting for the lock writes into the current schema, never into
    the backup's."""
    kinds = ("view", "trigger", "table")
    mine = db.execute("SELECT type, name FROM main.sqlite_master WHERE name NOT LIKE 'sqlite^_%' ESCAPE '^'")
    for kind, name in sorted(mine.fetchall(), key=lambda r: kinds.index(r[0]) if r[0] in kinds else -1):
        if kind in kinds:
            db.execute('DROP %s IF EXISTS main."%s"' % (kind.upper(), name.replace('"', '""')))
    theirs = db.execute(
        "SELECT type, name, sql FROM backup.sqlite_master WHERE sql IS NOT NULL "
        "AND name NOT LIKE 'sqlite^_%' ESCAPE '^' ORDER BY type = 'index', rowid"
    ).fetchall()
    for kind, name, sql in theirs:
        db.execute(sql)
        if kind == "table":
            q = name.replace('"', '""')
            db.execute('INSERT INTO main."%s" SELECT * FROM backup."%s"' % (q, q))
