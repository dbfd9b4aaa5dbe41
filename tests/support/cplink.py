"""The emulated CircuitPython Pico with the box's sync link and a journal on its drive: what
tests/cp/test_cp_sync.py and bench/bench_cp_sync.py share."""

import os
import sys
import tempfile

from scorebox.device import cpinstall, firmware
from scorebox.sim.cp import emu
from scorebox.sim.rp2 import emu as rp2emu
from scorebox_core.journal import group_first

# The sync link alone, on the binding's contract: a board whose sync_port() is usb_cdc.data.
LINK = b"""import microcontroller, supervisor
from boards.base import Board
from boards.cpport import data_port
from box import device
from box.journal import Journal
from box.store import Store
from box.usbport import Sync


class LinkBoard(Board):
    root = "/"

    def ms(self):
        return supervisor.ticks_ms()

    def battery_mv(self):
        return 4500

    def unique_id(self):
        return bytes(microcontroller.cpu.uid)

    def sync_port(self):
        return data_port()


class LinkApp:  # what the link asks of the app: its board, journal and store
    def __init__(self, board):
        self.board = board
        self.store = Store(board.root)
        self.journal = Journal(board.root)
        self.journal.recover()


b = LinkBoard()
clock = device.Clock()
sync = Sync(LinkApp(b), device.Info(b, clock), clock.set)
print("LINK", type(sync.port).__name__)
while True:
    if not sync.poll():
        sync.port.poller.poll(5)
"""


def journal_files(flash, tmp):
    """[(path on the box, bytes)] of every file on a virtual Pico's flash."""
    out = tempfile.mkdtemp(dir=tmp)
    rp2emu.fs_extract(flash, out)
    found = []
    for d, _, names in os.walk(out):
        for n in names:
            with open(os.path.join(d, n), "rb") as f:
                found.append((os.path.relpath(os.path.join(d, n), out).replace(os.sep, "/"), f.read()))
    return found


def on_fat(files, tmp):
    """files ([(path, bytes)], journal_files()) as the box keeps its journal on CircuitPython's
    FAT where box/journal.py does (its FAT): the newest group file in box/fat/twin.py's two
    copies, written by its own Twin (here on CPython), the rest as they are."""
    sys.path.append(firmware.firmware_dir())
    try:
        from box import journal

        if getattr(journal, "FAT", None) is None:  # not yet kept on FAT
            return files
        from box.fat.twin import Twin
        from scorebox_core.fatlayout import MIRROR
    finally:
        sys.path.remove(firmware.firmware_dir())
    groups = sorted(n for n, _ in files if group_first(n) is not None)
    if not groups:
        return files
    newest = groups[-1]
    a, b = os.path.join(tmp, "a"), os.path.join(tmp, MIRROR, "b")
    twin = Twin(a, b)
    twin.open()
    twin.write(dict(files)[newest])
    twin.close()
    with open(a, "rb") as fa, open(b, "rb") as fb:
        copies = [(newest, fa.read()), (MIRROR + "/" + newest, fb.read())]
    return [(n, d) for n, d in files if n != newest] + copies


def drive(path, flash):
    """Write to path a CIRCUITPY holding what `scorebox deploy --circuitpython` puts there, with
    LINK as its code.py, and every file of the virtual Pico's flash (its journal)."""
    files = dict(cpinstall.built(), **{"code.py": LINK})
    with tempfile.TemporaryDirectory() as tmp:
        journal = on_fat(journal_files(flash, tmp), tmp)
        with open(path, "wb") as f:
            f.write(emu.fs_image(sorted(files.items()) + journal))
