"""The display: screens draw on one FrameBuffer; show() sends only the pages that changed.

An SSD1306 or SH1106 128x64 keeps its picture in 8 pages of 128 bytes (each byte a column
of 8 pixels, MONO_VLSB). A full frame over 400 kHz I2C takes about 23 ms, so the buffer
keeps a copy of what the panel holds and sends only the dirty pages.

The panel object (the board's) needs:
    write_page(page, data)   data: 128 bytes for page 0-7 (the SH1106 driver adds its offset)
    contrast(value)          0-255
    power(on)                panel on or off (its RAM is kept while off)
Everything is allocated here once; show() allocates nothing.
"""

import framebuf

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8


class Display:
    def __init__(self, panel, width=WIDTH, height=HEIGHT):
        self.panel = panel
        self.width = width
        self.height = height
        self.pages = height // 8
        self.buf = bytearray(width * self.pages)
        self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
        self._sent = bytearray(len(self.buf))
        cur = memoryview(self.buf)
        old = memoryview(self._sent)
        self._cur = tuple(cur[p * width : (p + 1) * width] for p in range(self.pages))
        self._old = tuple(old[p * width : (p + 1) * width] for p in range(self.pages))
        self._dirty_all = True  # the panel's RAM is unknown at power-up
        self.bytes_sent = 0  # statistics for the benchmarks
        self.pages_sent = 0
        self.on = True
        self.level = 255

    def invalidate(self):
        """Send every page next time (after the panel lost its RAM)."""
        self._dirty_all = True

    def show(self):
        """Send the changed pages; returns how many were sent."""
        n = 0
        cur = self._cur
        old = self._old
        for p in range(self.pages):
            if self._dirty_all or cur[p] != old[p]:
                old[p][:] = cur[p]
                self.panel.write_page(p, cur[p])
                n += 1
        self._dirty_all = False
        self.pages_sent += n
        self.bytes_sent += n * self.width
        return n

    def contrast(self, level):
        if level != self.level:
            self.level = level
            self.panel.contrast(level)

    def power(self, on):
        if on != self.on:
            self.on = on
            self.panel.power(on)
