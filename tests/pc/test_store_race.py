"""Two commands opening a new store at once (issue 13, item 17): both see it migrated, none
fails "table devices already exists". The schema version is read inside the write
transaction. Real processes, a real SQLite file, started together at a barrier."""

import multiprocessing

from scorebox.store.schema import SCHEMA_VERSION
from scorebox.store.sqlite import Store

TRIALS = 15


def open_store(path, barrier, out):
    barrier.wait()
    try:
        s = Store(path)
        out.put(s.db.execute("PRAGMA user_version").fetchone()[0])
        s.close()
    except Exception as e:
        out.put(repr(e))


def test_two_commands_opening_a_new_store_at_once(tmp_path):
    ctx = multiprocessing.get_context("fork")
    for trial in range(TRIALS):
        path = str(tmp_path / ("new%d.sqlite" % trial))
        barrier, out = ctx.Barrier(2), ctx.Queue()
        procs = [ctx.Process(target=open_store, args=(path, barrier, out)) for _ in range(2)]
        for p in procs:
            p.start()
        got = [out.get(timeout=30), out.get(timeout=30)]
        for p in procs:
            p.join(timeout=30)
        assert got == [SCHEMA_VERSION, SCHEMA_VERSION], got
