"""`scorebox deploy` and `scorebox doctor` end to end: a blank virtual Pico (MicroPython's
REPL on a pty, its flash in a file) gets the firmware through the real mpremote; after the
soft reset it runs from its flash (host_tools/scorebox/sim/mpy/vpico/flashboot.py: the deployed .mpy files and
drivers, not the repository's) and answers HELLO with the firmware version."""

import os
import shutil
import subprocess
import sys
import time
import zipfile

import pytest

from scorebox.device import deploy, link
from scorebox.device import mpremote_adapter as mp
from scorebox.device.firmware import firmware_dir
from scorebox.device.mpy_build import SIM_MPY
from scorebox.sim.run import micropython, source_path
from scorebox.sim.vpico import VirtualPico

pytestmark = pytest.mark.micropython


class FlashBootPico(VirtualPico):
    """The virtual Pico booting from its flash (vpico/flashboot.py): a blank one sits at the
    REPL; a soft reset there runs the main.py that a deploy put on the flash, in the same
    process, as on a Pico."""

    def boot(self):
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(
                [micropython(), os.path.join(SIM_MPY, "vpico", "flashboot.py"), "--flash", self.flash],
                stdin=self.master,
                stdout=self.master,
                stderr=err,
                env=dict(os.environ, MICROPYPATH=source_path()),
                cwd=firmware_dir(),
                close_fds=True,
            )


def scorebox(*args, timeout=300):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    vp = FlashBootPico(str(tmp_path_factory.mktemp("deploy") / "box.flash"))
    time.sleep(0.3)
    yield vp
    vp.close()


def test_deploy_to_a_blank_pico_then_it_boots_from_flash(box):
    pid = box.proc.pid
    p = scorebox("deploy", "--port", box.port)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out + box.tail()
    assert "mpy-cross: MicroPython 1.29" in out and ".mpy v6.3" in out
    assert "box: MicroPython 1.29" in out
    assert "drivers pinned: sh1106.py" in out
    assert "removed 0 stale files" in out
    assert "verified: " in out
    assert "runs firmware %s" % deploy.firmware_version() in out
    assert box.proc.poll() is None and box.proc.pid == pid  # soft-reset into its flash's main.py
    # What runs is what was deployed: the app's modules come from /flash, as .mpy.
    got = mp.exec_(box.port, "import sys; print(sys.modules['box.app'].__file__, sys.modules['main'].__file__)")
    assert "/flash/box/app.mpy" in got and "/flash/main.py" in got, got


def test_redeploy_removes_a_shadowing_py_and_checks_hashes(box):
    # A stale source beside its .mpy (it would win the import) and an orphan module.
    mp.exec_(
        box.port,
        "f=open('/flash/box/app.py','w'); f.write('raise ImportError(\"stale\")'); f.close()\n"
        "f=open('/flash/box/gone.mpy','wb'); f.write(b'M'); f.close()\n"
        "f=open('/flash/notes.txt','w'); f.write('mine'); f.close()",
    )
    p = scorebox("deploy", "--port", box.port)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out + box.tail()
    assert "removed 2 stale files: box/app.py, box/gone.mpy" in out
    on_box = mp.ls(box.port, "/flash")
    assert "notes.txt" in on_box  # files that are not the firmware's are left alone
    files = deploy.probe(box.port)["files"]
    assert "box/app.py" not in files and "box/app.mpy" in files and "lib/ssd1306.mpy" in files


def test_doctor_checks_the_pc_and_the_box(box):
    deploy.restart(box.port)  # the last test left it at the REPL (mpremote stops the app)
    ser = link.open_port(box.port)
    box.wait_ready(link.Client(ser, timeout=1.0))
    ser.close()
    p = scorebox("doctor", "--port", box.port)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    assert "ok    mpremote 1.29.0 (pinned)" in out
    assert "ok    port %s opens" % box.port in out
    assert "firmware %s" % deploy.firmware_version() in out
    assert "battery (VSYS) 4.50 V" in out


def test_doctor_without_a_box_fails_clearly(tmp_path):
    p = scorebox("doctor", "--port", str(tmp_path / "ttyNONE"))
    assert p.returncode == 2
    assert "does not exist" in p.stdout and "Traceback" not in p.stderr


def test_pinned_drivers_match_their_manifest():
    hashes = deploy.check_drivers()  # raises DeployError on any difference
    assert set(hashes) == {"ssd1306.py", "sh1106.py"}


def test_a_changed_driver_is_refused(tmp_path):
    fw = tmp_path / "firmware"
    shutil.copytree(firmware_dir(), fw)
    with open(fw / "lib" / "ssd1306.py", "a") as f:
        f.write("# changed\n")
    with pytest.raises(deploy.DeployError, match="does not match its pinned SHA-256"):
        deploy.check_drivers(str(fw))


def test_a_different_mpy_version_stops_the_deploy(monkeypatch):
    monkeypatch.setattr(
        deploy,
        "probe",
        lambda port: {
            "version": "1.19.1",
            "mpy": 6 | (1 << 8),
            "platform": "rp2",
            "machine": "Pico",
            "root": "/",
            "files": {},
            "free": 10**6,
        },
    )
    with pytest.raises(deploy.DeployError, match=r"loads .mpy v6.1 but this mpy-cross"):
        deploy.deploy("/dev/null", log=lambda s: None)


def test_deploy_without_a_box_fails_clearly(tmp_path):
    p = scorebox("deploy", "--port", str(tmp_path / "ttyNONE"))
    assert p.returncode == 2
    assert "cannot reach the box's REPL" in p.stderr and "Traceback" not in p.stderr


def test_a_wheel_install_deploys_its_own_copy_of_the_firmware(box, tmp_path):
    """A maker's `pip install scorebox[deploy]` is no checkout: the wheel carries the
    firmware tree, and deploy takes it from there."""
    from mpy import ROOT

    def pip(*args):
        p = subprocess.run([*args], capture_output=True, text=True, timeout=600, cwd=tmp_path)
        assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]

    # From a copy of the files git knows (as in a fresh clone): a build in the checkout
    # would reuse its build/ folder, modules since removed included.
    src = tmp_path / "src"
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.split()
    for rel in files:
        if os.path.exists(os.path.join(ROOT, rel)):
            os.makedirs(src / os.path.dirname(rel), exist_ok=True)
            shutil.copy2(os.path.join(ROOT, rel), src / rel)
    pip(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(src))
    (wheel,) = (tmp_path / "dist").glob("scorebox-*.whl")
    with zipfile.ZipFile(wheel) as z:
        tops = {n.split("/")[0] for n in z.namelist() if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"scorebox", "scorebox_core"}, "the wheel installs other top-level packages: %s" % tops
    venv = tmp_path / "venv"
    pip(sys.executable, "-m", "venv", str(venv))
    pip(str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "%s[deploy]" % wheel)
    deploy.restart(box.port)
    p = subprocess.run(
        [str(venv / "bin" / "scorebox"), "deploy", "--port", box.port],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    out = p.stdout + p.stderr
    assert p.returncode == 0, out + box.tail()
    assert "from %s" % (venv / "lib") in out and "site-packages/scorebox/firmware" in out, out
    assert "verified: " in out and "runs firmware %s" % deploy.firmware_version() in out
