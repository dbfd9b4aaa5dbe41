"""`scorebox deploy --circuitpython DRIVE` on the CIRCUITPY drive of an emulated CircuitPython
Pico: the drive as CircuitPython formats it (its Hello World code.py, boot_out.txt), copied
to a folder as a PC mounts it (short names in lower case, as Linux's vfat shows them); the real
CLI installs there; the drive then boots on CircuitPython 10.2.1, whose boot.py enabled
usb_cdc.data and left the drive writable to the box, and every module loads as .mpy. What the
install did not put there is never overwritten: it refuses in one line and writes nothing."""

import os
import re
import subprocess
import sys
import time

import pytest
from cphelp import free_blocks

from scorebox.device import cpinstall, firmware
from scorebox.device.cpinstall import InstallError
from scorebox.sim.cp import emu
from scorebox_core import fatlayout

# Typed at the REPL: every module of the box's packages imported from its .mpy (one at a time,
# and forgotten with what it imported: CircuitPython loads bytecode into its heap), usb_cdc.data
# on, the drive writable to the box.
PROBE = (
    'exec("import gc, sys, usb_cdc\\nok = 0\\nfor m in %r:\\n had = set(sys.modules)\\n __import__(m)\\n'
    " for n in set(sys.modules) - had:\\n  sys.modules.pop(n)\\n gc.collect()\\n ok += 1\\n"
    "with open('/probe.txt', 'w') as f:\\n f.write('x')\\nimport os\\nos.sync()\\n"
    "print('PRO' + 'BE', ok, usb_cdc.data is not None)\")\r"
)


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=600)


def mounted(files, folder):
    """files ({path: bytes}, fs_files()) written to folder as a PC shows the drive."""
    for rel, data in files.items():
        rel = "/".join(p.lower() if p.isupper() else p for p in rel.split("/"))
        os.makedirs(os.path.join(folder, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(folder, rel), "wb") as f:
            f.write(data)


def snapshot(folder):
    out = {}
    for d, _, names in os.walk(folder):
        for n in names:
            with open(os.path.join(d, n), "rb") as f:
                out[os.path.relpath(os.path.join(d, n), folder)] = f.read()
    return out


def modules():
    """The box's modules CircuitPython can import (boards/pico.py and keypad.py need machine)."""
    return [
        r[:-3].replace("/", ".").removesuffix(".__init__")
        for r in firmware.compiled()
        if r.startswith(("box/", "scorebox_core/")) or r in ("boards/base.py", "boards/cpport.py")
    ]


def console(pico, until, timeout=120, interrupt=True):
    """What the console printed up to the pattern until; interrupt: Ctrl-C every 2 s, to stop
    code.py whatever it runs."""
    got = b""
    deadline = time.monotonic() + timeout
    while not re.search(until, emu.console_text(got)):
        assert time.monotonic() < deadline, emu.console_text(got)[-1500:]
        if interrupt:
            pico.write(b"\x03")
        try:
            got += pico.read_until(b"\n", timeout=2)
        except RuntimeError:
            pass
    return emu.console_text(got)


def on_the_drive(files, tmp):
    """files ({path: bytes}: the install's, in a folder on the PC's disk, whose ring has the
    most slots) with the ring and the store's copies the install makes on the 1 MiB CIRCUITPY
    itself: as many slots as its free blocks take (the room the box writes in kept beside them)."""
    ring = [d + "/" + n for d in (fatlayout.FIRST, fatlayout.MIRROR) for n in (fatlayout.RING, fatlayout.STORE)]
    files = {k: v for k, v in files.items() if k not in ring}
    free = free_blocks(emu.fs_image(sorted(files.items())), str(tmp)) * 512
    n = fatlayout.slots_for(free - 2 * fatlayout.STORE_COPY)
    for path in ring if n else ():  # none when two slots do not fit
        files[path] = b"\xff" * (fatlayout.ring_size(n) if path.endswith(fatlayout.RING) else fatlayout.STORE_COPY)
    return files


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cpinstall")
    fresh = str(tmp / "fresh.flash")
    pico = emu.EmulatedCircuitPython(fresh)  # a blank flash: CircuitPython formats CIRCUITPY
    try:
        pico.wait_usb()
        pico.read_until(emu.DONE)
        pico.power_off()
    finally:
        pico.close()
    drive = str(tmp / "CIRCUITPY")
    mounted(emu.fs_files(fresh), drive)
    before = snapshot(drive)
    first = scorebox("deploy", "--circuitpython", drive)
    after = snapshot(drive)
    again = scorebox("deploy", "--circuitpython", drive)
    flash = str(tmp / "installed.flash")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(sorted(on_the_drive(after, tmp).items())))
    pico = emu.EmulatedCircuitPython(flash)
    try:
        pico.wait_usb()
        console(pico, r"Press any key|>>> ")
        pico.write(b"\r")
        console(pico, r">>> ")
        pico.write((PROBE % (modules(),)).encode())
        out = console(pico, r"PROBE \d+ \w+|Error", interrupt=False)
        pico.power_off()
    finally:
        pico.close()
    return before, first, after, again, out, emu.fs_files(flash), drive


def test_the_box_goes_on_a_fresh_drive(installed):
    before, first, after = installed[:3]
    assert first.returncode == 0, first.stdout + first.stderr
    assert before["code.py"] == cpinstall.HELLO_WORLD  # CircuitPython's own, replaced
    assert after["code.py"] == cpinstall.CODE.encode() and after["boot.py"] == cpinstall.BOOT.encode()
    for rel in ("main.py", "pins.py", "box/link.mpy", "scorebox_core/frames.mpy", "lib/adafruit_displayio_ssd1306.mpy"):
        assert rel in after, sorted(after)
    assert after["box/link.mpy"][:1] == b"C"  # CircuitPython's mark on a .mpy v6.3
    assert not any(r.startswith("lib/") and r.endswith(".py") for r in after)  # MicroPython's drivers stay off
    for rel in ("boot_out.txt", "settings.toml", "sd/placeholder.txt"):
        assert after[rel] == before[rel]  # CircuitPython's own files are left as they were
    # The journal's space, allocated once (docs/journal.md "On FAT"): its ring's two files of
    # 0xFF, as many slots as fit (here the most: this folder is on the PC's disk).
    n = fatlayout.MAX_SLOTS
    assert after["tbja/journal.tbs"] == after["tbjb/journal.tbs"] == b"\xff" * fatlayout.ring_size(n)
    assert "%d group slots made" % n in first.stdout, first.stdout


def test_a_second_install_copies_nothing(installed):
    again = installed[3]
    assert again.returncode == 0 and "copied 0 files" in again.stdout, again.stdout + again.stderr
    assert "slots" not in again.stdout  # the ring there is the box's: left as it is


def test_circuitpython_loads_every_module_and_the_data_port(installed):
    out, files = installed[4], installed[5]
    m = re.search(r"PROBE (\d+) (\w+)", out)
    assert m, out
    assert int(m.group(1)) == len(modules()) and m.group(2) == "True", out
    assert {k.lower(): v for k, v in files.items()}["probe.txt"] == b"x"  # boot.py's remount: the box writes


def test_a_file_the_install_did_not_write_is_refused_in_one_line(installed, tmp_path):
    drive = str(tmp_path / "CIRCUITPY")
    mounted(installed[2], drive)
    with open(os.path.join(drive, "code.py"), "wb") as f:
        f.write(b"print('my own code')\n")
    want = snapshot(drive)
    p = scorebox("deploy", "--circuitpython", drive)
    assert p.returncode == 2 and "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "%s on the drive is not one this install wrote" % os.path.join(drive, "code.py") in p.stderr, p.stderr
    assert snapshot(drive) == want  # nothing written


@pytest.mark.parametrize("rel", ["box/app.mpy", "lib/adafruit_displayio_ssd1306.mpy", "main.py"])
def test_its_own_files_changed_since_are_never_overwritten(installed, tmp_path, rel):
    drive = str(tmp_path / "CIRCUITPY")
    mounted(installed[2], drive)
    with open(os.path.join(drive, rel), "ab") as f:
        f.write(b"changed")
    want = snapshot(drive)
    with pytest.raises(InstallError, match="%s on the drive is not one this install wrote" % re.escape(rel)):
        cpinstall.install(drive, log=lambda *a: None)
    assert snapshot(drive) == want


def test_the_makers_pins_py_is_kept(installed, tmp_path):
    drive = str(tmp_path / "CIRCUITPY")
    mounted(installed[2], drive)
    mine = installed[2]["pins.py"] + b"DISPLAY_FLIP = True\n"
    with open(os.path.join(drive, "pins.py"), "wb") as f:
        f.write(mine)
    said = []
    cpinstall.install(drive, log=said.append)
    assert "kept the drive's own pins.py" in said[-2], said
    assert snapshot(drive)["pins.py"] == mine
    cpinstall.install(drive, log=said.append)  # and again: still the maker's
    assert snapshot(drive)["pins.py"] == mine


def test_a_folder_that_is_no_circuitpy_drive(tmp_path):
    with pytest.raises(InstallError, match="is not a CIRCUITPY drive"):
        cpinstall.install(str(tmp_path), log=lambda *a: None)
    assert os.listdir(tmp_path) == []


def test_something_in_the_way_of_a_file(installed, tmp_path):
    """A folder where the install writes a file: refused in one line, nothing written."""
    drive = str(tmp_path / "CIRCUITPY")
    mounted(installed[2], drive)
    os.remove(os.path.join(drive, "box", "link.mpy"))
    os.mkdir(os.path.join(drive, "box", "link.mpy"))
    want = snapshot(drive)
    with pytest.raises(InstallError, match="box/link.mpy cannot be written"):
        cpinstall.install(drive, log=lambda *a: None)
    assert snapshot(drive) == want


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="file modes and setpriv: Linux")
def test_a_drive_the_box_holds_read_only(installed, tmp_path):
    """boot.py made the drive the box's: the PC sees it read-only (a folder of mode 555 here, as
    a user whom file modes bind: root's overriding capabilities dropped, as test_sync_port does)."""
    drive = str(tmp_path / "CIRCUITPY")
    mounted(installed[2], drive)
    os.chmod(drive, 0o555)
    wrap = ()
    if os.geteuid() == 0:
        drop = "-dac_override,-dac_read_search"
        wrap = ("setpriv", "--inh-caps=" + drop, "--bounding-set=" + drop)
    try:
        exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
        p = subprocess.run(
            [*wrap, exe, "deploy", "--circuitpython", drive], capture_output=True, text=True, timeout=600
        )
    finally:
        os.chmod(drive, 0o755)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "%s is read-only: the box holds its drive" % drive in p.stderr and "hold key 1" in p.stderr, p.stderr
