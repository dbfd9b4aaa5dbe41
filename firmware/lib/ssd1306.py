# SSD1306 128x64 OLED panel on I2C (the 0.96" modules), and the SSD1309 (the 2.42" ones),
# for Scorebox (box/display.py draws; this only sends). Part of Scorebox, MIT licence (see
# the LICENSE note in MANIFEST.json). Written from the Solomon Systech SSD1306 datasheet
# (rev 1.1, section 10: command table; application note: power-on sequence); the SSD1309's
# power-on values are those Linux's ssd130x driver gives it. Deployed to the box's /lib by
# `scorebox deploy`, pinned by SHA-256.
from micropython import const

_ADDR_COLS = const(0x21)
_ADDR_PAGES = const(0x22)
_CONTRAST = const(0x81)
_OFF = const(0xAE)
_ON = const(0xAF)

# Power-on sequence for an internal charge pump, 128x64, horizontal addressing.
_INIT = (
    (0xAE,),  # display off while configuring
    (0xD5, 0x80),  # clock divide / oscillator
    (0xA8, 63),  # multiplex ratio: 64 rows
    (0xD3, 0x00),  # display offset 0
    (0x40,),  # start line 0
    (0x8D, 0x14),  # charge pump on
    (0x20, 0x00),  # horizontal addressing: a column run wraps within the page range set
    (0xDA, 0x12),  # COM pins: alternative, no remap (128x64)
    (0xD9, 0xF1),  # pre-charge periods for the internal pump
    (0xDB, 0x30),  # VCOMH deselect level
    (0xA4,),  # output follows RAM
    (0xA6,),  # not inverted
)

# The SSD1309 takes the same addressing, remap and data bytes; only its power-on sequence
# differs: it has no charge pump (the 2.42" modules make the panel voltage on the board;
# Linux sends 0x8D to an SSD1306 only), it takes commands only while unlocked (0xFD 0x12:
# sent first, in case a program before the box locked it with 0xFD 0x16), and its clock,
# pre-charge and VCOMH values are its own (Linux's ssd130x: clock 0xA0, pre-charge 2 and 2
# clocks, VCOMH 0x34, about 0.78 x VCC).
_INIT_SSD1309 = (
    (0xFD, 0x12),  # command lock off
    (0xAE,),  # display off while configuring
    (0xD5, 0xA0),  # clock divide 1, oscillator frequency 10 of 15
    (0xA8, 63),  # multiplex ratio: 64 rows
    (0xD3, 0x00),  # display offset 0
    (0x40,),  # start line 0
    (0x20, 0x00),  # horizontal addressing, as on the SSD1306
    (0xDA, 0x12),  # COM pins: alternative, no remap (128x64)
    (0xD9, 0x22),  # pre-charge periods: 2 and 2 clocks
    (0xDB, 0x34),  # VCOMH deselect level: about 0.78 x VCC
    (0xA4,),  # output follows RAM
    (0xA6,),  # not inverted
)


class SSD1306:
    """The panel box.display.Display writes to: write(page, col, data), contrast, power."""

    INIT = _INIT  # type: tuple  # the power-on sequence; SSD1309 has its own

    def __init__(self, i2c, addr=0x3C, flip=False, width=128, height=64):
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.pages = height // 8
        self._cmd = bytearray(2)  # Co=1 D/C#=0: one command byte follows
        self._cmd[0] = 0x80
        self._addr = bytearray(7)  # Co=0 D/C#=0: a run of command bytes
        self._data = [b"\x40", b""]  # D/C#=1: display RAM bytes follow
        for seq in self.INIT:
            for c in seq:
                self.cmd(c)
        self.cmd(0xA0 if flip else 0xA1)  # segment remap
        self.cmd(0xC0 if flip else 0xC8)  # COM scan direction
        zero = bytes(width)
        for p in range(self.pages):  # its RAM is random at power-up
            self.write(p, 0, zero)
        self.contrast(255)
        self.power(True)

    def cmd(self, c):
        self._cmd[1] = c
        self.i2c.writeto(self.addr, self._cmd)

    def write(self, page, col, data):
        a = self._addr
        a[1] = _ADDR_COLS
        a[2] = col
        a[3] = col + len(data) - 1
        a[4] = _ADDR_PAGES
        a[5] = page
        a[6] = page
        self.i2c.writeto(self.addr, a)
        self._data[1] = data
        self.i2c.writevto(self.addr, self._data)

    def contrast(self, level):
        self.cmd(_CONTRAST)
        self.cmd(level)

    def power(self, on):
        self.cmd(_ON if on else _OFF)


class SSD1309(SSD1306):
    """The 2.42" panel: the SSD1306's bytes after its own power-on sequence."""

    INIT = _INIT_SSD1309
