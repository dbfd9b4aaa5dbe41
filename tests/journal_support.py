"""Shared by the journal tests: run a helper script of tests/mpy_journal/ on MicroPython
and import the journal (firmware/box) and the helpers under CPython."""

import json
import os
import sys

from mpy import FIRMWARE, ROOT, run

MPY_JOURNAL = os.path.join(ROOT, "tests", "mpy_journal")
for _p in (FIRMWARE, MPY_JOURNAL):
    if _p not in sys.path:
        sys.path.append(_p)


def run_script(name, *args, heapsize="64M", timeout=300):
    """Run tests/mpy_journal/NAME with args; returns (stdout lines, RESULT dict or None)."""
    proc = run(
        [os.path.join("tests", "mpy_journal", name)] + [str(a) for a in args],
        heapsize=heapsize,
        timeout=timeout,
        paths=(MPY_JOURNAL,),
    )
    lines = proc.stdout.splitlines()
    result = None
    for line in lines:
        if line.startswith("RESULT "):
            result = json.loads(line[7:])
    if proc.returncode != 0 and result is None:
        raise AssertionError("%s failed:\n%s\n%s" % (name, proc.stdout[-3000:], proc.stderr[-3000:]))
    return lines, result
