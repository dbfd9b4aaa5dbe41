"""A whole match keyed on the emulated Pico's keypad matrix (docs/demo.keys), every frame
compared pixel for pixel with the virtual Pico's frames for the same keys; boot from a
flash made as `scorebox deploy` leaves it, with the roster the demo uses; on the frozen image
of `make uf2`, which a maker installs. The same app as .mpy files on MicroPython's own image
is booted and run by test_rp2_deploy.py, and the virtual Pico plays every match test of
tests/both on those .mpy files within the Pico's heap (tests/support/picoheap.py); a second
image here was a minute of the tier."""

import os

import pytest
from mpy import ROOT
from rp2help import key_script, vpico_frames

from scorebox.sim.rp2 import emu

pytestmark = [pytest.mark.micropython, pytest.mark.parametrize("image", ["frozen"], indirect=True)]

ROSTER = "Ann,Bob,Cat,Dan"
SETTLE_MS = 1500  # power on to the home screen, with room to spare (the boot takes ~0.6 s)
# A key's frame is taken this long after it: the slowest screen to open on the stock image (New
# match, its game's package read from the file system) takes 120-160 ms. Its speed is make
# bench's (rp2_app_key_to_frame_*); its frame is this test's.
GAP_MS = 200


@pytest.fixture(scope="module")
def played(image, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("match")
    with open(os.path.join(ROOT, "docs", "demo.keys")) as f:
        steps = key_script(f.read())
    files = image.fs + [("roster.txt", "".join(n + "\n" for n in ROSTER.split(",")).encode())]
    flash = str(tmp / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(files))
    pico = emu.EmulatedPico(flash, uf2=image.uf2)
    try:
        boot = pico.play([emu.key_step(None, SETTLE_MS, 0)])
        got = pico.play([emu.key_step(n, ms, 0 if n is None else GAP_MS, pico.pins) for n, ms in steps])
    finally:
        pico.close()
    want = vpico_frames(str(tmp / "vpico.img"), steps, ROSTER, SETTLE_MS)
    return steps, boot, got, want


def test_every_frame_matches_the_virtual_pico(played):
    steps, boot, got, want = played
    assert len(want) == len(steps) + 1
    frames = [bytes.fromhex(h) for h in boot["frames"] + got["frames"]]
    assert len(frames) == len(want)
    assert len(set(frames)) > 20, "the match shows many different screens"
    for i, (g, w) in enumerate(zip(frames, want)):
        key = "boot" if i == 0 else "key %d (%s)" % (i, steps[i - 1][0])
        assert g == w, "%s: the emulated Pico's frame differs from the virtual Pico's in %d bytes" % (
            key,
            sum(a != b for a, b in zip(g, w)),
        )


def test_an_sh1106_panel_shows_the_same_home_screen(played, image, tmp_path):
    """pins.DISPLAY = "SH1106": the firmware's SH1106 driver (132-column RAM, page addressing)
    into the SH1106 model shows the frame the SSD1306 showed at boot."""
    fw = tmp_path / "fw"
    fw.mkdir()
    with open(os.path.join(ROOT, "firmware", "pins.py")) as f:
        pins = f.read().replace('DISPLAY = "SSD1306"', 'DISPLAY = "SH1106"')
    assert 'DISPLAY = "SH1106"' in pins
    (fw / "pins.py").write_text(pins)
    files = [(p, pins.encode() if p == "pins.py" else d) for p, d in image.fs]
    files.append(("roster.txt", "".join(n + "\n" for n in ROSTER.split(",")).encode()))
    flash = str(tmp_path / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(files))
    pico = emu.EmulatedPico(flash, fw=str(fw), uf2=image.uf2)
    try:
        boot = pico.play([emu.key_step(None, SETTLE_MS, 0)])
    finally:
        pico.close()
    assert boot["frames"] == played[1]["frames"]
