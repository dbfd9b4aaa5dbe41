"""`scorebox sync` of 200 matches from the emulated CircuitPython Pico over its second USB
serial port, usb_cdc.data (the real CLI, a real SQLite file), into a store identical to the
same sync from the virtual Pico (MicroPython). The drive holds what `scorebox deploy
--circuitpython` puts there (the firmware as CircuitPython .mpy files, its boot.py enabling
usb_cdc.data) and the journal the box's own writer made (tests/support/boxfill.py), as
tests/rp2/test_rp2_sync.py prepares the MicroPython Pico's. Its code.py runs the box's sync
link alone (box/usbport.py's Sync on boards/cpport.py's port) with the journal and the
store: the CircuitPython board binding's app is tests/cp/test_cp_app.py's."""

import os
import subprocess
import sys

import pytest
from boxfill import fill
from cplink import drive

from scorebox.sim.cp import emu
from scorebox.sim.vpico import VirtualPico

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rp2"))
from rp2help import store_rows, wait_hello  # noqa: E402  (tests/rp2's: the same sync, the same rows)

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
def synced(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cpsync")
    flash, matches = fill(tmp, COUNT)
    cp_flash = str(tmp / "cp.flash")
    drive(cp_flash, flash)
    vp = VirtualPico(flash)
    try:
        wait_hello(vp.port)
        _sync(vp.port, str(tmp / "vpico.sqlite"))
    finally:
        vp.close()
    pico = emu.EmulatedCircuitPython(cp_flash)
    try:
        pico.wait_usb()
        hello = wait_hello(pico.data_port)
        out = _sync(pico.data_port, str(tmp / "cp.sqlite"))
        again = scorebox("sync", "--port", pico.data_port, "--db", str(tmp / "cp.sqlite"))
        doctor = scorebox("doctor", "--port", pico.data_port)
        pico.write(b"\r")  # nothing printed after LINK: the console kept for the REPL
        console = emu.console_text(pico.read_until(b"LINK", timeout=5))
    finally:
        pico.close()
    return hello, out, again, store_rows(str(tmp / "vpico.sqlite")), store_rows(str(tmp / "cp.sqlite")), doctor, console


def test_the_store_is_identical_to_the_virtual_picos(synced):
    _, _, again, want, got = synced[:5]
    assert len(got["matches"]) == COUNT
    assert got == want
    assert again.returncode == 0 and "0 new matches stored" in again.stdout, again.stdout + again.stderr


def test_the_box_answers_on_usb_cdc_data(synced):
    hello, console = synced[0], synced[6]
    assert hello.get("device", "").split("-")[0] not in ("", "v"), hello  # microcontroller.cpu.uid
    assert "LINK DataPort" in console, console  # boards/cpport.py's port, not the console's


def test_doctor_reads_the_box_on_its_data_port(synced):
    doctor = synced[5]
    said = doctor.stdout + doctor.stderr
    assert "box " in said and "matches waiting for a sync: 0" in said, said
    assert "(deployed on CircuitPython 10.2.1)" in said, said  # HELLO's runtime
