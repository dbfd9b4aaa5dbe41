"""The battery's thresholds per chemistry (firmware/box/battery.py, docs/power.md): the
percentage at full, half and empty cells for each chemistry, a full NiMH pack near 100 %
(it showed about 43 % under the alkaline thresholds of before), the diode's 0.2 V and the
model's cells (tools/battery_life.py) one figure with the firmware's, and an absent setting
read as pins.BATTERY's chemistry."""

import battery_life as model
import pytest

from box import battery


def vsys(name, cell_mv):
    """VSYS in mV for cells at cell_mv each: the cells in series less the diode."""
    return battery.CELLS[name][0] * cell_mv - battery.DIODE_MV


# chemistry, mV a cell full, half way, at EMPTY
POINTS = (
    ("alkaline", 1550, 1240, 1050),
    ("nimh", 1320, 1250, 1100),
    ("lipo", 4150, 3780, 3250),
)


@pytest.mark.parametrize("name,full,half,empty", POINTS)
def test_percent_at_full_half_and_empty(name, full, half, empty):
    t = battery.thresholds(name)
    assert battery.percent(vsys(name, full), t) == 100
    assert battery.percent(vsys(name, half), t) == 50
    assert battery.percent(vsys(name, empty), t) == 0
    assert battery.percent(vsys(name, empty) - 300, t) == 0  # below EMPTY: never negative
    assert battery.percent(vsys(name, full) + 500, t) == 100  # on USB's 4.8 V or fresh cells
    e, low, h, f = t
    assert e < low < h < f  # EMPTY, then the mark, before half
    pcs = [battery.percent(mv, t) for mv in range(e - 50, f + 50, 10)]
    assert pcs == sorted(pcs)  # never falls as the voltage rises


def test_the_thresholds_in_mv_at_vsys():
    """The figures docs/power.md's table gives, behind the 0.2 V diode."""
    assert battery.thresholds("alkaline") == (2950, 3340, 3520, 4450)
    assert battery.thresholds("nimh") == (3100, 3340, 3550, 3760)
    assert battery.thresholds("lipo") == (3050, 3250, 3580, 3950)


def test_a_full_nimh_pack_reads_about_100():
    nimh = battery.thresholds("nimh")
    for cell in (1320, 1350, 1400):  # under load after charging, and fresh off the charger
        assert battery.percent(vsys("nimh", cell), nimh) == 100
    assert battery.percent(vsys("nimh", 1300), nimh) >= 85
    # Under the alkaline thresholds (and a 0.25 V diode, as before) it read near half.
    assert battery.percent(3 * 1300 - 250, battery.thresholds("alkaline")) < 60


def test_one_diode_and_the_models_cells():
    """The diode is docs/power.md's 0.2 V in the model and the firmware; the firmware's full,
    half and EMPTY for alkaline and LiPo cells are the model's curves' ends and middle."""
    assert battery.DIODE_MV == round(model.DIODE_V * 1000) == 200
    for (_, _, cells, curve), name in zip(model.BATTERIES, ("alkaline", "lipo"), strict=True):
        n, empty, _, half, full = battery.CELLS[name]
        assert n == cells
        assert full == round(curve[0][1] * 1000)
        assert half == round(model.interp(curve, 0.5) * 1000)
        assert empty == round(curve[-1][1] * 1000)


def test_an_absent_setting_is_pins_battery():
    assert battery.chemistry(None, "3xAA") == "alkaline"  # the thresholds of before the setting
    assert battery.chemistry(None, "lipo") == "lipo"
    assert battery.chemistry("nimh", "3xAA") == "nimh"
    assert battery.chemistry("nimh", "lipo") == "nimh"
    assert battery.chemistry("something newer", "lipo") == "lipo"  # a value this firmware lacks
    assert set(battery.CHOICES) == set(battery.CELLS) == set(battery.LABELS)
