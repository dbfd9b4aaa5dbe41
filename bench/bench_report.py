"""The read side at club scale: a store of 100,000 realistic matches (tests/support/storegen.py:
the corpus archer model played with the rules core, stored with Store.add_matches in
batches of 2,000, as sync stores them), then `scorebox report` and `scorebox export`.

The store is generated once and kept in bench/cache/ (gitignored); delete it to measure the
generation again (`store_generate_seconds_100k` is only reported when it ran).
"""

import os
import shutil
import sys
import tempfile
import time

from storegen import generate

from scorebox.report import html
from scorebox.store import export
from scorebox.store.sqlite import Store

HERE = os.path.dirname(os.path.abspath(__file__))
MATCHES = 100_000
CACHE = os.path.join(HERE, "cache", "store-100k-v2.sqlite")  # v2: the 1.0 store's one baseline


def store_path():
    """The cached store, generated when missing; (path, seconds or None)."""
    if os.path.exists(CACHE):
        return CACHE, None
    os.makedirs(os.path.dirname(CACHE), exist_ok=True)
    tmp = CACHE + ".part"
    for p in (tmp, tmp + "-wal", tmp + "-shm"):
        if os.path.exists(p):
            os.remove(p)
    seconds = generate(tmp, MATCHES, seed=1, progress=lambda n: print("# generated %d" % n, file=sys.stderr))
    s = Store(tmp)
    s.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    s.close()
    os.replace(tmp, CACHE)
    return CACHE, seconds


def folder_bytes(folder):
    return sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))


def run():
    path, gen = store_path()
    out = {}
    if gen is not None:
        out["store_generate_seconds_100k"] = round(gen, 1)
    store = Store(path)
    if store.count() != MATCHES:
        raise RuntimeError("%s holds %d matches, not %d: delete it" % (path, store.count(), MATCHES))
    work = tempfile.mkdtemp(prefix="bench-report-")
    try:
        page = os.path.join(work, "report.html")
        t0 = time.perf_counter()
        size = html.write(store, page)
        out["report_seconds_100k"] = round(time.perf_counter() - t0, 2)
        out["report_bytes_100k"] = size
        t0 = time.perf_counter()
        export.export(store, os.path.join(work, "json"), "json")
        out["export_seconds_100k"] = round(time.perf_counter() - t0, 2)
        out["export_json_bytes_100k"] = folder_bytes(os.path.join(work, "json"))
        t0 = time.perf_counter()
        export.export(store, os.path.join(work, "csv"), "csv")
        out["export_csv_seconds_100k"] = round(time.perf_counter() - t0, 2)
        out["export_csv_bytes_100k"] = folder_bytes(os.path.join(work, "csv"))
        out["store_bytes_100k"] = os.path.getsize(path)
        out["store_arrows_100k"] = store.db.execute("SELECT count(*) FROM arrows").fetchone()[0]
    finally:
        store.close()
        shutil.rmtree(work, ignore_errors=True)
    return out
