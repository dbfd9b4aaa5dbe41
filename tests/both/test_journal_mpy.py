"""The journal's behaviour on MicroPython and LittleFS2 (tests/mpy/journal_functional.py),
1,000 matches written and read back, and the same bytes read by CPython as the PC will."""

import os
import re

import pytest
from journal_support import run_script
from mpy import SCRIPTS

with open(os.path.join(SCRIPTS, "journal_functional.py")) as _f:
    CASES = re.findall(r"^def case_(\w+)\(", _f.read(), re.M)


@pytest.fixture(scope="module")
def functional():
    lines, _ = run_script("journal_functional.py")
    out = {}
    for line in lines:
        status, _, rest = line.partition(" ")
        if status in ("PASS", "FAIL"):
            name, _, why = rest.partition(": ")
            out[name] = (status, why)
    return out


@pytest.mark.micropython
@pytest.mark.parametrize("case", CASES)
def test_functional(case, functional):
    assert case in functional, "case did not run"
    status, why = functional[case]
    assert status == "PASS", why


@pytest.fixture(scope="module")
def thousand(tmp_path_factory):
    out = tmp_path_factory.mktemp("journal1000")
    _, res = run_script("journal_thousand.py", str(out), 1000, timeout=600)
    return out, res


@pytest.mark.micropython
def test_thousand_matches_written_and_read_back(thousand):
    out, res = thousand
    assert res["nbad"] == 0, res["bad"]
    assert res["seen"] == res["listed"] == 1000
    assert res["report"]["matches"] == 1000 and res["report"]["damage"] == [] and res["verify_damage"] == 0
    assert res["bytes_per_match"] <= 256, res


def test_thousand_matches_decode_the_same_on_cpython(thousand):
    """The PC reads the files pulled from the box with the same code, under CPython."""
    import jt

    from scorebox.sync.decode import decode_file
    from scorebox_core.journal import NUMBER, Reader, group_first

    out, res = thousand
    with open(os.path.join(out, "mpy_view.txt")) as f:
        mpy = f.read().splitlines()
    lines = []
    for name in sorted(os.listdir(out)):
        first = group_first(name)
        if first is None:
            continue
        with open(os.path.join(out, name), "rb") as f:
            got = decode_file(f.read(), first)
        assert got["damage"] == [] and got["first"] == first
        for n, h, evs, x in got["matches"]:
            lines.append(jt.canon([n, h, evs, x["result"], x["confirmed"], x["notes"], x["damaged"], x["stray"]]))
    assert len(lines) == 1000
    assert lines == mpy
    # and the journal itself, read-only, over the pulled directory
    j = Reader(str(out))
    rep = j.recover()
    assert rep["matches"] == 1000 and rep["open"] is None
    assert [m[NUMBER] for m in j.iter_matches(990)] == list(range(991, 1001))
    h, evs, x = j.read_match(500)
    assert jt.canon([500, h, evs, x["result"], x["confirmed"], x["notes"], x["damaged"], x["stray"]]) == mpy[499]
