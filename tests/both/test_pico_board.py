"""The Pico binding (boards/pico.py, pins.py, the panel drivers) on the MicroPython unix port
over a fake `machine`: panel init and page runs over I2C (SSD1306 and SH1106), every keypad
position and button, VSYS in mV, no lightsleep on USB power, the Pico W's GP25/GP29 dance,
and the app driven through it (tests/mpy/board_pico.py)."""

import os

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_pico_board_on_a_fake_machine():
    r = mpy.run(["tests/mpy/board_pico.py"], heapsize="4m")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr


# The Pico's own modules: its binding, and the frozen image's first-boot module (`make uf2`),
# which mounts the flash as MicroPython's own _boot.py does.
PICO_ONLY = (os.path.join("boards", "pico.py"), "_boot.py")


def test_only_the_pico_board_imports_machine_or_a_driver():
    """ARCHITECTURE.md: one module per hardware binding; the rest of the firmware never names them."""
    offenders = []
    fw = mpy.FIRMWARE
    for folder, _, files in os.walk(fw):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, fw)
            with open(path) as f:
                text = f.read()
            for bad in ("import machine", "from machine", "import ssd1306", "from ssd1306", "from sh1106"):
                if bad in text and rel not in PICO_ONLY:
                    offenders.append((rel, bad))
    assert offenders == []
