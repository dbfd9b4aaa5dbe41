"""Two commands opening a new store at once (issue 13, item 17): both see it migrated, none
fails "table devices already exists". The schema version is read inside the write
transaction (Alembic's, under the store's write lock). Real processes, a real SQLite file or
PostgreSQL database (issue 26), started together at a barrier."""

import multiprocessing

from scorebox.store import access
from scorebox.store.migrate import STORE

pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database
TRIALS = 15


def open_store(path, barrier, out):
    barrier.wait()
    try:
        s = access.open_store(path, create=True)
        out.put(s.db.execute("SELECT version_num FROM scorebox_version").fetchone()[0])
        s.close()
    except Exception as e:
        out.put(repr(e))


def test_two_commands_opening_a_new_store_at_once(store_at, tmp_path, request):
    ctx = multiprocessing.get_context("fork")
    for trial in range(TRIALS):
        path = str(tmp_path / ("new%d.sqlite" % trial))
        if access.is_url(store_at):  # a new database each time
            path = store_at if trial == 0 else request.getfixturevalue("pg_server").new_database()
        barrier, out = ctx.Barrier(2), ctx.Queue()
        procs = [ctx.Process(target=open_store, args=(path, barrier, out)) for _ in range(2)]
        for p in procs:
            p.start()
        got = [out.get(timeout=30), out.get(timeout=30)]
        for p in procs:
            p.join(timeout=30)
        assert got == [STORE.head, STORE.head], got
