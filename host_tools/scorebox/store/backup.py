"""`scorebox backup` and `scorebox restore`: the store file, copied and checked.

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

from scorebox.store import files
from scorebox.store.db import SCHEMA_VERSION, Store, StoreError, check_match, default_path, no_store, schema_problems
from scorebox.text import plural
from scorebox_core.ttb.rules import side_name

MAGIC = b"SQLite format 3\x00"
TABLES = {
    1: ("devices", "archers", "matches", "match_archers", "games", "turns", "arrows"),
    2: ("quarantine",),
}
REPLAY_CHECK = 50  # newest matches replayed by the rules core when a file is checked


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
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version < 1:
            return ["not a Scorebox store (no schema version)"]
        if version > SCHEMA_VERSION:
            return ["store schema %d is newer than this scorebox (%d): upgrade scorebox" % (version, SCHEMA_VERSION)]
        have = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        need = [t for v in sorted(TABLES) if v <= version for t in TABLES[v]]
        missing = [t for t in need if t not in have]
        if missing:
            return ["not a Scorebox store: no table %s" % ", ".join(missing)]
        other = schema_problems(db)  # no triggers, views or other objects; every table as ours
        if other:
            return ["not a Scorebox store's schema: %s" % p for p in other[:10]]
        fk = db.execute("PRAGMA foreign_key_check").fetchall()
        if fk:
            return ["foreign key: %s" % (r,) for r in fk[:10]]
        # The derived results must be what the rules core makes of the events.
        out = []
        for mid, header, log, winner in db.execute(
            "SELECT id, header, log, winner FROM matches ORDER BY id DESC LIMIT ?", (replay,)
        ):
            try:
                m = check_match(json.loads(header), json.loads(log))
            except (StoreError, ValueError) as e:
                out.append("match %d: %s" % (mid, e))
                continue
            if side_name(m.result()) != winner:
                out.append("match %d: stored result %s, the rules core says %s" % (mid, winner, side_name(m.result())))
        return out
    except sqlite3.DatabaseError as e:
        return ["damaged: %s" % e]
    finally:
        db.close()


def _copy(src_db, dest_path, journal="DELETE"):
    """SQLite backup of an open connection into dest_path (replaced whole at the end)."""
    tmp = files.temporary(dest_path)  # a new name: no file of anyone's is removed on the way
    try:
        dst = sqlite3.connect(tmp, isolation_level=None)
        try:
            src_db.backup(dst, pages=4096)
            dst.execute("PRAGMA journal_mode = %s" % journal)
        finally:
            dst.close()
        os.replace(tmp, dest_path)
    except BaseException:
        files.discard(tmp)
        raise


def backup(store_path, dest):
    """Copy the store to dest and check the copy; returns (matches, bytes)."""
    if not os.path.exists(store_path):
        raise StoreError(no_store(store_path))
    if os.path.abspath(dest) == os.path.abspath(store_path):
        raise StoreError("the backup must go to another file than the store")
    src = Store(store_path)  # migrates an old store first: the backup is of the current schema
    try:
        n = src.count()
        os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
        _copy(src.db, dest)
    finally:
        src.close()
    bad = problems(dest)
    if bad:
        raise StoreError("%s: the backup did not check out: %s" % (dest, "; ".join(bad)))
    db = _connect_ro(dest)
    try:
        got = db.execute("SELECT count(*) FROM matches").fetchone()[0]
    finally:
        db.close()
    if got != n:
        raise StoreError("%s: the backup holds %s, the store %d" % (dest, plural(got, "match", "matches"), n))
    return n, os.path.getsize(dest)


def restore(store_path, src_path, keep_old=True):
    """Replace the store with the backup at src_path, after checking it. The store it
    replaces is backed up first (its path returned, or None when there was none)."""
    bad = problems(src_path)
    if bad:
        raise StoreError("%s: not a sound Scorebox store, nothing restored: %s" % (src_path, "; ".join(bad)))
    if os.path.abspath(src_path) == os.path.abspath(store_path):
        raise StoreError("that file is the store itself")
    old = None
    if keep_old and os.path.exists(store_path):
        stem = "%s.before-restore-%s" % (os.path.splitext(store_path)[0], time.strftime("%Y%m%d-%H%M%S"))
        old, n = stem + ".sqlite", 1
        while os.path.lexists(old) or os.path.lexists(old + "-wal"):  # two restores in a second: keep both
            n += 1
            old = "%s-%d.sqlite" % (stem, n)
        if problems(store_path, replay=0):
            # A damaged store (maybe why it is restored): moved aside as it is, -wal and all.
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(store_path + suffix):
                    os.replace(store_path + suffix, old + suffix)
        else:
            backup(store_path, old)
    src = _connect_ro(src_path)
    try:
        os.makedirs(os.path.dirname(os.path.abspath(store_path)), exist_ok=True)
        dst = sqlite3.connect(store_path, isolation_level=None)
        try:
            # Into the live store: another reader sees the old pages or the new, never a mix.
            src.backup(dst, pages=4096)
            dst.execute("PRAGMA journal_mode = WAL")
        finally:
            dst.close()
    finally:
        src.close()
    store = Store(store_path)  # brings an older backup up to the current schema
    try:
        left = store.check()
        n = store.count()
    finally:
        store.close()
    if left:
        raise StoreError("%s: the restored store did not check out: %s" % (store_path, "; ".join(left)))
    return n, old


# --- the commands --------------------------------------------------------------------------
def _store_path(args):
    return args.db or default_path()


def cmd_backup(args):
    path = _store_path(args)
    dest = args.file or "scorebox-backup-%s.sqlite" % time.strftime("%Y%m%d-%H%M%S")
    if os.path.lexists(dest):
        if not args.force:
            raise StoreError("%s exists: give another name or --force" % dest)
        # --force replaces an earlier backup or store, never another file, folder or link
        files.check_target(dest, lambda head: head.startswith(MAGIC), "a backup (--force replaces only a backup)")
    n, size = backup(path, dest)
    print("backup of %s: %s (%s, %.1f MB), checked" % (path, dest, plural(n, "match", "matches"), size / 1e6))
    return 0


def cmd_restore(args):
    path = _store_path(args)
    n, old = restore(path, args.file)
    if old:
        print("the store that was there is kept as %s" % old)
    print("restored %s from %s: %s, checked" % (path, args.file, plural(n, "match", "matches")))
    return 0


def add_parser(sub):
    p = sub.add_parser("backup", help="copy the store to a file, checked")
    p.add_argument("file", nargs="?", help="backup file (default scorebox-backup-DATE-TIME.sqlite here)")
    p.add_argument("--db", help="store file (default: in your user data folder)")
    p.add_argument("--force", action="store_true", help="overwrite an earlier backup of that name")
    p.set_defaults(run=cmd_backup)
    r = sub.add_parser("restore", help="replace the store with a backup, after checking it")
    r.add_argument("file", help="a backup made by scorebox backup (or another store file)")
    r.add_argument("--db", help="store file (default: in your user data folder)")
    r.set_defaults(run=cmd_restore)
