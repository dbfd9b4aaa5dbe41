"""No key lost at the flash chip's maximum times (issue 22 item 5, docs/rp2.md): a sector erase
then stalls the CPU 400 ms with interrupts off, and a key pressed and let go meanwhile was not
seen (the match diverged). The keypad is scanned by a PIO state machine (boards/keypad.py),
which goes on through the stall; the board hands out each change at its time afterwards.

The demo match at the virtual Pico's pace (80 ms held, 120 ms apart), under the maximum model:
every picture the panel showed, in order, is one it showed with no flash time. Before the PIO
scan it already lost keys under the maximum model. Faster storms: emu.PACES's (55 ms held, 55 ms
apart) in make bench (rp2_keys_lost_flash_max), a 40/40 one in test_rp2_keys_stall_deep.py.

On the frozen image only (the UF2 a maker installs): the scan, the rings and the journal's
erases are the same code on MicroPython's own image, whose .mpy files tests/rp2/test_rp2_deploy.py
boots and runs; a second image here doubled the tier's longest file."""

import os

import pytest
from mpy import ROOT
from rp2help import key_script

from scorebox.sim.rp2 import emu

pytestmark = [pytest.mark.micropython, pytest.mark.parametrize("image", ["frozen"], indirect=True)]

ROSTER = b"Ann\nBob\nCat\nDan\n"
SETTLE_MS = 6000  # the first boot writes the journal's ballast: 4 erases, 1.6 s at the maximum


def shown(image, tmp, steps, model):
    """What play() answered for steps on a new box of image (boot settled first)."""
    flash = str(tmp / ("%s.img" % model))
    with open(flash, "wb") as f:
        f.write(emu.fs_image(image.fs + [("roster.txt", ROSTER)]))
    pico = emu.EmulatedPico(flash, uf2=image.uf2, paused=True, flash_model=model)
    try:
        pico.play([emu.key_step(None, SETTLE_MS, 0)])
        return pico.play(steps + [emu.key_step(None, 3000, 0)])
    finally:
        pico.close()


def test_no_key_is_lost_at_the_maximum_flash_times(image, tmp_path):
    with open(os.path.join(ROOT, "docs", "demo.keys")) as f:
        script = key_script(f.read())
    steps = emu.paced(script, "demo")
    plain = shown(image, tmp_path, steps, None)
    worst = shown(image, tmp_path, steps, "max")
    assert worst["flash_stall_ns"] > 400_000_000  # at least one sector erased in the keys' time
    assert emu.pictures_lost(plain["shown"], worst["shown"]) == 0
    assert worst["shown"] == plain["shown"]
    assert len(plain["shown"]) > len(script)  # a picture (at least) for each key
