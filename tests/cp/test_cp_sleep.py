"""The box on CircuitPython goes to sleep and wakes (issue 25): the app's idle timeout (dim after
5 s, off after 10 s: shorter than the settings offer, 10 and 30 s, whose code path is the same
and whose wait was 28 s more of the emulator's slowest idle) switches the SH1106 off through
boards/circuitpy.py's power(False), a key switches it on again with the frame it showed, and
the app goes on. The drive is the one `scorebox deploy --circuitpython` leaves, as in
test_cp_app.py; one boot.

adafruit_displayio_sh1106 2.0.4's sleep() and wake() hand the display bus a list, which
CircuitPython 10's I2CDisplayBus.send refuses ("object with buffer protocol required"): the
app's loop died there, the panel left on."""

import json
import os
import select
import time

import pytest
from cphelp import box_files

from scorebox.sim.cp import emu

SETTLE_MS = 4500  # power on to the home screen (make bench's cp_boot_ms: 3.1 s), not yet dimmed
SETTINGS = {"dim_s": 5, "sleep_s": 10}  # counted from the app's start: no key yet
IDLE_MS = 12000  # with SETTLE_MS, past sleep_s from the app's start (about 3 s after power on)


def console(pico, quiet_s=1.0):
    """What the console printed so far (the pty's buffer), once it has been quiet a while."""
    got = b""
    end = time.monotonic() + quiet_s
    while time.monotonic() < end:
        if select.select([pico.slave], [], [], 0.1)[0]:
            got += os.read(pico.slave, 65536)
            end = time.monotonic() + quiet_s
    return emu.console_text(got)


@pytest.fixture(scope="module")
def slept(tmp_path_factory):
    files = dict(box_files())
    files["settings.json"] = json.dumps(SETTINGS).encode()
    flash = str(tmp_path_factory.mktemp("cp-sleep") / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(sorted(files.items())))
    pico = emu.EmulatedCircuitPython(flash, paused=True)
    try:
        step = emu.rp2.key_step
        boot = pico.play([step(None, SETTLE_MS, 0)])
        idle = pico.play([step(None, IDLE_MS, 0)])
        woken = pico.play([step("A", 80, 1500)])  # on the home screen: only wakes it
        after = pico.play([step("#", 80, 1500)])  # the next key is taken: a new screen
        text = console(pico)
        pico.power_off()
    finally:
        pico.close()
    return boot, idle, woken, after, text


def test_the_panel_goes_off_after_sleep_s(slept):
    boot, idle = slept[:2]
    assert boot["on"], "the panel is on after boot"
    assert not idle["on"], "the app's idle timeout switched the panel off (0xAE)"
    assert idle["frames"][-1] == boot["frames"][-1], "its RAM keeps the frame"


def test_a_key_wakes_it_with_the_same_frame(slept):
    boot, _, woken = slept[:3]
    assert woken["on"] and woken["panel_lit"], "the key switched the panel on (0xAF)"
    assert woken["shown"] == [boot["frames"][-1]], "the frame from before, and no other"


def test_the_box_goes_on(slept):
    woken, after, text = slept[2:]
    assert after["frames"][-1] != woken["frames"][-1], "the next key is handled: a new screen"
    assert "Traceback" not in text and emu.DONE.decode() not in text, text
