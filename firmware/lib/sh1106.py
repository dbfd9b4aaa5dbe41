# SH1106 128x64 OLED panel on I2C (the 1.3" modules), for Scorebox (box/display.py draws;
# this only sends). Part of Scorebox, MIT licence (see the LICENSE note in MANIFEST.json).
# Written from the Sino Wealth SH1106 datasheet (V2.3: command table, page addressing).
# Deployed to the box's /lib by `scorebox deploy`, pinned by SHA-256.
from micropython import const

_CONTRAST = const(0x81)
_OFF = const(0xAE)
_ON = const(0xAF)
_OFFSET = const(2)  # the SH1106 has 132 columns; 128x64 modules show columns 2-129

_INIT = (
    (0xAE,),  # display off while configuring
    (0xD5, 0x80),  # clock divide / oscillator
    (0xA8, 63),  # multiplex ratio: 64 rows
    (0xD3, 0x00),  # display offset 0
    (0x40,),  # start line 0
    (0xAD, 0x8B),  # DC-DC converter on
    (0xDA, 0x12),  # COM pads: alternative
    (0xD9, 0x22),  # pre-charge / discharge periods (datasheet default)
    (0xDB, 0x35),  # VCOM deselect level
    (0xA4,),  # output follows RAM
    (0xA6,),  # not inverted
)


class SH1106:
    """The panel box.display.Display writes to: write(page, col, data), contrast, power.
    The SH1106 has page addressing only: each run sets its page and start column."""

    def __init__(self, i2c, addr=0x3C, flip=False, width=128, height=64):
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.pages = height // 8
        self._cmd = bytearray(2)  # Co=1 D/C#=0: one command byte follows
        self._cmd[0] = 0x80
        self._addr = bytearray(4)  # Co=0 D/C#=0: page, column low, column high
        self._data = [b"\x40", b""]  # D/C#=1: display RAM bytes follow
        for seq in _INIT:
            for c in seq:
                self.cmd(c)
        self.cmd(0xA0 if flip else 0xA1)  # segment remap
        self.cmd(0xC0 if flip else 0xC8)  # COM scan direction
        zero = bytes(132)
        for p in range(self.pages):  # its RAM is random at power-up: clear all 132 columns
            self._run(p, 0, zero)
        self.contrast(255)
        self.power(True)

    def cmd(self, c):
        self._cmd[1] = c
        self.i2c.writeto(self.addr, self._cmd)

    def _run(self, page, col, data):
        a = self._addr
        a[1] = 0xB0 | page
        a[2] = col & 0x0F
        a[3] = 0x10 | (col >> 4)
        self.i2c.writeto(self.addr, a)
        self._data[1] = data
        self.i2c.writevto(self.addr, self._data)

    def write(self, page, col, data):
        self._run(page, col + _OFFSET, data)

    def contrast(self, level):
        self.cmd(_CONTRAST)
        self.cmd(level)

    def power(self, on):
        self.cmd(_ON if on else _OFF)
