"""`make bench`: run every bench/bench_*.py, write bench/results.json, print a table.

Each bench module has `run() -> dict` of metric name -> number; names are unique across
modules. Run one module alone with `python bench/run.py NAME` (e.g. `rules`).
"""

import importlib
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [HERE, os.path.join(ROOT, "tests", "support"), os.path.join(ROOT, "tests", "mpy")]


def modules(only):
    names = sorted(f[6:-3] for f in os.listdir(HERE) if f.startswith("bench_") and f.endswith(".py"))
    return [n for n in names if not only or n in only]


def main(argv):
    results = {}
    for name in modules(argv):
        t0 = time.time()
        got = importlib.import_module("bench_" + name).run()
        for key in got:
            if key in results:
                raise SystemExit("metric %s reported twice" % key)
        results.update(got)
        print("# %s: %.1f s" % (name, time.time() - t0), file=sys.stderr)
    path = os.path.join(HERE, "results.json")
    if argv and os.path.exists(path):  # a partial run keeps the other modules' figures
        with open(path) as f:
            results = {**json.load(f), **results}
    with open(path, "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)
        f.write("\n")
    width = max(len(k) for k in results)
    print("%-*s  %s" % (width, "metric", "value"))
    for k in sorted(results):
        v = results[k]
        print("%-*s  %s" % (width, k, ("%.3f" % v).rstrip("0").rstrip(".") if isinstance(v, float) else v))


if __name__ == "__main__":
    main(sys.argv[1:])
