"""The fit checks pass for every layout, display and battery."""

import pytest

from enclosure import fit
from enclosure.tests.variants import IDS, VARIANTS, assembled


@pytest.mark.parametrize("layout,display,battery", VARIANTS, ids=IDS)
@pytest.mark.parametrize("check", fit.CHECKS, ids=lambda f: f.__name__)
def test_fits(layout, display, battery, check):
    assert check(assembled(layout, display, battery)) == []


def test_window_is_within_its_limits():
    p = assembled().params
    assert 0 <= p.window_margin <= p.window_limit <= 1.5


def test_boards_have_designed_clearance():
    p = assembled().params
    assert p.board_gap >= p.clearance >= 0.3
