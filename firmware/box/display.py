"""The display: screens draw on one FrameBuffer; show() sends only what changed.

An SSD1306 or SH1106 128x64 keeps its picture in 8 pages of 128 bytes (each byte a column
of 8 pixels, MONO_VLSB). A full frame over 400 kHz I2C takes about 23 ms, so the buffer
keeps a copy of what the panel holds and sends, for each page that changed, only the run
of columns from its first to its last changed byte (both panels can address a column
range within a page).

The panel object (the board's) needs:
    write(page, col, data)   data: bytes for columns col.. of page 0-7 (the SH1106 driver
                             adds its column offset of 2)
    contrast(value)          0-255
    power(on)                panel on or off (its RAM is kept while off)
The buffers are allocated here once; show() makes one small memoryview per run it sends.
"""

import framebuf

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8
_CHUNK = 16


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
        # Each page also as chunks of _CHUNK columns, compared in C to find a changed run
        # quickly: only the first and last changed chunks are searched byte by byte.
        n = width // _CHUNK
        self._cur_ch = tuple(cur[i * _CHUNK : (i + 1) * _CHUNK] for i in range(self.pages * n))
        self._old_ch = tuple(old[i * _CHUNK : (i + 1) * _CHUNK] for i in range(self.pages * n))
        self._chunks = n
        self._dirty_all = True  # the panel's RAM is unknown at power-up
        self.bytes_sent = 0  # statistics for the benchmarks
        self.pages_sent = 0
        self.on = True
        self.level = 255

    def show(self):
        """Send what changed; returns the number of bytes sent."""
        sent = 0
        cur = self._cur
        old = self._old
        w = self.width
        for p in range(self.pages):
            c = cur[p]
            o = old[p]
            if self._dirty_all:
                a, b = 0, w
            elif c == o:  # compared in C: most pages are unchanged
                continue
            else:
                n = self._chunks
                cc = self._cur_ch
                oc = self._old_ch
                i = p * n
                while cc[i] == oc[i]:
                    i += 1
                a = (i - p * n) * _CHUNK
                while c[a] == o[a]:
                    a += 1
                i = p * n + n - 1
                while cc[i] == oc[i]:
                    i -= 1
                b = (i - p * n + 1) * _CHUNK
                while c[b - 1] == o[b - 1]:
                    b -= 1
            o[a:b] = c[a:b]
            self.panel.write(p, a, c[a:b])
            sent += b - a
            self.pages_sent += 1
        self._dirty_all = False
        self.bytes_sent += sent
        return sent

    def contrast(self, level):
        if level != self.level:
            self.level = level
            self.panel.contrast(level)

    def power(self, on):
        if on != self.on:
            self.on = on
            self.panel.power(on)
