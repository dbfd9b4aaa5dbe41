"""The sync of 1,000 matches from the emulated CircuitPython Pico (docs/circuitpython.md):
`scorebox sync` over its data port, usb_cdc.data, into a new store; the drive as
tests/cp/test_cp_sync.py makes it (the install's files, the box's sync link as code.py, the
journal the box's own writer filled). Figures as bench_rp2.py's rp2_sync_*_seconds_1000:
cp_sync_seconds_1000, the emulated Pico's seconds from the PC's first byte to the box's last
(its cycles between them); _command, its seconds for the whole command; _wall, wall seconds."""

import os
import pathlib
import tempfile

import emulated_pico
from boxfill import fill
from cplink import drive

from scorebox.sim.cp import emu

COUNT = 1000


def sync(tmp, count=COUNT):
    flash, _ = fill(pathlib.Path(tmp), count)
    cp_flash = os.path.join(tmp, "cp.flash")
    drive(cp_flash, flash)
    pico = emu.EmulatedCircuitPython(cp_flash)
    try:
        pico.wait_usb()
        from rp2help import wait_hello

        wait_hello(pico.data_port)
        db = os.path.join(tmp, "club.sqlite")
        figures = emulated_pico.sync_figures(pico, pico.data_port, db, count, wire="data")
    finally:
        pico.close()
    return {"cp_sync%s_seconds_1000" % k: v for k, v in figures.items()}


def run():
    if emulated_pico.skipped(emu, "cp_sync"):
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        return sync(tmp)
