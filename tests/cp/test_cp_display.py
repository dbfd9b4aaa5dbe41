"""The displayio SSD1306 driver the design names (adafruit_displayio_ssd1306, pinned in
device/cplibs.py, from its PyPI wheel) draws the box's frames on the emulated CircuitPython
Pico: a frame in the box's layout (8 pages of 128 bytes, each a column of 8 pixels) put into a
displayio Bitmap and refreshed over busio.I2C lands in the SSD1306 model's RAM byte for byte.
The frames: the box's home screen as the virtual Pico draws it, and one of random bits."""

import importlib.util
import os
import random

import pytest
from mpy import ROOT

from scorebox.device import cplibs
from scorebox.sim.cp import emu

ROSTER = "Ann,Bob,Cat,Dan"
CODE = """import board, busio, displayio, i2cdisplaybus, supervisor, time
from adafruit_displayio_ssd1306 import SSD1306
while not supervisor.runtime.serial_connected:
    time.sleep(0.01)
displayio.release_displays()
i2c = busio.I2C(board.GP%(scl)d, board.GP%(sda)d, frequency=%(hz)d)
bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=%(addr)d)
display = SSD1306(bus, width=128, height=64, auto_refresh=False)
bitmap = displayio.Bitmap(128, 64, 2)
palette = displayio.Palette(2)
palette[1] = 0xFFFFFF
group = displayio.Group()
group.append(displayio.TileGrid(bitmap, pixel_shader=palette))
display.root_group = group
for i in range(%(n)d):
    with open("/frame%%d.bin" %% i, "rb") as f:
        frame = f.read()
    for p in range(8):
        for x in range(128):
            v = frame[p * 128 + x]
            for b in range(8):
                bitmap[x, p * 8 + b] = (v >> b) & 1
    display.refresh()
    print("SHOWN", i)
    input()
"""


def _home_screen(tmp):
    """The virtual Pico's frame after boot (tests/rp2/rp2help.py's vpico_frames)."""
    spec = importlib.util.spec_from_file_location("rp2help", os.path.join(ROOT, "tests", "rp2", "rp2help.py"))
    rp2help = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rp2help)
    return rp2help.vpico_frames(str(tmp / "vpico.img"), [], ROSTER, 1500)[0]


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cp-display")
    rnd = random.Random(25)
    frames = [_home_screen(tmp), bytes(rnd.getrandbits(8) for _ in range(1024))]
    fw = tmp / "fw"
    fw.mkdir()
    with open(os.path.join(ROOT, "firmware", "pins.py")) as f:
        pins_py = f.read()
    for kind in ("SH1106", "SSD1309"):
        pins_py = pins_py.replace('DISPLAY = "%s"' % kind, 'DISPLAY = "SSD1306"')
    (fw / "pins.py").write_text(pins_py)
    pins = emu.rp2.pin_map(str(fw))
    assert pins["DISPLAY"] == "SSD1306"
    code = CODE % {
        "scl": pins["I2C_SCL"],
        "sda": pins["I2C_SDA"],
        "hz": pins["I2C_FREQ"],
        "addr": pins["DISPLAY_ADDR"],
        "n": len(frames),
    }
    files = [("code.py", code.encode())] + cplibs.files()
    files += [("frame%d.bin" % i, f) for i, f in enumerate(frames)]
    flash = str(tmp / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(files))
    pico = emu.EmulatedCircuitPython(flash, fw=str(fw))
    got = []
    try:
        pico.wait_usb()
        for i in range(len(frames)):
            pico.read_until(b"SHOWN %d" % i)
            got.append((pico.frame(), pico.stats()))
            pico.write(b"\r")
        pico.read_until(emu.DONE)
    finally:
        pico.close()
    return frames, got


def test_the_home_screen_is_drawn_byte_for_byte(shown):
    frames, got = shown
    assert len(set(frames[0])) > 2, "the home screen shows something"
    frame, stats = got[0]
    assert stats["panel_lit"], "displayio's driver turned the panel and its charge pump on"
    assert stats["panel_unknown"] == 0, "every command byte is the SSD1306's"
    assert frame == frames[0], "%d bytes differ" % sum(a != b for a, b in zip(frame, frames[0]))


def test_every_bit_pattern_lands_where_the_box_puts_it(shown):
    frames, got = shown
    assert got[1][0] == frames[1], "%d bytes differ" % sum(a != b for a, b in zip(got[1][0], frames[1]))
