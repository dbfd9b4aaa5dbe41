"""The case for each panel (issue 22 item 7): the 1.3" SH1106 is the reference pins.py
names, the 2.42" SSD1309 gets its own bigger front, and a panel behind a window cut for
another is caught. Every check on every variant: test_fit.py."""

from enclosure import fit
from enclosure.assembly import Assembly
from enclosure.params import params_for
from enclosure.tests.variants import assembled


def test_the_reference_case_is_made_for_the_1_3_inch_panel():
    assert params_for().display.name == "SH1106"


def test_the_2_42_inch_case_is_bigger_and_its_window_shows_the_whole_panel():
    sh, big = assembled(display="SH1106"), assembled(display="SSD1309")
    small, large = (a.parts["front"].bounding_box().size for a in (sh, big))
    assert large.X > small.X and large.Y > small.Y
    assert fit.window(big) == []


def test_the_2_42_inch_panel_behind_the_1_3_inch_window_is_reported():
    sh, big = assembled(display="SH1106"), assembled(display="SSD1309")
    mixed = Assembly(big.params, big.layout, sh.parts, big.components, big.sockets)
    assert fit.window(mixed)
