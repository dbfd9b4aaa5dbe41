"""What the emulated CircuitPython Pico models beyond rp2040js (host_tools/scorebox/sim/cp/
harness.mjs), seen from CircuitPython's own modules: busio.I2C finds the pull-ups, scan()
finds the panel by its bit-banged address ACK and a write reaches the panel through the I2C
block; a file written after boot.py's remount is on the saved CIRCUITPY drive; the battery's
VSYS reads through analogio; a held key comes out of keypad.KeyMatrix."""

import pytest

from scorebox.sim.cp import emu

BOOT = b'import storage\nstorage.remount("/", readonly=False)\n'
CODE = """import analogio, board, busio, keypad, os, supervisor, time
while not supervisor.runtime.serial_connected:
    time.sleep(0.01)
i2c = busio.I2C(board.GP%(scl)d, board.GP%(sda)d, frequency=%(hz)d)
while not i2c.try_lock():
    pass
print("SCAN", i2c.scan())
i2c.writeto(%(addr)d, bytes((0x00, 0xAF)))  # a command: display on
i2c.unlock()
with open("/written.txt", "w") as f:
    f.write("written on the box")
os.sync()  # CircuitPython keeps a flash sector's writes in RAM until it flushes them
km = keypad.KeyMatrix(row_pins=%(rows)s, column_pins=%(cols)s)  # rows driven low, columns pulled up
adc = analogio.AnalogIn(board.A3)
print("VSYS", adc.value * 3266 * 3 // 65535)  # the keys play from here on
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    ev = km.events.get()
    if ev:
        print("KEY", ev.key_number, ev.pressed)
        if not ev.pressed:
            break
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cp-hw")
    pins = emu.rp2.pin_map()
    gp = lambda gs: "(%s,)" % ", ".join("board.GP%d" % g for g in gs)  # noqa: E731
    code = CODE % {
        "scl": pins["I2C_SCL"],
        "sda": pins["I2C_SDA"],
        "hz": pins["I2C_FREQ"],
        "addr": pins["DISPLAY_ADDR"],
        "rows": gp(pins["KEYPAD_ROWS"]),
        "cols": gp(pins["KEYPAD_COLS"]),
    }
    flash = str(tmp / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image([("boot.py", BOOT), ("code.py", code.encode())]))
    pico = emu.EmulatedCircuitPython(flash, vsys_mv=4200)
    try:
        pico.wait_usb()
        out = pico.read_until(b"VSYS")
        played = pico.play([emu.rp2.key_step("5", 200, 100, pins)])
        out = emu.console_text(out + pico.read_until(emu.DONE))
        stats = pico.stats()
        pico.power_off()
    finally:
        pico.close()
    return out, stats, played, emu.fs_files(flash)


def test_i2c_finds_the_panel_and_writes_to_it(run):
    out, stats = run[:2]
    assert "SCAN [60]" in out, out
    assert stats["address_acks"] >= 1
    assert stats["on"], "the display-on command reached the panel"


def test_a_file_written_on_the_box_is_on_the_saved_drive(run):
    # CircuitPython's FatFs keeps a short name, lower case by its NT flags: pyfatfs shows it upper case.
    assert {k.lower(): v for k, v in run[3].items()}["written.txt"] == b"written on the box"


def test_vsys_reads_through_analogio(run):
    line = [ln for ln in run[0].splitlines() if ln.startswith("VSYS")]
    assert line and abs(int(line[0].split()[1]) - 4200) < 10, run[0]


def test_a_held_key_comes_out_of_keypad_keymatrix(run):
    # "5": row 1, column 1 of the 4x4 matrix, key number 5 in KeyMatrix's row-major order.
    assert "KEY 5 True" in run[0] and "KEY 5 False" in run[0], run[0]
