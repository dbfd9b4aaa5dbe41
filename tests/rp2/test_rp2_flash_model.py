"""The flash chip's time on the emulated Pico (docs/rp2.md, "The flash chip's time"): under the
typical model every sector erase and page program stalls the CPU for the W25Q16JV's time, and
the demo match still shows the same frame after every key as with no model: the virtual
Pico's frames, which tests/rp2/test_rp2_match.py finds the same run with no model shows (the
same keys, times and image). With no model the first boot's erases take no time."""

import math
import os

import pytest
from mpy import ROOT
from rp2help import key_script, vpico_frames

from scorebox.sim.rp2 import emu

pytestmark = pytest.mark.micropython

ROSTER = "Ann,Bob,Cat,Dan"
SETTLE_MS = 1500  # tests/rp2/test_rp2_match.py's
TYPICAL = {"erase": 45_000_000, "program": 400_000}  # ns per 4 KB sector, per 256-byte page


def _play(flash_file, files, steps, model):
    with open(flash_file, "wb") as f:
        f.write(emu.fs_image(files))
    pico = emu.EmulatedPico(flash_file, paused=True, flash_model=model)
    try:
        boot = pico.play([emu.key_step(None, SETTLE_MS, 0)])
        played = pico.play([emu.key_step(n, ms, 0 if n is None else 200, pico.pins) for n, ms in steps])
        log = pico.flashlog()
    finally:
        pico.close()
    return boot["frames"] + played["frames"], played, log


def test_the_typical_model_stalls_for_each_operation_and_changes_no_frame(deployed, tmp_path):
    with open(os.path.join(ROOT, "docs", "demo.keys")) as f:
        steps = key_script(f.read())
    files = deployed + [("roster.txt", "".join(n + "\n" for n in ROSTER.split(",")).encode())]
    frames, end, log = _play(str(tmp_path / "typical.img"), files, steps, "typical")
    plain = vpico_frames(str(tmp_path / "vpico.img"), steps, ROSTER, SETTLE_MS)
    assert [bytes.fromhex(f) for f in frames] == plain
    want = sum(math.ceil(n / (4096 if op == "erase" else 256)) * TYPICAL[op] for _, op, _, n in log)
    assert any(op == "erase" for _, op, _, _ in log) and end["flash_stall_ns"] == want > 0
    _, booted, log = _play(str(tmp_path / "none.img"), files, [], None)
    assert any(op == "erase" for _, op, _, _ in log) and booted["flash_stall_ns"] == 0
    with pytest.raises(ValueError):
        emu.EmulatedPico(str(tmp_path / "x.img"), flash_model="slow")
