"""Shared by the journal tests: run a journal script of tests/mpy/ on MicroPython and
import the journal (firmware/box) under CPython."""

import json
import os
import sys

from mpy import FIRMWARE, SCRIPTS, run

if FIRMWARE not in sys.path:
    sys.path.append(FIRMWARE)


def run_script(name, *args, heapsize="64M", timeout=300):
    """Run tests/mpy/NAME with args; returns (stdout lines, RESULT dict or None)."""
    proc = run([os.path.join(SCRIPTS, name)] + [str(a) for a in args], heapsize=heapsize, timeout=timeout)
    lines = proc.stdout.splitlines()
    result = None
    for line in lines:
        if line.startswith("RESULT "):
            result = json.loads(line[7:])
    if proc.returncode != 0 and result is None:
        raise AssertionError("%s failed:\n%s\n%s" % (name, proc.stdout[-3000:], proc.stderr[-3000:]))
    return lines, result
