"""A tier that cannot run (tests/rp2, tests/cp without their images; tests/rp2's frozen-image
tests without `make uf2`) is one line of the summary saying how many of its tests did not
run and why, however many files it has (tests/support/tierskip.py)."""

import os

from mpy import ROOT

pytest_plugins = ("pytester",)

CONFTEST = """
import os
from tierskip import skip_as_one, tier_items

def pytest_collection_modifyitems(config, items):
    here = os.path.dirname(os.path.abspath(__file__))
    skip_as_one(config, items, tier_items(items, here), "tier", "the emulator is not here")
"""


def test_a_tier_of_three_files_is_one_line_counting_its_tests(pytester):
    tier = pytester.mkpydir("tier")
    (tier / "conftest.py").write_text(CONFTEST)
    for n, count in (("a", 2), ("b", 3), ("c", 1)):
        (tier / ("test_%s.py" % n)).write_text("".join("def test_%d():\n    pass\n" % i for i in range(count)))
    pytester.makepyfile(test_other="def test_runs():\n    pass\n")
    support = os.path.join(ROOT, "tests", "support")
    r = pytester.runpytest_subprocess("-ra", "-p", "no:cacheprovider", "-o", "pythonpath=" + support)
    skipped = [line for line in r.outlines if line.startswith("SKIPPED")]
    assert skipped == ["SKIPPED [1] tier/test_a.py: tier: 6 tests not run: the emulator is not here"]
    r.assert_outcomes(passed=1, skipped=1, deselected=5)
