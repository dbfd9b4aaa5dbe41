"""A match started on a Pico whose clock nobody set has no date, not a day in 2021: the rp2
port's clock starts at 2021-01-01 at power-on (no battery keeps it), and the journal stamped
each header with it (every box's matches would have been filed under January 2021). A sync
sets the chip's own clock (HELLO's "time": box/device.py's Clock, boards/pico.py's
set_clock, machine.RTC), so a match started after it, until power-off, is dated. On
MicroPython's own image for the Pico with the box's .mpy files (the code is the same
frozen), its journal on the emulated flash, run by mpremote."""

import os

import pytest
from mpy import ROOT
from rp2help import mpremote

from scorebox.sim.rp2 import emu

pytestmark = pytest.mark.micropython

SET_TO = 1796083200  # 2026-12-01 00:00 UTC, the PC's time a sync would send

CODE = (
    """
import os, time, jt
from box import device
from boards.pico import Board
from box.journal import CLOCK_SET_AFTER, Journal
os.mkdir("/jclock")
j = Journal("/jclock")
j.recover()
h, evs, res = jt.typical(1)
del h["clock"]
print("BOOT", time.time() < CLOCK_SET_AFTER)
jt.write(j, dict(h), evs, res)
device.Clock(Board()).set(%d)
jt.write(j, dict(h), evs, res)
print("CLOCKS", " ".join(str(m[1].get("clock")) for m in jt.view(j)["matches"]))
"""
    % SET_TO
)


def test_a_match_is_dated_only_once_the_clock_is_set(tmp_path):
    try:
        image = emu.Image("stock")
    except emu.Missing as e:
        pytest.fail(str(e))
    with open(os.path.join(ROOT, "tests", "support", "jt.py"), "rb") as f:
        files = [(p, d) for p, d in image.files(str(tmp_path / "fs")) if p != "main.py"] + [("jt.py", f.read())]
    flash = str(tmp_path / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(files))
    pico = emu.EmulatedPico(flash, uf2=image.uf2)
    try:
        pico.wait_usb()
        out = mpremote(pico.port, "exec", CODE)
    finally:
        pico.close()
    assert "BOOT True" in out, out  # the chip's clock at power-on is before any real match
    first, second = out.split("CLOCKS", 1)[1].split()[:2]
    assert first == "None", out  # no date, rather than one in 2021
    assert SET_TO <= int(second) < SET_TO + 60, out  # set through machine.RTC: the journal's time.time()
