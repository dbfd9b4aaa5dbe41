"""docs/hardware.md's parts list agrees with what the wiring table and the case are made
from: the piezo's resistor (tools/wiring.py), the piezo's and the LiPo cell's sizes
(enclosure/params.py), the keys' press time (firmware/pins.py)."""

import os
import re

import wiring

from enclosure.params import BATTERIES, Params, read_pins


def _doc():
    with open(os.path.join(wiring.docs_dir(), "hardware.md"), encoding="utf-8") as f:
        return " ".join(f.read().split())


def _field(name):
    return Params.__dataclass_fields__[name].default


def test_the_piezo_in_the_parts_list_is_the_cases_and_the_tables():
    text = _doc()
    d, h = _field("buzzer")
    assert "%g mm across, %g mm high: TDK PS1240P02BT" % (d, h) in text
    assert "With a %d Ohm resistor" % wiring.PIEZO_OHMS in text
    assert "through the %d Ohm resistor" % wiring.PIEZO_OHMS in text  # assembly step 6
    with open(os.path.join(wiring.firmware_dir(), "box", "games", "ttb", "play.py")) as f:
        tones = {k: (int(hz), int(ms)) for k, hz, ms in re.findall(r"^(\w+) = \((\d+), (\d+)\)", f.read(), re.M)}
    refused, flip, end = tones["REFUSED"], tones["FLIP"], tones["MATCH_END"]
    assert "(the lowest, %g kHz, %g s)" % (refused[0] / 1000, refused[1] / 1000) in text
    assert "a chirp, %g kHz, %d ms)" % (flip[0] / 1000, flip[1]) in text
    assert "match (%g kHz, %g s)" % (end[0] / 1000, end[1] / 1000) in text


def test_the_lipo_in_the_parts_list_is_the_cases():
    text = _doc()
    w, h, d = BATTERIES["lipo"].pack
    assert '"503450": %g x %g x %.1f mm' % (w, h, d) in text
    assert "%g mm free above the cell" % BATTERIES["lipo"].swell in text
    assert "TP4056 %g mm further from the cell" % BATTERIES["lipo"].charger_gap in text
    assert "1200 / 3.0 = 400 mA" in text


def test_the_key_press_time_the_docs_name_is_pins():
    assert read_pins()["KEY_PRESS_MS"] == 0
    assert "`KEY_PRESS_MS = 0`, the default" in _doc() and "set `KEY_PRESS_MS = 20` in `pins.py`" in _doc()


def _enclosure_readme():
    path = os.path.join(os.path.dirname(wiring.docs_dir()), "enclosure", "README.md")
    with open(path, encoding="utf-8") as f:
        return " ".join(f.read().split())


def test_the_case_takes_a_bare_pico():
    """The Pico's standoffs leave no room for header pins under it (issue 37): both parts
    lists say a bare Pico, wires soldered to its pads, and the model has no pins under it."""
    standoff = _field("pico_standoff")
    assert _field("pico_headers") == 0.0
    assert "For the printed case, a bare Pico, wires soldered to the pads: its %g mm standoffs" % standoff in _doc()
    assert "a bare Pico, wires soldered to the pads" in _enclosure_readme()
    assert "(or use a Pico H)" not in _doc()  # assembly step 1: headers only for an open build
