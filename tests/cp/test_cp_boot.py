"""The boot.py `scorebox deploy --circuitpython` puts on the drive, on the emulated
CircuitPython Pico: it enables usb_cdc.data and makes the drive the box's (writable by its
journal, read-only to the PC); held at power-on, the keypad's key 1 or the first button leaves
the drive to the PC instead, for the next install (docs/circuitpython.md)."""

import pytest

from scorebox.device import cpinstall, firmware
from scorebox.sim.cp import emu

CODE = b"""import storage, supervisor, time, usb_cdc
while not supervisor.runtime.serial_connected:
    time.sleep(0.01)
print("BOX", not storage.getmount("/").readonly, usb_cdc.data is not None)
"""


def boot(tmp_path, key):
    with open(firmware.firmware_dir() + "/pins.py", "rb") as f:
        pins = f.read()
    flash = str(tmp_path / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image([("boot.py", cpinstall.BOOT.encode()), ("pins.py", pins), ("code.py", CODE)]))
    pico = emu.EmulatedCircuitPython(flash)
    try:
        if key:  # held from power-on, through boot.py
            pico.play([emu.rp2.key_step(key, 3000, 0, pico.pins)])
        pico.wait_usb()
        return emu.console_text(pico.read_until(emu.DONE))
    finally:
        pico.close()


@pytest.mark.parametrize("key", ["1", "BUTTON"])
def test_a_key_held_at_power_on_leaves_the_drive_to_the_pc(tmp_path, key):
    """Without it the drive is the box's: tests/cp/test_cp_install.py writes there."""
    if key == "BUTTON":
        key = emu.rp2.pin_map()["BUTTONS"][0][0]
    out = boot(tmp_path, key)
    assert "BOX False True" in out, out  # read-only to the box; usb_cdc.data on all the same
