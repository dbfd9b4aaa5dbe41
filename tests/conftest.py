import os
import sys

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
# support/: helpers the tests and bench/ import; mpy/: the scripts CPython runs too (rules_vectors,
# keys_cases); tools/: the developers' generators (wiring), tested here but not installed.
for _d in (os.path.join(_HERE, "support"), os.path.join(_HERE, "mpy"), os.path.join(os.path.dirname(_HERE), "tools")):
    sys.path.insert(0, _d)
# firmware/ last: the box's modules that run under CPython too (box/journal.py, box/battery.py,
# box/fat/), for any test file alone; scorebox_core stays the installed one (the same files).
sys.path.append(os.path.join(os.path.dirname(_HERE), "firmware"))


def pytest_configure(config):
    """SCOREBOX_UPDATE_GOLDEN=1 makes the golden picture tests (tests/both/test_app*.py) rewrite
    tests/golden/ and pass whatever the screens show: on CI (CI set) that is refused."""
    if os.environ.get("CI", "").lower() not in ("", "0", "false") and os.environ.get("SCOREBOX_UPDATE_GOLDEN"):
        raise pytest.UsageError(
            "SCOREBOX_UPDATE_GOLDEN is set on CI: the golden picture tests would rewrite tests/golden/ "
            "and pass; unset it (it is for a developer's deliberate change)"
        )


# The folders whose files take longest, longest first: pytest-xdist hands each worker a whole
# file at a time in this order (make test's --dist loadfile), so that the last files handed out
# are the PC's short ones and no worker waits alone at the end on an emulated Pico's file.
_LONGEST_FIRST = ("tests/rp2/", "tests/cp/", "tests/both/", "enclosure/tests/")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    root = str(config.rootpath)

    def rank(item):
        path = os.path.relpath(str(item.path), root).replace(os.sep, "/")
        return next((i for i, p in enumerate(_LONGEST_FIRST) if path.startswith(p)), len(_LONGEST_FIRST))

    items.sort(key=rank)  # stable: each file's tests stay together, in their order


def pytest_terminal_summary(terminalreporter):
    """Say how many tests ran on each interpreter: MicroPython tests are marked `micropython`."""
    counts = {}
    for status in ("passed", "failed", "error"):
        for rep in terminalreporter.stats.get(status, []):
            if rep.when != "call" and status != "error":
                continue
            interp = "MicroPython" if "micropython" in getattr(rep, "keywords", ()) else "CPython"
            counts.setdefault(interp, {}).setdefault(status, 0)
            counts[interp][status] += 1
    for interp in sorted(counts):
        c = counts[interp]
        terminalreporter.write_line(
            "%s: %d passed, %d failed" % (interp, c.get("passed", 0), c.get("failed", 0) + c.get("error", 0))
        )
