"""A box flashed with the frozen image (`make uf2`) over an earlier deploy: the .mpy files left
on its flash shadow the image's modules (files come first on sys.path). `scorebox doctor` says
so, and `scorebox deploy` removes them and copies only main.py and pins.py: the frozen box is
not undone without a word."""

import os
import subprocess
import sys

import pytest
from rp2help import mpremote, wait_hello

from scorebox.device import deploy, firmware
from scorebox.sim.rp2 import emu

pytestmark = pytest.mark.micropython


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def shadowed(deployed, tmp_path_factory):
    """The frozen image booted on a flash that an earlier .mpy deploy filled."""
    try:
        uf2 = emu.Image("frozen").uf2
    except emu.Missing as e:
        pytest.skip(str(e))
    flash = str(tmp_path_factory.mktemp("frozen") / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(deployed))
    p = emu.EmulatedPico(flash, uf2=uf2)
    yield p
    p.close()


def _doctor(port):
    p = scorebox("doctor", "--port", port)
    return p.stdout + p.stderr


def test_doctor_then_deploy_undo_the_shadowing(shadowed):
    version = deploy.firmware_version()
    hello = wait_hello(shadowed.port)
    assert hello["firmware"] == version and hello["image"] == version, hello  # the .mpy files run
    assert hello["micropython"] == "1.28.0", hello
    out = _doctor(shadowed.port)
    assert "FAIL  the box's image holds scorebox %s frozen in, but files on its flash shadow it" % version in out, out

    p = scorebox("deploy", "--port", shadowed.port)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out + shadowed.tail()
    assert "box: scorebox %s frozen into its firmware image" % version in out, out
    removed = len(firmware.compiled())
    assert "removed %d earlier deployed files" % removed in out, out
    assert "verified: 2 files" in out and "runs firmware %s+frozen " % version in out, out

    out = _doctor(shadowed.port)
    assert "firmware %s+frozen (frozen into its MicroPython 1.28.0)" % version in out, out
    assert "ok    the box's parts agree" in out and "shadow" not in out, out
    got = mpremote(shadowed.port, "resume", "exec", "import sys; print(sys.modules['box.app'].__file__)")
    assert "box/app.py" in got, got


def test_a_pico_fresh_from_the_uf2_runs_the_box_and_keeps_an_edited_pins_py(tmp_path):
    """The maker's path: flash the UF2, and the box runs. _boot.py writes main.py and pins.py
    at the first boot, as the image was built with them, never over a file that is there."""
    try:
        uf2 = emu.Image("frozen").uf2
    except emu.Missing as e:
        pytest.skip(str(e))
    fw = firmware.firmware_dir()
    with open(os.path.join(fw, "pins.py"), "rb") as f:
        edited = f.read() + b"# wired by hand in the club house\n"
    for start in ("blank", "edited"):
        flash = str(tmp_path / (start + ".img"))  # blank: none, formatted at the first boot as a new Pico's
        if start == "edited":
            with open(flash, "wb") as f:
                f.write(emu.fs_image([("pins.py", edited)]))
        p = emu.EmulatedPico(flash, uf2=uf2)
        try:
            hello = wait_hello(p.port)
            p.power_off()
        finally:
            p.close()
        assert hello["firmware"] == deploy.firmware_version() + "+frozen", hello
        out = tmp_path / start
        out.mkdir()
        emu.fs_extract(flash, str(out))
        with open(os.path.join(fw, "main.py"), "rb") as f:
            assert (out / "main.py").read_bytes() == f.read()
        with open(os.path.join(fw, "pins.py"), "rb") as f:
            assert (out / "pins.py").read_bytes() == (f.read() if start == "blank" else edited)
