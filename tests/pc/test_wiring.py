"""The wiring table in docs/hardware.md and docs/wiring.svg are generated from firmware/pins.py
(`python tools/wiring.py docs`): the committed docs must match the generator, and the
generator refuses a pin map a Pico cannot have."""

import os
import shutil

import pytest
import wiring


def test_committed_docs_match_the_pin_map():
    want = wiring.generate()
    stale = []
    for path, text in want.items():
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                stale.append(os.path.basename(path))
    assert not stale, "%s out of date with firmware/pins.py: run `python tools/wiring.py docs`" % stale


def test_every_pin_of_the_map_is_in_the_table():
    p = wiring.load_pins()
    text = wiring.table(p)
    gpios = [p["I2C_SDA"], p["I2C_SCL"], *p["KEYPAD_ROWS"], *p["KEYPAD_COLS"], *[g for _, g in p["BUTTONS"]]]
    if p["PIEZO"] is not None:
        gpios.append(p["PIEZO"])
    for g in gpios:
        assert "| GP%d | %d |" % (g, wiring.PHYSICAL[g]) in text
    assert "| VSYS | 39 |" in text and "| 3V3(OUT) | 36 |" in text


def test_a_changed_pin_map_makes_the_docs_stale(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(os.path.join(wiring.docs_dir(), "hardware.md"), docs / "hardware.md")
    src = open(os.path.join(wiring.docs_dir(), "..", "firmware", "pins.py")).read()
    pins = tmp_path / "pins.py"
    pins.write_text(src.replace("PIEZO = 20", "PIEZO = 21"))
    before = wiring.generate(str(docs))
    after = wiring.generate(str(docs), str(pins))
    hw = str(docs / "hardware.md")
    assert before[hw] != after[hw] and "| GP21 | 27 |" in after[hw]


@pytest.mark.parametrize(
    "change, error",
    [
        ({"PIEZO": 6}, "GP6 is used twice"),
        ({"I2C_SDA": 5, "I2C_SCL": 4}, "I2C0 has no SDA on GP5"),
        ({"PIEZO": 25}, "not on the Pico's header"),
        ({"DISPLAY": "ST7735"}, "SH1106, SSD1309 or SSD1306"),
        ({"KEYPAD_ROWS": (6, 7, 8)}, "4 rows and 4 columns"),
    ],
)
def test_an_impossible_pin_map_is_refused(change, error):
    p = dict(wiring.load_pins(), **change)
    with pytest.raises(wiring.PinMapError, match=error):
        wiring.connections(p)


def test_every_part_is_drawn_with_its_ground_and_the_battery_through_its_switch_and_diode():
    p = wiring.load_pins()
    rows = wiring.connections(p)
    parts = {part for part, _, _, _, _ in rows}
    # every part's return path is a wire of its own in the table and the picture (the keypad's
    # matrix has none: a key joins a row to a column)
    for part in parts - {"4x4 keypad"}:
        grounds = [pin for what, _, sig, pin, _ in rows if what == part and sig == "GND"]
        assert grounds and all(pin in wiring.GND for pin in grounds), part
    picture = wiring.svg(p)
    wires = picture.count('stroke-width="1.6"')
    assert wires == len(rows)
    # the battery's + reaches VSYS only through the power switch and the Schottky diode
    assert picture.count("+ (switch, diode)") == 1
    assert '<path d="M%d ' % (900 - 200 + 10) in picture  # the diode's bar, at VSYS's side of the box


@pytest.mark.parametrize(
    "bus, sda, scl, ok",
    [
        (0, 28, 1, True),  # GP28 is I2C0 SDA (RP2040 datasheet, the GPIO function table)
        (0, 20, 21, True),
        (1, 26, 27, True),
        (1, 28, 27, False),
        (0, 26, 1, False),
    ],
)
def test_the_i2c_pins_are_the_rp2040s(bus, sda, scl, ok):
    bare = {"KEYPAD_ROWS": (), "KEYPAD_COLS": (), "BUTTONS": (), "PIEZO": None}
    p = dict(wiring.load_pins(), I2C_BUS=bus, I2C_SDA=sda, I2C_SCL=scl, **bare)
    if ok:
        assert ("GP%d" % sda, wiring.PHYSICAL[sda]) in [(sig, pin) for _, term, sig, pin, _ in wiring.connections(p)]
    else:
        with pytest.raises(wiring.PinMapError, match="I2C%d has no SDA" % bus):
            wiring.connections(p)


def test_the_piezo_goes_through_its_resistor_and_the_oled_is_wired_by_its_labels():
    p = wiring.load_pins()
    rows = wiring.connections(p)
    plus = [note for part, term, _, _, note in rows if part.startswith("piezo") and term == "+"]
    assert plus == ["through %d Ohm in the lead; driven by PWM" % wiring.PIEZO_OHMS]
    assert 100 <= wiring.PIEZO_OHMS <= 220  # 15-33 mA at an edge; more would cost loudness
    oled = [note for part, term, _, _, note in rows if part.startswith("OLED") and term in ("VCC", "GND")]
    assert len(oled) == 2 and all("label" in note for note in oled)
    picture = wiring.svg(p)
    assert picture.count("+ (%d Ohm)" % wiring.PIEZO_OHMS) == 1 and "by the labels printed on it" in picture
