"""The emulated Pico with each panel pins.py can name (issue 22 item 7): on an SSD1309
(2.42") and an SSD1306 (0.96") the box shows the frames it shows on the SH1106 (1.3", pins.py's
reference), key for key, through the firmware's own drivers into the emulator's model of
each controller (sim/rp2/panel.mjs), lit and with no command byte that controller lacks.
On the frozen image (`make uf2`: its drivers are frozen too, and pins.py stays a file): the
drivers' code is the same as the .mpy files MicroPython's own image runs in
tests/rp2/test_rp2_match.py, whose SH1106 frames these are compared with."""

import os
import re

import pytest
from mpy import ROOT
from rp2help import key_script

from scorebox.sim.rp2 import emu

pytestmark = [pytest.mark.micropython, pytest.mark.parametrize("image", ["frozen"], indirect=True)]

ROSTER = "Ann,Bob,Cat,Dan"
SETTLE_MS = 1500  # power on to the home screen, as test_rp2_match.py
GAP_MS = 200  # as test_rp2_match.py
STEPS = key_script("# 8 8 6 8 8 6 6 6 # # 5 A B 1 A")  # docs/demo.keys: sides, start, A's first turn


def played(tmp, image, kind):
    """The frames after boot and after each step with pins.DISPLAY = kind, and the last stats."""
    with open(os.path.join(ROOT, "firmware", "pins.py")) as f:
        pins, n = re.subn(r'^DISPLAY = "\w+"', 'DISPLAY = "%s"' % kind, f.read(), flags=re.M)
    assert n == 1
    fw = tmp / kind
    fw.mkdir()
    (fw / "pins.py").write_text(pins)
    files = [(p, pins.encode() if p == "pins.py" else d) for p, d in image.fs]
    files.append(("roster.txt", "".join(n + "\n" for n in ROSTER.split(",")).encode()))
    flash = str(tmp / (kind + ".img"))
    with open(flash, "wb") as f:
        f.write(emu.fs_image(files))
    pico = emu.EmulatedPico(flash, fw=str(fw), uf2=image.uf2)
    try:
        boot = pico.play([emu.key_step(None, SETTLE_MS, 0)])
        got = pico.play([emu.key_step(k, ms, GAP_MS, pico.pins) for k, ms in STEPS])
    finally:
        pico.close()
    return boot["frames"] + got["frames"], got


@pytest.fixture(scope="module")
def reference(image, tmp_path_factory):
    frames, stats = played(tmp_path_factory.mktemp("sh1106"), image, "SH1106")
    assert stats["panel_lit"] and stats["panel_unknown"] == 0
    assert len(frames) == len(STEPS) + 1 and len(set(frames)) > 5
    return frames


@pytest.mark.parametrize("kind", ["SSD1309", "SSD1306"])
def test_each_panel_shows_the_reference_frames(reference, image, kind, tmp_path):
    frames, stats = played(tmp_path, image, kind)
    assert stats["panel_lit"] and stats["panel_unknown"] == 0, stats
    for i, (g, w) in enumerate(zip(frames, reference)):
        assert g == w, "%s, %s: the frame differs from the SH1106's" % (kind, "boot" if i == 0 else "key %d" % i)
    assert len(frames) == len(reference)
