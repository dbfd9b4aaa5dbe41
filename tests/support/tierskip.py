"""A tier that cannot run here is one skipped test whose line says how many did not run and
why (`SKIPPED [1] ...: tests/rp2: 149 tests not run: ...`), the rest deselected: not one
skip per test, nor a line per file."""

import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def skip_as_one(config, items, ours, what, why):
    """Skip the items ours (of items, collected) as one: what names them (a folder)."""
    if not ours:
        return
    n = len(ours)
    ours[0].add_marker(pytest.mark.skip(reason="%s: %d test%s not run: %s" % (what, n, "s"[: n != 1], why)))
    rest = set(ours[1:])
    config.hook.pytest_deselected(items=ours[1:])
    items[:] = [it for it in items if it not in rest]


def tier_items(items, here):
    return [it for it in items if str(it.path).startswith(here + os.sep)]
