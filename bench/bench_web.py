"""The club's desk at club scale: on bench_report's 100,000-match store, the
matches list, an archer's page and a match's page, each asked 50 times through Flask's test
client (the whole app: its checks, the Store opened per request on the real SQLite file,
Jinja2), each request another page: the list's first pages, filtered by each archer or box
and paged on; every archer's page in turn; 50 matches drawn across the store. The figure
is the 95th percentile (nearest rank) in milliseconds; the goal is 300 ms.
"""

import math
import random
import shutil
import tempfile
import time

from bench_report import MATCHES, store_path

from scorebox.store.sqlite import Store
from scorebox.web.app import create_app

REQUESTS = 50


def p95_ms(client, urls):
    times = []
    for url in urls:
        t0 = time.perf_counter()
        r = client.get(url)
        times.append(time.perf_counter() - t0)
        if r.status_code != 200:
            raise RuntimeError("%s answered %d" % (url, r.status_code))
    return round(1000 * sorted(times)[math.ceil(0.95 * len(times)) - 1], 1)


def run():
    path, _ = store_path()
    s = Store(path)
    try:
        if s.count() != MATCHES:
            raise RuntimeError("%s holds %d matches, not %d: delete it" % (path, s.count(), MATCHES))
        names = sorted(s.archer_names().values())
        boxes = [uid for uid, *_ in s.boxes()]
    finally:
        s.close()
    rnd = random.Random(24)
    lists = ["/matches"]
    lists += ["/matches?archer=%s" % n for n in names] + ["/matches?box=%s" % b for b in boxes]
    lists += ["/matches?before=%d" % rnd.randrange(1, MATCHES) for _ in range(REQUESTS - len(lists) - 10)]
    lists += ["/matches?archer=%s&before=%d" % (rnd.choice(names), rnd.randrange(1, MATCHES)) for _ in range(10)]
    archers = ["/stats?archer=%s" % names[i % len(names)] for i in range(REQUESTS)]
    matches = ["/matches/%d" % rnd.randrange(1, MATCHES + 1) for _ in range(REQUESTS)]
    work = tempfile.mkdtemp(prefix="bench-web-")
    try:
        client = create_app(path, workdir=work).test_client()
        return {
            "web_p95_ms_100k_matches": p95_ms(client, lists),
            "web_p95_ms_100k_archer": p95_ms(client, archers),
            "web_p95_ms_100k_match": p95_ms(client, matches),
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)
