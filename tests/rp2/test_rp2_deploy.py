"""`scorebox deploy` to a blank emulated Pico over its USB CDC, with the hash check, then the
box restarted into the deployed app (boards/pico.py on the real rp2 port)."""

import os
import subprocess
import sys

import pytest
from rp2help import mpremote, wait_hello

from scorebox.device import deploy
from scorebox.sim.rp2 import emu

pytestmark = pytest.mark.micropython


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def pico(image, tmp_path_factory):
    p = emu.EmulatedPico(str(tmp_path_factory.mktemp("deploy") / "blank.flash"), uf2=image.uf2)  # formatted at boot
    p.wait_usb()
    yield p
    p.close()


def test_deploy_to_a_blank_pico_checks_every_hash_then_runs_it(pico, image):
    """On MicroPython's own image every module goes on the flash as .mpy; on the frozen one
    only main.py and pins.py do, and the app runs from the image."""
    frozen = image.kind == "frozen"
    p = scorebox("deploy", "--port", pico.port)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out + pico.tail()
    assert "box: MicroPython 1.28" in out and ".mpy v6.3" in out, out
    assert "verified: %d files" % (2 if frozen else len(image.fs)) in out, out
    running = deploy.firmware_version() + ("+frozen" if frozen else "")
    assert "runs firmware %s " % running in out
    hello = wait_hello(pico.port)
    assert hello["firmware"] == running
    # What runs is what was deployed: the app from the flash as .mpy, or from the image, on the rp2 port's board.
    got = mpremote(pico.port, "resume", "exec", "import sys; print(sys.platform, sys.modules['box.app'].__file__)")
    assert ("rp2 box/app.py" if frozen else "rp2 box/app.mpy") in got, got
    assert pico.stats()["panel_writes"] > 0, "the deployed app drew on the display"
