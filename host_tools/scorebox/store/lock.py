"""The store's write lock: waiting for another writer, and saying who it is.

SQLite lets one connection write at a time. A command that finds the store being written
waits for it up to LOCK_WAIT seconds, says once on stderr that it is waiting, and then
ends with one line naming the writer instead of SQLite's "database is locked" traceback.

Who holds the lock: a scorebox command keeps a small note beside the store (STORE-writer:
its command, pid and since when) while it holds a write transaction, removed before the
transaction ends; another program is found by its lock in the kernel's /proc/locks (Linux)
and named from /proc/PID/comm. A note whose process is gone, or that another process's
lock contradicts, is stale and ignored.

The PC tool installs on any OS: /proc is read only where it is there, and a process is
asked whether it is alive (os.kill(pid, 0)) only on POSIX: on Windows os.kill ends it.
"""

import atexit
import contextlib
import json
import os
import sqlite3
import sys
import tempfile
import time

from scorebox.store.errors import StoreLocked

LOCK_WAIT = 30.0  # seconds a command waits for another writer (a sync's batch takes well under 1 s)
NOTE_AFTER = 1.0  # the wait is said on stderr once it has lasted this long
TRY = 0.25  # SQLite's own busy wait per try (the connection's timeout)
PENDING_BYTE = 0x40000000  # SQLite's lock bytes on the database file (rollback journal, or WAL in exclusive mode)
WAL_WRITE_LOCK = 120  # the byte of the -shm file a WAL writer locks
PROC_LOCKS = "/proc/locks"  # Linux only
_said = []  # the wait is said once per process
_held = set()  # notes this process has written and not yet removed


def note_path(store):
    return store + "-writer"


def _command():
    """'scorebox sync' for the note, from the command line this process runs."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
    if name in ("scorebox", "__main__.py"):
        name = "scorebox"
    words = [a for a in sys.argv[1:] if not a.startswith("-")][:1]
    return " ".join([name] + words)


def hold(store):
    """Write this process's note: called once it holds the store's write lock."""
    if store is None:
        return
    path = note_path(store)
    try:
        # A new file renamed onto the note: a link or a file someone put there under that
        # name is replaced, never written through.
        fd, tmp = tempfile.mkstemp(prefix=".scorebox-writer.", dir=os.path.dirname(os.path.abspath(path)))
        try:
            with os.fdopen(fd, "w") as f:
                json.dump({"pid": os.getpid(), "command": _command(), "since": time.time()}, f)
            os.replace(tmp, path)
        except BaseException:
            os.remove(tmp)
            raise
        _held.add(path)
    except OSError:
        pass  # a courtesy to whoever waits: never a reason to fail the write


def release(store):
    """Remove this process's note, before its write transaction ends: the next writer's
    note, written once it has the lock, is never the one removed. True if there was one."""
    path = note_path(store) if store is not None else None
    if path not in _held:
        return False
    _held.discard(path)
    try:
        os.remove(path)
    except OSError:
        pass
    return True


@atexit.register
def _release_all():
    for path in list(_held):
        release(path[: -len("-writer")])


def _note(store):
    try:
        with open(note_path(store)) as f:
            note = json.load(f)
        return note if isinstance(note.get("pid"), int) and isinstance(note.get("command"), str) else None
    except (OSError, ValueError, AttributeError):
        return None


def _alive(pid):
    if os.name != "posix":
        return True  # the note is trusted: there is no harmless signal 0 (Windows' os.kill ends the process)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # there, but another user's
    return True


def _file_id(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)


def locker(store):
    """The pid of the process holding the store's write lock, as the kernel lists POSIX
    locks in /proc/locks; None where the OS does not say (no /proc/locks: not Linux)."""
    try:
        with open(PROC_LOCKS) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    shm, db = _file_id(store + "-shm"), _file_id(store)
    for line in lines:
        w = line.split()
        if len(w) < 8 or w[1] != "POSIX" or w[3] != "WRITE":  # "->": a waiter, not a holder
            continue
        pid, fid, start = int(w[4]), w[5], int(w[6])
        if pid in (os.getpid(), -1):
            continue
        if (fid == shm and start == WAL_WRITE_LOCK) or (fid == db and start >= PENDING_BYTE):
            return pid
    return None


def _comm(pid):
    try:
        with open("/proc/%d/comm" % pid) as f:
            return f.read().strip() or "a program"
    except OSError:
        return "a program"


def holder(store):
    """Who holds the store's write lock, in a few words: 'scorebox sync (pid 812, writing
    since 14:02:11)', 'sqlite3 (pid 913)' or 'another program'."""
    pid, note = locker(store), _note(store)
    if note and note["pid"] != os.getpid() and (note["pid"] == pid or (pid is None and _alive(note["pid"]))):
        since = note.get("since")
        when = time.strftime(", writing since %H:%M:%S", time.localtime(since)) if isinstance(since, float) else ""
        return "%s (pid %d%s)" % (note["command"], note["pid"], when)
    if pid is not None:
        return "%s (pid %d)" % (_comm(pid), pid)
    return "another program"


def kind(e):
    """SQLite's name for what went wrong ("full", "readonly", "cantopen", "busy", "locked"...),
    in lower case without "SQLITE_"; from the message where Python (before 3.11) gives no code."""
    name = getattr(e, "sqlite_errorname", None)
    if name:
        return name[len("SQLITE_") :].split("_")[0].lower()
    text = str(e)
    for key, said in (
        ("full", "full"),
        ("readonly", "readonly"),
        ("cantopen", "unable to open"),
        ("busy", "busy"),
        ("locked", "locked"),
    ):
        if said in text:
            return key
    return None


def _locked(e):
    return isinstance(e, sqlite3.OperationalError) and kind(e) in ("locked", "busy")


def _gave_up(store, waited=None):
    waiting = "" if waited is None else "; waited %d s for it" % round(waited)
    return StoreLocked(
        "%s: the store is being written by %s%s: try again once it has finished" % (store, holder(store), waiting)
    )


class Connection(sqlite3.Connection):
    """The store's connection (sqlite3.connect's factory, timeout=TRY): a statement outside a
    transaction that finds the store locked is tried again until LOCK_WAIT (it changed
    nothing: SQLite refused it whole); one inside a transaction already holds what it needs
    or cannot wait. Either way a lock that stays is one StoreLocked line naming its holder.
    BEGIN IMMEDIATE / EXCLUSIVE write the holder's note, COMMIT and ROLLBACK remove it (and
    write it again when they fail with the transaction still open: the lock is still held)."""

    store = None  # the store's path, set by Store
    dialect = "sqlite"  # store/sql.py compiles its statements for it

    def lock_names(self):
        """The write lock is one writer's already (BEGIN IMMEDIATE): nothing more to take."""

    def lock_totals(self):
        """As lock_names."""

    def savepoint(self):
        """None needed by store/sql.py's insert_made: its temporary table is made and dropped
        inside the store's write transaction, which a failure rolls back whole."""
        return contextlib.nullcontext()

    def execute(self, sql, params=()):
        if self.in_transaction:
            if not sql.startswith(("COMMIT", "ROLLBACK", "END")):
                return self._once(super().execute, sql, params)
            held = release(self.store)
            try:
                return self._once(super().execute, sql, params)
            finally:
                if held and self.in_transaction:
                    hold(self.store)
        start = time.monotonic()
        while True:
            try:
                cur = super().execute(sql, params)
                break
            except sqlite3.OperationalError as e:
                waited = time.monotonic() - start
                if not _locked(e):
                    raise
                if waited >= LOCK_WAIT:
                    raise _gave_up(self.store, waited) from None
                if waited >= NOTE_AFTER and not _said:
                    _said.append(True)
                    print(
                        "%s is being written by %s: waiting for it (up to %d s)"
                        % (self.store, holder(self.store), LOCK_WAIT),
                        file=sys.stderr,
                    )
                time.sleep(0.05)  # some refusals come at once (no busy wait): never a spin
        if sql.startswith(("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE")):
            hold(self.store)
        return cur

    def executemany(self, sql, rows):
        return self._once(super().executemany, sql, rows)

    def _once(self, run, sql, params):
        try:
            return run(sql, params)
        except sqlite3.OperationalError as e:
            if _locked(e):
                raise _gave_up(self.store) from None
            raise

    # The DB-API's commit and rollback (SQLAlchemy's, for the migrations: store/sqlite.py's
    # upgrade) as the statements, so that the writer's note goes with the transaction.
    def commit(self):
        if self.in_transaction:
            self.execute("COMMIT")

    def rollback(self):
        if self.in_transaction:
            self.execute("ROLLBACK")

    def close(self):
        release(self.store)
        super().close()
