"""The sync of 1,000 matches from the emulated CircuitPython Pico (docs/circuitpython.md):
`scorebox sync` over its data port, usb_cdc.data, into a new store; the drive as
tests/cp/test_cp_sync.py makes it (the install's files, the box's sync link as code.py, the
journal the box's own writer filled). Figures as bench_rp2.py's rp2_sync_*_seconds_1000:
cp_sync_seconds_1000, the emulated Pico's seconds from the PC's first byte to the box's last
(its cycles between them); _command, its seconds for the whole command; _wall, wall seconds."""

import os
import pathlib
import subprocess
import sys
import tempfile
import time

from boxfill import fill
from cplink import drive

from scorebox.sim.cp import emu
from scorebox.sim.rp2.emu import HZ

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "rp2"))
from rp2help import wait_hello  # noqa: E402

COUNT = 1000


def sync(tmp, count=COUNT):
    flash, _ = fill(pathlib.Path(tmp), count)
    cp_flash = os.path.join(tmp, "cp.flash")
    drive(cp_flash, flash)
    pico = emu.EmulatedCircuitPython(cp_flash)
    try:
        pico.wait_usb()
        wait_hello(pico.data_port)
        exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
        argv = [exe, "sync", "--port", pico.data_port, "--db", os.path.join(tmp, "club.sqlite")]
        c0, t0 = pico.stats()["cycles"], time.monotonic()  # stats(): the first byte in counts from here
        p = subprocess.run(argv, capture_output=True, text=True, timeout=3600)
        t1 = time.monotonic()
        got = pico.stats()
    finally:
        pico.close()
    if p.returncode or "%d new matches stored" % count not in p.stdout:
        raise RuntimeError(p.stdout + p.stderr)
    return {
        "cp_sync_seconds_1000": round((got["data_last_out"] - got["data_first_in"]) / HZ, 2),
        "cp_sync_command_seconds_1000": round((got["cycles"] - c0) / HZ, 2),
        "cp_sync_wall_seconds_1000": round(t1 - t0, 2),
    }


def run():
    try:
        emu.images()
    except emu.Missing as e:
        print("# cp_sync: skipped: %s" % e, file=sys.stderr)
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        return sync(tmp)
