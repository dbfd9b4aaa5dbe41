"""The virtual board: the twin of the Pico binding, for the simulator and the tests.

It is a boards.base.Board (the contract the app uses, in the firmware; the simulator may
import the firmware, never the reverse), with its clock virtual (moved by the driver), the
key held down in `raw`, the battery's mV in `battery`, and the beeps counted in `beeped`
and the last BEEPS_KEPT kept in `beeps` as (ms, freq, length in ms), so that tests see what
the piezo would have played (a monkey test's thousands of refused keys stay in bounds).

The file system is the Pico's own LittleFS2 (vfs.VfsLfs2) on a RAM block device with the
Pico's geometry (vpico/blockdev.py). The panel keeps a copy of the panel RAM and tells a
listener about every frame, which is how frames are captured.
"""

import vfs

from boards.base import Board as Base
from box.display import Display
from box.keys import NONE

PROGSIZE = 256  # as rp2's _boot.py formats and mounts the Pico's flash
BEEPS_KEPT = 32
_MOUNTED = {}  # type: dict  # mount point -> block device, so a reboot finds the same flash


class Panel:
    """A 128x64 SSD1306-like panel: its RAM, its power and contrast, bytes received."""

    def __init__(self, width=128, height=64):
        self.width = width
        self.ram = bytearray(width * height // 8)
        self.on = True
        self.level = 255
        self.bytes_in = 0
        self.changed = False  # set by every write, cleared by whoever captures frames

    def write(self, page, col, data):
        a = page * self.width + col
        self.ram[a : a + len(data)] = data
        self.bytes_in += len(data)
        self.changed = True

    def contrast(self, level):
        self.level = level
        self.changed = True

    def power(self, on):
        self.on = on
        self.changed = True


class Clock:
    def __init__(self, now=0):
        self.now = now

    def ms(self):
        return self.now


def flash(root="/flash", bdev=None, path=None):
    """Mount LittleFS2 at root and return its block device: bdev if given (formatted when
    blank), else the flash kept in the file at path (vpico/fileflash.py: outside the heap),
    else a new RamBlockDev. Mounting again is a reboot: the device keeps what was written."""
    if root in _MOUNTED:
        vfs.umount(root)
        del _MOUNTED[root]
    if bdev is None:
        if path:
            from vpico.fileflash import FileBlockDev

            bdev = FileBlockDev(path)
        else:
            from vpico.blockdev import RamBlockDev

            bdev = RamBlockDev(blocks=352, block_size=4096)
    try:
        fs = vfs.VfsLfs2(bdev, progsize=PROGSIZE)
    except OSError:  # blank flash: format it, as the Pico's first boot does
        vfs.VfsLfs2.mkfs(bdev, progsize=PROGSIZE)
        fs = vfs.VfsLfs2(bdev, progsize=PROGSIZE)
    vfs.mount(fs, root)
    _MOUNTED[root] = bdev
    return bdev


def unmount(root="/flash"):
    if root in _MOUNTED:
        vfs.umount(root)
        del _MOUNTED[root]


class Board(Base):
    def __init__(self, root="/flash", layout="keypad", bdev=None, path=None, mount=True):
        if mount:
            self.bdev = flash(root, bdev, path)
        self.root = root
        self.layout = layout
        self.panel = Panel()
        self.display = Display(self.panel)
        self.clock = Clock()
        self.raw = NONE  # the key held down on the virtual keypad
        self.battery = 4500
        self.beeps = []  # (ms, freq, length in ms): the last BEEPS_KEPT beeps
        self.beeped = 0

    def ms(self):
        return self.clock.now

    def scan(self):
        return self.raw

    def battery_mv(self):
        return self.battery

    def beep(self, freq, ms):
        self.beeped += 1
        if len(self.beeps) == BEEPS_KEPT:
            del self.beeps[0]
        self.beeps.append((self.clock.now, freq, ms))
