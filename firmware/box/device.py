"""Who the box is, for the PC: its id, firmware version, battery and clock."""

import binascii
import os
import sys
import time

from box.store import write_atomic
from scorebox_core import VERSION


def _frozen():
    """True when the box runs frozen into the firmware image (`make uf2`): a frozen module's
    __file__ is its path inside the image, no file on the file system. A deployed box runs
    .mpy files (and a .py there would shadow the frozen module: files come first on sys.path)."""
    try:
        os.stat(__file__)
        return False
    except OSError:
        return True


# What HELLO reports: "1.0.0" deployed (or run from source), "1.0.0+frozen" from the image.
FIRMWARE = VERSION + "+frozen" if _frozen() else VERSION


def image_version():
    """The version of scorebox frozen into the firmware image, or None: imported from the image
    alone, so that `scorebox doctor` sees deployed files shadowing it."""
    path, had = sys.path[:], sys.modules.pop("scorebox_core", None)
    sys.path[:] = [".frozen"]
    try:
        import scorebox_core

        return scorebox_core.VERSION
    except ImportError:
        return None
    finally:
        sys.path[:] = path
        sys.modules.pop("scorebox_core", None)
        if had:
            sys.modules["scorebox_core"] = had


ID_FILE = "device.id"


def device_id(board):
    """The box's id for the PC: the chip's unique id where the board has one (the Pico:
    machine.unique_id()), else "v" (the virtual Pico), then a random part made when the
    file system is new. Match numbers start again at 1 on a wiped file system, so the
    random part keeps the PC from taking a new match 1 for one it already holds. Kept in
    ID_FILE, where the PC's rescue path finds it too."""
    path = board.root + "/" + ID_FILE
    raw = board.unique_id()
    chip = binascii.hexlify(raw).decode() if raw else "v"
    try:
        with open(path) as f:
            kept = f.read().strip()
    except OSError:
        kept = ""
    if kept.startswith(chip + "-"):
        return kept
    uid = chip + "-" + binascii.hexlify(os.urandom(4)).decode()
    write_atomic(path, uid + "\n")
    return uid


class Clock:
    """Wall-clock seconds since 1970, once the PC has set it (the box has no RTC battery:
    until then it does not know the date and says so with None)."""

    def __init__(self, board=None):
        self.board = board  # its set_clock sets the chip's own (boards/base.py)
        self.offset = None

    def set(self, epoch):
        if self.board is not None:
            self.board.set_clock(epoch)
        self.offset = epoch - time.time()

    def now(self):
        return None if self.offset is None else int(time.time() + self.offset)


class Info:
    def __init__(self, board, clock):
        self.board = board
        self.clock = clock
        self.uid = device_id(board)
        self.image = image_version() if sys.implementation.name == "micropython" else None
        self.micropython = ".".join(str(v) for v in sys.implementation.version[:3])

    def __call__(self):
        return {
            "device": self.uid,
            "firmware": FIRMWARE,
            "micropython": self.micropython,  # its version, on CircuitPython too (runtime says which)
            "runtime": sys.implementation.name,
            "image": self.image,
            "battery_mv": self.board.battery_mv(),
            "clock": self.clock.now(),
        }
