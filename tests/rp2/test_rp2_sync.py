"""`scorebox sync` of 200 matches from the emulated Pico over its USB CDC (the real
firmware, the real CLI, a real SQLite file), into a fresh store identical to the same sync
from the virtual Pico (tests/both/test_sync.py). The box's flash is the virtual Pico's,
filled by the box's own journal writer (tests/support/boxfill.py), with the firmware added
as `scorebox deploy` leaves it (on the frozen image of `make uf2`: main.py and pins.py):
both boxes hold the same journal's bytes. On the frozen image only, the UF2 a maker installs:
a sync's heap with the box as .mpy files in RAM is tests/both/test_sync_heap.py's (the Pico's
budget on the unix port, harsher), and MicroPython's own image answers HELLO after a deploy
(test_rp2_deploy.py) and the rescue's syncs (test_rp2_sync_raw.py)."""

import os
import shutil
import subprocess
import sys

import pytest
from boxfill import fill
from rp2help import store_rows, wait_hello

from scorebox.device import firmware
from scorebox.sim.rp2 import emu
from scorebox.sim.vpico import VirtualPico

pytestmark = [pytest.mark.micropython, pytest.mark.parametrize("image", ["frozen"], indirect=True)]

COUNT = 200


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=600)


def _sync(port, db):
    p = scorebox("sync", "--port", port, "--db", db)
    assert p.returncode == 0, p.stderr + p.stdout
    assert "%d new matches stored" % COUNT in p.stdout, p.stdout
    return p.stdout


@pytest.fixture(scope="module")
def synced(image, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sync")
    flash, matches = fill(tmp, COUNT)
    rp2_flash = str(tmp / "rp2.flash")
    shutil.copyfile(flash, rp2_flash)
    emu.fs_add(rp2_flash, image.fs)
    vp = VirtualPico(flash)
    try:
        wait_hello(vp.port)
        _sync(vp.port, str(tmp / "vpico.sqlite"))
    finally:
        vp.close()
    pico = emu.EmulatedPico(rp2_flash, uf2=image.uf2)
    try:
        hello = wait_hello(pico.port)
        out = _sync(pico.port, str(tmp / "rp2.sqlite"))
        again = scorebox("sync", "--port", pico.port, "--db", str(tmp / "rp2.sqlite"))
    finally:
        pico.close()
    return hello, out, again, store_rows(str(tmp / "vpico.sqlite")), store_rows(str(tmp / "rp2.sqlite")), matches


def test_the_box_is_the_rp2_port(synced):
    hello = synced[0]
    assert hello.get("device", "").split("-")[0] not in ("", "v"), hello  # machine.unique_id()
    assert abs(hello["battery_mv"] - 4500) < 20, hello  # VSYS/3 on ADC3, as the model sets it


def test_the_store_is_identical_to_the_virtual_picos(synced):
    _, _, again, want, got, matches = synced
    assert len(got["matches"]) == COUNT
    assert got == want
    assert again.returncode == 0 and "0 new matches stored" in again.stdout, again.stdout + again.stderr


def test_the_box_says_whether_it_is_frozen(synced, image):
    """HELLO's firmware: the version, and "+frozen" when the box runs frozen in its image."""
    want = firmware.version() + ("+frozen" if image.kind == "frozen" else "")
    assert synced[0]["firmware"] == want, synced[0]
