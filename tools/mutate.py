"""Mutation testing of the shared core (firmware/scorebox_core) and of the PC tool's trust
boundaries (the desk's login throttle, the league's tokens, the store's replay check) with the
CPython tests: `make mutate` (not run by `make test` nor CI: it takes minutes).

A mutant is one small change to one module: a comparison swapped (< and <=, == and !=, is
and is not, in and not in), `and` and `or`, + and -, an int constant +1 or -1, True and
False, a `return x` made `return None`, a statement deleted. Each mutant is written into a
copy of the core, alone, and the tests that exercise its module (MODULES below) run
against it in a fresh process; a mutant they pass on *survived*: a behaviour no test pins,
or a change nothing can see (an equivalent mutant). A run that takes far longer than the
clean run counts as killed (an endless loop is a failure too).

    python tools/mutate.py [--sample N] [--seed S ...] [--module NAME ...] [--jobs J]

Prints each survivor as file:line and the change, a score per module and seed and the worst
of them, and writes bench/mutation.json. --sample N draws N mutants per module and seed (0:
all), the same ones for the same seed and source; each --seed is one sample (a mutant drawn
by two runs once), so that no one lucky sample stands for a module. The original tree is
never touched.

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
# the packages a mutant is made in: a module named scorebox/... is the PC tool's, any other the
# core's (its path under scorebox_core). Each lies in a folder of the checkout (TREES), copied
# whole for the mutants: the PC tool finds the firmware beside it.
PACKAGES = {"scorebox_core": "firmware", "scorebox": "host_tools"}
TREES = ("firmware", "host_tools")

# module -> the CPython tests that exercise it, fast enough to run once per mutant; the
# quickest first, as a mutant's run stops at its first failure.
MODULES = {
    "ttb/rules.py": [
        "tests/pc/test_mutation_ttb.py",
        "tests/pc/test_ttb_winning_lines.py",
        "tests/pc/test_ttb_event_squares.py",
        "tests/pc/test_ttb_option_numbers.py",
        "tests/pc/test_ttb_match_result.py",
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
        "tests/pc/test_journal_splits.py",
        "tests/pc/test_rescue_damage.py",
        "tests/pc/test_sync_damage.py",
        "tests/pc/test_journal_records.py",
    ],
    "scorebox/web/throttle.py": [
        "tests/pc/test_web_throttle.py",
        "tests/pc/test_web_login.py",
    ],
    "scorebox/league/tokens.py": [
        "tests/pc/test_league_token_form.py",
        "tests/pc/test_league_tokens.py",
    ],
    "scorebox/store/checks.py": [
        "tests/pc/test_store_replay_check.py",
        "tests/pc/test_import_renamed.py",
        "tests/both/test_store.py",
    ],
}


def package(module):
    """(package name, path of module's file under that package) of a MODULES key."""
    if module.startswith("scorebox/"):
        return "scorebox", module[len("scorebox/") :]
    return "scorebox_core", module


def source_path(module, top=ROOT):
    name, rel = package(module)
    return os.path.join(top, PACKAGES[name], name, rel)


# Run in each test process before pytest: the core comes from the mutant's copy (PYTHONPATH),
# whatever a test module later puts on sys.path, and hypothesis is repeatable and keeps no
# example database (a failure found for one mutant must not be replayed for the next).
BOOT = """import sys, scorebox_core, scorebox
for p in (scorebox_core, scorebox):
    if not p.__file__.startswith(sys.argv[1]):
        print("mutate: %s came from %s, not the mutant's copy" % (p.__name__, p.__file__))
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
    """A private copy of the checkout's firmware/ and host_tools/, in which one module at a
    time is replaced by a mutant."""

    def __init__(self, top):
        self.top = top
        skip = shutil.ignore_patterns("__pycache__", "node_modules")
        for tree in TREES:
            shutil.copytree(os.path.join(ROOT, tree), os.path.join(top, tree), ignore=skip)

    def run(self, module, text, tests, timeout):
        """'killed', 'survived' or 'timeout' for module's source replaced by text."""
        path = source_path(module, self.top)
        with open(path, "w") as f:
            f.write(text)
        paths = os.pathsep.join(os.path.join(self.top, t) for t in TREES)
        env = dict(os.environ, PYTHONPATH=paths, PYTHONDONTWRITEBYTECODE="1")
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
            shutil.copyfile(source_path(module), path)
        if p.returncode == 0:
            return "survived", ""
        if p.returncode in (4, 5, 9):  # pytest's usage error, no tests, the core not the copy's
            return "error", out[-2000:]
        return "killed", out[-3000:]  # a test failed, or the mutant did not even import


def _score(killed, judged):
    return round(100.0 * killed / judged, 1) if judged else None


def run_module(module, sample, seeds, copies, log, tests=None):
    with open(source_path(module)) as f:
        source = f.read()
    tests = [t for t in tests or MODULES[module] if os.path.exists(os.path.join(ROOT, t))]
    found = points(ast.parse(source))
    clean = ast.unparse(ast.parse(source)) + "\n"
    drawn = {}  # seed -> the points it drew
    for seed in seeds:
        drawn[seed] = found if not sample or sample >= len(found) else random.Random(seed).sample(found, sample)
    chosen = sorted({p for ps in drawn.values() for p in ps}, key=lambda p: (p[3], p[0], str(p[2])))
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

    def one(point):
        text = mutant(source, point)
        if text == clean:
            return point, "equivalent", ""
        c = copies.get()
        try:
            return (point, *c.run(module, text, tests, timeout))
        finally:
            copies.put(c)

    status = {}
    with ThreadPoolExecutor(copies.qsize()) as pool:
        for point, st, out in pool.map(one, chosen):
            if st == "error":
                raise SystemExit("mutate: pytest could not run a mutant of %s:\n%s" % (module, out))
            status[point] = st
            log(".K"[st != "survived"] if st != "timeout" else "T")
    per_seed = {}
    for seed, ps in drawn.items():
        judged = [status[p] for p in ps if status[p] != "equivalent"]
        killed = sum(1 for s in judged if s in ("killed", "timeout"))
        per_seed[str(seed)] = {"mutants_run": len(judged), "killed": killed, "score": _score(killed, len(judged))}
    worst = min(per_seed, key=lambda k: (per_seed[k]["score"] is None, per_seed[k]["score"]))
    return {
        "tests": tests,
        "mutants_found": len(found),
        "mutants_run": sum(1 for s in status.values() if s != "equivalent"),
        "timeouts": sum(1 for s in status.values() if s == "timeout"),
        "seeds": per_seed,
        "worst_seed": int(worst),
        **per_seed[worst],
        "clean_run_seconds": round(base, 1),
        "survivors": [
            {
                "line": p[3],
                "change": p[4],
                "where": "%s:%d" % (os.path.relpath(source_path(module), ROOT), p[3]),
                "seeds": [s for s in seeds if p in drawn[s]],
            }
            for p in chosen
            if status[p] == "survived"
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
    ap.add_argument("--sample", type=int, default=30, help="mutants drawn per module and seed (0: all; default 30)")
    ap.add_argument("--seed", type=int, action="append", help="a sample's seed (repeatable; default 1)")
    ap.add_argument("--module", action="append", choices=sorted(MODULES), help="only this module (repeatable)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    ap.add_argument("--tests", nargs="+", help="run these tests instead of the module's (to compare selections)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "mutation.json"))
    a = ap.parse_args(argv)
    modules = a.module or list(MODULES)
    seeds = sorted(set(a.seed or [1]))
    t0 = time.time()
    report = {"sample": a.sample, "seeds": seeds, "modules": {}}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("mutate: stopped"))
    try:
        with tempfile.TemporaryDirectory(prefix="scorebox-mutate-") as top:
            pool = Pool(top, max(1, a.jobs))
            for module in modules:
                print("%-26s " % module, end="", flush=True)
                r = run_module(module, a.sample, seeds, pool, lambda c: print(c, end="", flush=True), a.tests)
                report["modules"][module] = r
                print(
                    " worst %d/%d killed: %s%% (seed %d)" % (r["killed"], r["mutants_run"], r["score"], r["worst_seed"])
                )
    finally:
        for p in list(RUNNING):
            p.kill()
    report["seconds"] = round(time.time() - t0)
    print("\nSurvivors (a behaviour no test pins, or a change nothing can see), with the seeds that drew them:")
    for module in modules:
        for s in report["modules"][module]["survivors"]:
            print("  %s  %s  (seed %s)" % (s["where"], s["change"], ",".join(map(str, s["seeds"]))))
    print(
        "\nScores (sample %d per module and seed, seeds %s, %d s): the worst seed's, then each seed's"
        % (a.sample, ",".join(map(str, seeds)), report["seconds"])
    )
    for module in modules:
        r = report["modules"][module]
        each = "  ".join("%s: %d/%d" % (k, v["killed"], v["mutants_run"]) for k, v in r["seeds"].items())
        print(
            "  %-26s %5s%%  (%d of %d killed, seed %d)   %s"
            % (module, r["score"], r["killed"], r["mutants_run"], r["worst_seed"], each)
        )
    with open(a.out, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    print("written to %s" % os.path.relpath(a.out, ROOT))


if __name__ == "__main__":
    main()
