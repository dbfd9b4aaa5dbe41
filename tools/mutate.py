"""Mutation testing of the shared core (firmware/scorebox_core) with the CPython tests:
`make mutate` (not run by `make test` nor CI: it takes minutes).

A mutant is one small change to one module: a comparison swapped (< and <=, == and !=, is
and is not, in and not in), `and` and `or`, + and -, an int constant +1 or -1, True and
False, a `return x` made `return None`, a statement deleted. Each mutant is written into a
copy of the core, alone, and the tests that exercise its module (MODULES below) run
against it in a fresh process; a mutant they pass on *survived*: a behaviour no test pins,
or a change nothing can see (an equivalent mutant). A run that takes far longer than the
clean run counts as killed (an endless loop is a failure too).

    python tools/mutate.py [--sample N] [--seed S] [--module NAME ...] [--jobs J]

Prints each survivor as file:line and the change, a score per module, and writes
bench/mutation.json. --sample N draws N mutants per module (0: all), the same ones for the
same seed and source. The original tree is never touched.

Tools such as mutmut and cosmic-ray were not used: the core is imported from firmware/
(setuptools' package-dir, an editable install), which mutmut 3's mutants/ copy does not
follow, cosmic-ray mutates the working tree in place (shared here), and neither samples.
"""

import argparse
import ast
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(ROOT, "firmware", "scorebox_core")

# module (path under scorebox_core) -> the CPython tests that exercise it, fast enough to
# run once per mutant; the quickest first, as a mutant's run stops at its first failure.
MODULES = {
    "ttb/rules.py": [
        "tests/pc/test_mutation_ttb.py",
        "tests/both/test_vectors.py",
        "tests/both/test_properties.py",
        "tests/both/test_match.py",
    ],
    "ttt/rules.py": [
        "tests/pc/test_mutation_ttt.py",
        "tests/pc/test_ttt_dead.py",
        "tests/both/test_ttt.py",
        "tests/pc/test_replay_ttt.py",
    ],
    "records.py": [
        "tests/pc/test_frames_refusals.py",
        "tests/pc/test_mutation_records.py",
        "tests/pc/test_journal_records.py",
    ],
    "sides.py": [
        "tests/pc/test_mutation_sides.py",
        "tests/pc/test_mutation_ttb.py",
        "tests/pc/test_mutation_ttt.py",
        "tests/both/test_match.py",
        "tests/both/test_ttt.py",
        "tests/pc/test_registry.py",
    ],
    "games.py": [
        "tests/pc/test_mutation_sides.py",
        "tests/pc/test_registry.py",
    ],
    "frames.py": [
        "tests/pc/test_mutation_frames.py",
        "tests/pc/test_frames_refusals.py",
        "tests/pc/test_sync_hostile_box.py",
    ],
    "journal.py": [
        "tests/pc/test_mutation_journal.py",
        "tests/pc/test_rescue_damage.py",
        "tests/pc/test_sync_damage.py",
        "tests/pc/test_journal_records.py",
    ],
}

# Run in each test process before pytest: the core comes from the mutant's copy (PYTHONPATH),
# whatever a test module later puts on sys.path, and hypothesis is repeatable and keeps no
# example database (a failure found for one mutant must not be replayed for the next).
BOOT = """import sys, scorebox_core
if not scorebox_core.__file__.startswith(sys.argv[1]):
    print("mutate: the core came from %s, not the mutant's copy" % scorebox_core.__file__)
    sys.exit(9)
from hypothesis import settings
settings.register_profile("mutate", database=None, derandomize=True)
settings.load_profile("mutate")
import pytest
sys.exit(pytest.main(sys.argv[2:]))
"""

SWAP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.And: ast.Or,
    ast.Or: ast.And,
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
}
SYMBOL = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.And: "and",
    ast.Or: "or",
    ast.Add: "+",
    ast.Sub: "-",
}
RUNNING = set()  # test processes under way: ended with this one (Ctrl-C, kill)
KEPT = (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Pass, ast.Global, ast.Nonlocal)


def _docstrings(tree):
    """The docstring nodes of tree: never mutated."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first))
                out.add(id(first.value))
    return out


def points(tree):
    """Every mutation of tree as (node index in ast.walk order, kind, argument, line, text)."""
    docs = _docstrings(tree)
    top = {id(node) for node in tree.body}  # module-level statements: deleting one is never subtle
    out = []
    for i, node in enumerate(ast.walk(tree)):
        if id(node) in docs:
            continue
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                new = SWAP[type(op)]
                out.append((i, "op", k, line, "%s -> %s" % (SYMBOL[type(op)], SYMBOL[new])))
        elif isinstance(node, ast.BoolOp):
            out.append((i, "op", 0, line, "%s -> %s" % (SYMBOL[type(node.op)], SYMBOL[SWAP[type(node.op)]])))
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in SWAP:
            out.append((i, "op", 0, line, "%s -> %s" % (SYMBOL[type(node.op)], SYMBOL[SWAP[type(node.op)]])))
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            out.append((i, "const", not node.value, line, "%s -> %s" % (node.value, not node.value)))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            for d in (1, -1):
                out.append((i, "const", node.value + d, line, "%d -> %d" % (node.value, node.value + d)))
        if isinstance(node, ast.Return) and node.value is not None:
            if not (isinstance(node.value, ast.Constant) and node.value.value is None):
                out.append((i, "return", None, line, "return None"))
        if isinstance(node, ast.stmt) and not isinstance(node, KEPT) and id(node) not in top:
            out.append((i, "delete", None, line, "delete: %s" % ast.unparse(node).split("\n")[0][:60]))
    return out


def mutant(source, point):
    """source with one mutation applied, as source text."""
    tree = ast.parse(source)
    nodes = list(ast.walk(tree))
    i, kind, arg = point[:3]
    node = nodes[i]
    if kind == "op":
        if isinstance(node, ast.Compare):
            node.ops[arg] = SWAP[type(node.ops[arg])]()
        else:
            node.op = SWAP[type(node.op)]()
    elif kind == "const":
        node.value = arg
    elif kind == "return":
        node.value = None
    else:
        for parent in nodes:
            for field in ("body", "orelse", "finalbody", "handlers"):
                block = getattr(parent, field, None)
                if isinstance(block, list) and node in block:
                    block[block.index(node)] = ast.copy_location(ast.Pass(), node)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


class Copy:
    """A private copy of the core, in which one module at a time is replaced by a mutant."""

    def __init__(self, top):
        self.top = top
        shutil.copytree(CORE, os.path.join(top, "scorebox_core"), ignore=shutil.ignore_patterns("__pycache__"))

    def run(self, module, text, tests, timeout):
        """'killed', 'survived' or 'timeout' for module's source replaced by text."""
        path = os.path.join(self.top, "scorebox_core", module)
        with open(path, "w") as f:
            f.write(text)
        env = dict(os.environ, PYTHONPATH=self.top, PYTHONDONTWRITEBYTECODE="1")
        args = ["-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-m", "not micropython", *tests]
        p = subprocess.Popen(
            [sys.executable, "-c", BOOT, self.top, *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        RUNNING.add(p)
        try:
            out = p.communicate(timeout=timeout)[0]
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            return "timeout", "(no end in %d s)" % timeout
        finally:
            RUNNING.discard(p)
            shutil.copyfile(os.path.join(CORE, module), path)
        if p.returncode == 0:
            return "survived", ""
        if p.returncode in (4, 5, 9):  # pytest's usage error, no tests, the core not the copy's
            return "error", out[-2000:]
        return "killed", out[-3000:]  # a test failed, or the mutant did not even import


def run_module(module, sample, seed, copies, log, tests=None):
    with open(os.path.join(CORE, module)) as f:
        source = f.read()
    tests = [t for t in tests or MODULES[module] if os.path.exists(os.path.join(ROOT, t))]
    found = points(ast.parse(source))
    clean = ast.unparse(ast.parse(source)) + "\n"
    chosen = found if not sample or sample >= len(found) else random.Random(seed).sample(found, sample)
    chosen.sort(key=lambda p: (p[3], p[0], str(p[2])))
    copy = copies.get()
    try:
        t0 = time.time()
        status, out = copy.run(module, clean, tests, 600)
        base = time.time() - t0
    finally:
        copies.put(copy)
    if status != "survived":
        raise SystemExit("mutate: the tests of %s fail on the unmutated core:\n%s" % (module, out))
    timeout = 3 * base + 15
    results = []

    def one(point):
        text = mutant(source, point)
        if text == clean:
            return point, "equivalent", ""
        c = copies.get()
        try:
            return (point, *c.run(module, text, tests, timeout))
        finally:
            copies.put(c)

    with ThreadPoolExecutor(copies.qsize()) as pool:
        for point, status, out in pool.map(one, chosen):
            if status == "error":
                raise SystemExit("mutate: pytest could not run a mutant of %s:\n%s" % (module, out))
            results.append((point, status))
            log(".K"[status != "survived"] if status != "timeout" else "T")
    killed = sum(1 for _, s in results if s in ("killed", "timeout"))
    judged = sum(1 for _, s in results if s != "equivalent")
    return {
        "tests": tests,
        "mutants_found": len(found),
        "mutants_run": judged,
        "killed": killed,
        "timeouts": sum(1 for _, s in results if s == "timeout"),
        "score": round(100.0 * killed / judged, 1) if judged else None,
        "clean_run_seconds": round(base, 1),
        "survivors": [
            {"line": p[3], "change": p[4], "where": "firmware/scorebox_core/%s:%d" % (module, p[3])}
            for p, s in results
            if s == "survived"
        ],
    }


class Pool:
    """Copies of the core handed to one mutant run at a time."""

    def __init__(self, top, n):
        self.free = [Copy(os.path.join(top, str(i))) for i in range(n)]
        self.lock = threading.Condition()

    def get(self):
        with self.lock:
            while not self.free:
                self.lock.wait()
            return self.free.pop()

    def put(self, c):
        with self.lock:
            self.free.append(c)
            self.lock.notify()

    def qsize(self):
        return len(self.free)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, default=30, help="mutants drawn per module (0: all; default 30)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--module", action="append", choices=sorted(MODULES), help="only this module (repeatable)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    ap.add_argument("--tests", nargs="+", help="run these tests instead of the module's (to compare selections)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "mutation.json"))
    a = ap.parse_args(argv)
    modules = a.module or list(MODULES)
    t0 = time.time()
    report = {"sample": a.sample, "seed": a.seed, "modules": {}}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("mutate: stopped"))
    try:
        with tempfile.TemporaryDirectory(prefix="scorebox-mutate-") as top:
            pool = Pool(top, max(1, a.jobs))
            for module in modules:
                print("%-14s " % module, end="", flush=True)
                r = run_module(module, a.sample, a.seed, pool, lambda c: print(c, end="", flush=True), a.tests)
                report["modules"][module] = r
                print(" %d/%d killed: %s%%" % (r["killed"], r["mutants_run"], r["score"]))
    finally:
        for p in list(RUNNING):
            p.kill()
    report["seconds"] = round(time.time() - t0)
    print("\nSurvivors (a behaviour no test pins, or a change nothing can see):")
    for module in modules:
        for s in report["modules"][module]["survivors"]:
            print("  %s  %s" % (s["where"], s["change"]))
    print("\nScores (sample %d per module, seed %d, %d s):" % (a.sample, a.seed, report["seconds"]))
    for module in modules:
        r = report["modules"][module]
        print("  %-14s %5s%%  (%d of %d mutants killed)" % (module, r["score"], r["killed"], r["mutants_run"]))
    with open(a.out, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    print("written to %s" % os.path.relpath(a.out, ROOT))


if __name__ == "__main__":
    main()
