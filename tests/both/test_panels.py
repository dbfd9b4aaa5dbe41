"""The panels the box can have (issue 22 item 7): the SH1106 (1.3", pins.py's reference),
the SSD1309 (2.42") and the SSD1306 (0.96"). On the MicroPython VM, the firmware's own
driver for each into a model of that controller on I2C (vpico/board.py, BusPanel) shows the
reference's frames over a whole match of each game (tests/mpy/board_panels.py)."""

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_every_panel_shows_the_reference_frames():
    r = mpy.run(["tests/mpy/board_panels.py"], heapsize="4m", timeout=300)
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
