"""The virtual board: the twin of the Pico binding, for the simulator and the tests.

It is a boards.base.Board (the contract the app uses, in the firmware; the simulator may
import the firmware, never the reverse), with its clock virtual (moved by the driver), the
key held down in `raw`, the battery's mV in `battery`, the deep sleeps asked for counted in
`deepslept`, and the beeps counted in `beeped`
and the last BEEPS_KEPT kept in `beeps` as (ms, freq, length in ms), so that tests see what
the piezo would have played (a monkey test's thousands of refused keys stay in bounds).

The file system is the Pico's own LittleFS2 (vfs.VfsLfs2) on a RAM block device with the
Pico's geometry (vpico/blockdev.py). The panel keeps a copy of the panel RAM and tells a
listener about every frame, which is how frames are captured.

Board(display="SH1106" / "SSD1309" / "SSD1306") puts the firmware's own driver for that
panel (firmware/lib) between the app and a BusPanel: a model of the controller that decodes
the bytes the driver sends on I2C, as the emulated Pico's panel.mjs does, so that what
differs between the panels on the bus (the SH1106's 132 columns and page addressing, the
SSD1306's charge pump, the SSD1309's command lock) is run, not assumed.
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


# The commands each controller knows, with the number of argument bytes after them (the
# SSD1306, SSD1309 and SH1106 datasheets' command tables, the commands a driver of this
# box could send); single-byte commands are in _single(). Anything else is counted in
# BusPanel.unknown: a real controller would take it for something else.
_SSD = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
ARGS = {
    "SSD1306": dict(_SSD),
    "SSD1309": dict(_SSD),
    "SH1106": {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1},
}
ARGS["SSD1306"][0x8D] = 1  # charge pump: the SSD1306's own
ARGS["SSD1309"][0xFD] = 1  # command lock: the SSD1309's own
_DRIVERS = {"SH1106": ("sh1106", "SH1106"), "SSD1306": ("ssd1306", "SSD1306"), "SSD1309": ("ssd1306", "SSD1309")}


def _single(kind, c):
    if c < 0x20 or 0x40 <= c < 0x80 or 0xB0 <= c < 0xB8:  # column nibbles, start line, page
        return True
    if c in (0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3):
        return True
    if kind == "SH1106":
        return 0x30 <= c < 0x34  # pump voltage
    return c in (0x2E, 0x2F)  # scroll off, on


class BusPanel:
    """A 128x64 controller on I2C, as the driver sees it: writeto / writevto at its address.
    `ram` is what the glass shows (8 pages of 128 column bytes, as Panel's); `lit()` says
    whether it shows it at all (on, and an SSD1306's charge pump on); `unknown` counts
    command bytes this controller does not have. A locked SSD1309 (0xFD 0x16, by a program
    before the box's) takes nothing but 0xFD until unlocked."""

    def __init__(self, kind, addr=0x3C, locked=False):
        self.kind = kind
        self.addr = addr
        self.args = ARGS[kind]
        self.offset = 2 if kind == "SH1106" else 0  # the SH1106's 128 visible columns of 132
        self.ram_width = 132 if kind == "SH1106" else 128
        self.ram = bytearray(1024)
        self.on = False
        self.pump = False
        self.level = 127
        self.locked = locked
        self.unknown = 0
        self.bytes_in = 0
        self.changed = False
        self.mode = 2  # page addressing after reset
        self.col = self.page = 0
        self.cols = (0, self.ram_width - 1)
        self.pages = (0, 7)
        self._cmd = []

    def lit(self):
        return self.on and (self.pump or self.kind != "SSD1306")

    def writeto(self, addr, buf):
        self.writevto(addr, (buf,))

    def writevto(self, addr, bufs):
        if addr != self.addr:
            raise OSError(5)  # no acknowledge: EIO, as the Pico's I2C says
        ctrl = True  # the first byte of a transfer is a control byte
        for buf in bufs:
            for v in buf:
                if ctrl:
                    co, dc, ctrl = v & 0x80, v & 0x40, False
                    continue
                if dc:
                    self._data(v)
                else:
                    self._command(v)
                ctrl = bool(co)  # Co=1: one byte, then a control byte again

    def _command(self, v):
        c = self._cmd
        c.append(v)
        op = c[0]
        n = self.args.get(op, 0)
        if len(c) <= n:
            return
        self._cmd = []
        if not n and not _single(self.kind, op):
            self.unknown += 1
            return
        if self.locked and op != 0xFD:
            return
        if op == 0xFD:
            self.locked = bool(c[1] & 0x04)  # 0x16 locks, 0x12 unlocks
        elif op == 0x8D:
            self.pump = bool(c[1] & 0x04)
        elif op == 0x20:
            self.mode = c[1] & 3
        elif op == 0x21:
            self.cols = (c[1], c[2])
            self.col = c[1]
        elif op == 0x22:
            self.pages = (c[1] & 7, c[2] & 7)
            self.page = c[1] & 7
        elif op == 0x81:
            self.level = c[1]
            self.changed = True
        elif op in (0xAE, 0xAF):
            self.on = op == 0xAF
            self.changed = True
        elif 0xB0 <= op < 0xB8:
            self.page = op & 7
        elif op < 0x10:
            self.col = (self.col & 0xF0) | op
        elif op < 0x20:
            self.col = ((op & 0x0F) << 4) | (self.col & 0x0F)

    def _data(self, v):
        if self.locked:
            return
        x = self.col - self.offset
        if 0 <= x < 128:
            self.ram[self.page * 128 + x] = v
        self.bytes_in += 1
        self.changed = True
        if self.mode == 0:  # horizontal: wrap within the column range, then the page range
            if self.col >= self.cols[1]:
                self.col = self.cols[0]
                self.page = self.pages[0] if self.page >= self.pages[1] else self.page + 1
            else:
                self.col += 1
        elif self.mode == 2 and self.col < self.ram_width - 1:
            self.col += 1


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
    def __init__(self, root="/flash", layout="keypad", bdev=None, path=None, mount=True, display=None):
        if mount:
            self.bdev = flash(root, bdev, path)
        self.root = root
        self.layout = layout
        if display is None:
            self.panel = Panel()
            self.display = Display(self.panel)
        else:  # the firmware's driver for that panel, on the model of its bus
            self.panel = BusPanel(display)
            module, cls = _DRIVERS[display]
            self.display = Display(getattr(__import__(module), cls)(self.panel, self.panel.addr))
        self.clock = Clock()
        self.raw = NONE  # the key held down on the virtual keypad
        self.battery = 4500
        self.beeps = []  # (ms, freq, length in ms): the last BEEPS_KEPT beeps
        self.beeped = 0
        self.deepslept = 0  # the deep sleeps the app asked for (at EMPTY: box/app.py power_off)

    def ms(self):
        return self.clock.now

    def scan(self):
        return self.raw

    def battery_mv(self):
        return self.battery

    def deepsleep(self):
        """Counted, and returns: the app stays halted, its panel off, and a key shows its
        message again (the Pico's never returns: a key resets it, boards/pico.py)."""
        self.deepslept += 1

    def beep(self, freq, ms):
        self.beeped += 1
        if len(self.beeps) == BEEPS_KEPT:
            del self.beeps[0]
        self.beeps.append((self.clock.now, freq, ms))
