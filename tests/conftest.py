import os
import sys

sys.path.insert(0, os.path.dirname(__file__))


def pytest_terminal_summary(terminalreporter):
    """Say how many tests ran on each interpreter: MicroPython tests are marked `micropython`."""
    counts = {}
    for status in ("passed", "failed", "error"):
        for rep in terminalreporter.stats.get(status, []):
            if rep.when != "call" and status != "error":
                continue
            interp = "MicroPython" if "micropython" in rep.keywords else "CPython"
            counts.setdefault(interp, {}).setdefault(status, 0)
            counts[interp][status] += 1
    for interp in sorted(counts):
        c = counts[interp]
        terminalreporter.write_line(
            "%s: %d passed, %d failed" % (interp, c.get("passed", 0), c.get("failed", 0) + c.get("error", 0))
        )
