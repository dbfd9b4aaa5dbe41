"""The rule test vectors (tests/vectors/*.ttb) on CPython and on MicroPython.

The same runner (tests/mpy/rules_vectors.py) checks the same files under both interpreters;
every rule TTB-1 to TTB-15 is cited by at least one vector that runs on both.
"""

import glob
import os
import re

import pytest
import rules_vectors
from mpy import ROOT, run

VECTORS = sorted(glob.glob(os.path.join(ROOT, "tests", "vectors", "*.ttb")))
IDS = [os.path.basename(p)[:-4] for p in VECTORS]


@pytest.fixture(scope="module")
def mpy_results():
    """Run every vector once in one MicroPython process: {path: (status, detail)}."""
    proc = run(["tests/mpy/rules_vectors.py"] + [os.path.relpath(p, ROOT) for p in VECTORS])
    out = {}
    for line in proc.stdout.splitlines():
        status, path, rest = (line.split(" ", 2) + [""])[:3]
        out[os.path.join(ROOT, path)] = (status, rest)
    if len(out) != len(VECTORS):
        pytest.fail("MicroPython ran %d of %d vectors:\n%s%s" % (len(out), len(VECTORS), proc.stdout, proc.stderr))
    return out


@pytest.mark.parametrize("path", VECTORS, ids=IDS)
def test_vector_cpython(path):
    checks, err = rules_vectors.run(path)
    assert err is None, err
    assert checks > 0, "a vector must check something"


@pytest.mark.micropython
@pytest.mark.parametrize("path", VECTORS, ids=IDS)
def test_vector_micropython(path, mpy_results):
    status, detail = mpy_results[path]
    assert status == "PASS", detail
    assert int(detail.split()[0]) > 0, "a vector must check something"


def test_every_rule_is_cited():
    cited = set()
    for p in VECTORS:
        with open(p) as f:
            cited.update(int(n) for n in re.findall(r"TTB-(\d+)", f.read()))
    missing = set(range(1, 16)) - cited
    assert not missing, "rules with no vector: %s" % sorted(missing)
