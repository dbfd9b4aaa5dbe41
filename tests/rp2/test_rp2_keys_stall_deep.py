"""No key lost in a flash stall, past what a FIFO holds (issue 22 item 5, docs/rp2.md): the
keypad's and the buttons' PIO state machines push their changes to DMA channels that copy each
into a ring in RAM as it comes, so the 8 words of an RX FIFO no longer bound what a stall holds,
and the buttons are seen through a stall too (the CPU read them before, and lost those pressed
and let go inside one).

- The demo match as a faster key storm (40 ms held, 40 ms apart: 25 changes a second, 10 in a
  400 ms erase, past the FIFO's 8), under the maximum flash model. (At 30/30 the two images
  already show different pictures with no flash time at all: docs/rp2.md.)
- The buttons pressed from just after boot through the first boot's journal ballast (4 sector
  erases, 1.6 s of stall at the maximum times): down and up in turn on the home menu.

Every picture the panel showed, in order, is one it showed with no flash time; on the frozen
image only, as tests/rp2/test_rp2_keys_flash_max.py says why.
"""

import os

import pytest
from mpy import ROOT
from rp2help import key_script
from test_rp2_keys_flash_max import ROSTER, shown

from scorebox.sim.rp2 import emu

pytestmark = [pytest.mark.micropython, pytest.mark.parametrize("image", ["frozen"], indirect=True)]

FAST = (40, 40)  # ms held, ms apart


def test_a_faster_storm_than_the_fifo_holds(image, tmp_path):
    with open(os.path.join(ROOT, "docs", "demo.keys")) as f:
        script = key_script(f.read())
    hold, gap = FAST
    steps = [emu.key_step(None, ms, 0) if n is None else emu.key_step(n, hold, gap) for n, ms in script]
    plain = shown(image, tmp_path, steps, None)
    worst = shown(image, tmp_path, steps, "max")
    assert worst["flash_stall_ns"] > 400_000_000  # at least one sector erased in the keys' time
    assert emu.pictures_lost(plain["shown"], worst["shown"]) == 0
    assert worst["shown"] == plain["shown"]
    assert len(plain["shown"]) > len(script)


def booted(image, tmp, steps, model):
    """What play() answered for steps played from power-on on a new box of image."""
    flash = str(tmp / ("boot-%s.img" % model))
    with open(flash, "wb") as f:
        f.write(emu.fs_image(image.fs + [("roster.txt", ROSTER)]))
    pico = emu.EmulatedPico(flash, uf2=image.uf2, paused=True, flash_model=model)
    try:
        return pico.play(steps + [emu.key_step(None, 3000, 0)])
    finally:
        pico.close()


def test_buttons_pressed_in_a_stall_are_seen(image, tmp_path):
    hold, gap = FAST
    keys = [emu.key_step(("down", "up")[i % 2], hold, gap) for i in range(40)]  # 2.4 s of keys
    steps = [emu.key_step(None, 700, 0)] + keys  # from just after the board is made
    plain = booted(image, tmp_path, steps, None)
    worst = booted(image, tmp_path, steps, "max")
    assert worst["flash_stall_ns"] >= 4 * 400_000_000  # the ballast's erases, in the keys' time
    assert len(plain["shown"]) > 30  # the menu moved at (nearly) every button
    assert emu.pictures_lost(plain["shown"], worst["shown"]) == 0
    assert worst["shown"] == plain["shown"]
