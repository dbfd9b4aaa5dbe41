"""The box on CircuitPython (issue 25): the firmware on the emulated CircuitPython Pico's
CIRCUITPY drive as `scorebox deploy --circuitpython` leaves it (cphelp.box_files; main.py picks
boards/circuitpy.py there), the demo match (docs/demo.keys) keyed on its keypad matrix, read by
keypad.KeyMatrix, at the virtual Pico's pace, and every frame the virtual Pico on MicroPython
shows for the same keys shown by the panel of pins.py (an SH1106, through
adafruit_displayio_sh1106) byte for byte, in the same order, the last one staying; the match
kept in the journal on the FAT drive as the virtual Pico keeps it.

The frames are compared as the pictures shown in order, not at a fixed time after each key as
tests/rp2/test_rp2_match.py does: CircuitPython is slower to a new screen (about 330 ms for the
first, 1.3 s for the match's start: docs/circuitpython.md), and the keys pressed meanwhile are
queued by keypad and handed out at their times, their screens drawn after it."""

import os

import pytest
from cphelp import box_files, rp2help
from mpy import ROOT

from scorebox.sim.cp import emu

ROSTER = "Ann,Bob,Cat,Dan"
# Power on to the home screen, with room to spare (CircuitPython's boot takes 2.3 s); the same
# after the last key, for the journal's writes at the match's end.
SETTLE_MS = 8000
VPICO_SETTLE_MS = 1500  # tests/rp2/test_rp2_match.py's
GAP_MS = 120  # as the virtual Pico's driver (vpico/drive.py)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cp-app")
    helpers = rp2help()
    with open(os.path.join(ROOT, "docs", "demo.keys")) as f:
        steps = helpers.key_script(f.read())
    files = dict(box_files())
    files["roster.txt"] = "".join(n + "\n" for n in ROSTER.split(",")).encode()
    flash = str(tmp / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(sorted(files.items())))
    pico = emu.EmulatedCircuitPython(flash, paused=True)
    try:
        boot = pico.play([emu.rp2.key_step(None, SETTLE_MS, 0)])
        keyed = [emu.rp2.key_step(n, ms, 0 if n is None else GAP_MS, pico.pins) for n, ms in steps]
        got = pico.play(keyed + [emu.rp2.key_step(None, SETTLE_MS, 0)])
        pico.power_off()
    finally:
        pico.close()
    vpico = str(tmp / "vpico.img")
    want = helpers.vpico_frames(vpico, steps, ROSTER, VPICO_SETTLE_MS)
    return steps, boot, got, want, emu.fs_files(flash), helpers.journal(vpico, str(tmp))


def test_every_frame_of_micropython_is_shown_in_order(played):
    steps, boot, got, want = played[:4]
    assert len(want) == len(steps) + 1
    assert len(set(want)) > 20, "the match shows many different screens"
    shown = [bytes.fromhex(h) for h in boot["shown"] + got["shown"]]
    i = 0
    for j, w in enumerate(want):
        while i < len(shown) and shown[i] != w:
            i += 1
        key = "boot" if j == 0 else "key %d (%s)" % (j, steps[j - 1][0])
        assert i < len(shown), "%s: MicroPython's frame is not shown after the one before on CircuitPython" % key
    assert bytes.fromhex(got["frames"][-1]) == want[-1], "the last frame stays"


def test_the_panel_is_driven_as_an_sh1106(played):
    got = played[2]
    assert got["panel_lit"], "displayio's SH1106 driver turned the panel on"
    assert got["address_acks"] >= 1, "the display bus probed the panel"


def test_the_match_is_kept_as_on_micropython(played, tmp_path, monkeypatch):
    """The drive read on the PC with the box's own reader, as rp2help.journal reads a flash: its
    journal as on FAT (box/journal.py with its FAT flag), in the ring the box made at its boot."""
    from scorebox.device.firmware import firmware_dir

    monkeypatch.syspath_prepend(firmware_dir())
    from box import journal

    monkeypatch.setattr(journal, "FAT", True)
    drive, want = played[4], played[5]
    assert "tbja/journal.tbs" in {p.lower() for p in drive}  # the journal's space, allocated once
    for path, data in drive.items():
        # FAT keeps a lower-case 8.3 name in capitals, with a flag pyfatfs does not read
        dst = tmp_path / path.lower()
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(data)
    r = journal.Journal(str(tmp_path))
    assert r.recover()["damage"] == []
    got = {n: list(r.read_match(n)[1]) for n in r.list_matches()}
    o = r.open_match()
    if o:
        got[o[0]] = list(o[2])
    assert want and got == want
