"""docs/power.md's battery figures are the model's (tools/battery_life.py): the generated
block as the model writes it, and the figures its prose quotes."""

import battery_life as model


def _doc():
    with open(model.doc_path(), encoding="utf-8") as f:
        return f.read()


def test_the_generated_block_is_the_models():
    text = _doc()
    assert model.render(text) == text, "docs/power.md is stale: run `python tools/battery_life.py docs`"


def test_the_prose_quotes_the_models_figures():
    f = model.figures()
    text = " ".join(_doc().split())  # the prose's line breaks as spaces
    aa, lipo = f["rows"]
    assert "**about %d h during matches on 3xAA**" % round(aa[2], -1) in text
    assert "about %d h on the LiPo" % round(lipo[2], -1) in text
    assert "**%.2f mA at 5 V in**" % f["pico_loop"] in text  # the loop, in the duty cycle
    assert "%.2f mA at 5 V in), and a jump" % f["pico_loop"] in text  # ... and on the meter
    on, dim, off = f["meter_on"][0], f["meter_dim"][0], f["meter_off"][0]
    assert "%.1f mA with the screen on, %.1f mA dimmed, %.1f mA with the screen off" % (on, dim, off) in text
    full, empty = (3 * c[1] - model.DIODE_V for c in (model.BATTERIES[0][3][0], model.BATTERIES[0][3][-1]))
    assert (
        "falls from %.2f to %.2f V" % (full, empty) in text
        and "about %.2f V) to cells at EMPTY (%.2f V)"
        % (
            full,
            empty,
        )
        in text
    )
    assert "| 1.5 mA at 5 V in |" in text and model.PICO_SLEEP_MA == 1.5
    assert "| %g mA at 5 V in |" % model.PICO_DORMANT_MA in text  # DORMANT, at EMPTY
    aa_asleep, _ = f["asleep"]
    assert "Asleep the box draws about %.1f mA from 3xAA at EMPTY" % aa_asleep in text
    assert "where it drew %.1f mA lightsleeping with its screen off" % f["meter_off"][1] in text
    assert "the model says about %.1f mA: a box above 4 mA then is not asleep" % aa_asleep in text
    assert "at 5 V in | design estimate" in text and model.PICO_RUN_MA == 20.0


def test_about_300_hours_on_aa_cells_with_the_regulator_counted():
    """The review's estimate, from 1.5 mA in lightsleep and the regulator over the cells'
    voltage; the old 425 h took 1 mA and a current that did not rise as the cells fell."""
    aa = model.BATTERIES[0]
    h = model.hours(aa, model.load_mw(model.pico_ma(), model.oled_ma()))
    assert 280 <= h <= 320
    low, high = model.span(aa, 10.0)
    assert high > 1.4 * low  # the current from the cells rises as they fall


def test_the_load_is_the_firmwares():
    """The loop's sleep and the key's hold are the firmware's own."""
    import re

    from scorebox.device.firmware import firmware_dir

    with open(firmware_dir() + "/boards/pico.py") as f:
        sleep = int(re.search(r"_LIGHTSLEEP_MS = (\d+)", f.read()).group(1))
    with open(firmware_dir() + "/pins.py") as f:
        press = int(re.search(r"KEY_PRESS_MS = (\d+)", f.read()).group(1))
    assert model.LOOP_SLEEP_MS == sleep
    assert model.KEY_PRESS_MS == press and model.KEY_AWAKE_MS == 24.0 + press + 20.0
