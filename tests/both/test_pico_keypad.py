"""The keypad's PIO scan as the board reads it (boards/keypad.py, issue 22 item 5), on the
MicroPython unix port over a fake `rp2` (tests/mpy/board_keypad.py): the readings to key codes
wired either way round, each change's time from the scan count, the interrupt's ring. The PIO
program itself runs on the emulated Pico (tests/rp2/test_rp2_keys_flash_max.py)."""

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_keypad_on_a_fake_rp2():
    r = mpy.run(["tests/mpy/board_keypad.py"])
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
