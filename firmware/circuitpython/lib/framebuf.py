"""framebuf for CircuitPython, which has none: MicroPython's FrameBuffer (extmod/modframebuf.c,
v1.28.0, MIT, Copyright (c) 2016 Damien P. George) in Python, reduced to what the box draws
with (box/display.py, box/font.py, the screens): MONO_VLSB frames with fill, fill_rect, hline,
vline, rect, pixel, line, poly, ellipse, text (MicroPython's 8x8 font, font_petme128_8x8.h,
Copyright (c) 2013, 2014 Damien P. George) and blit of a 1-bit source through a palette; 1-bit
MONO_HLSB/MONO_HMSB buffers for pixel() and as blit sources. The same pixels as MicroPython's:
tests/both/test_cp_framebuf.py draws with both on the unix port and compares the bytes.

It goes to /lib on a CircuitPython box only: MicroPython's own framebuf is built in. A pixel at
a time costs some microseconds in Python, so the box's common work goes a byte at a time: a
MONO_VLSB fill_rect writes whole pages (8 rows) of a column run, text and blit OR or clear a
column's bits in the one or two pages they cover.
"""

MONO_VLSB = 0
MVLSB = 0
MONO_HLSB = 3
MONO_HMSB = 4

# 96 characters (32-127) of 8 columns, a byte a column, its top pixel in bit 0.
_FONT = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x4f\x4f\x00\x00\x00\x00\x07\x07\x00\x00\x07\x07\x00\x14\x7f\x7f\x14\x14\x7f\x7f\x14"
    b"\x00\x24\x2e\x6b\x6b\x3a\x12\x00\x00\x63\x33\x18\x0c\x66\x63\x00\x00\x32\x7f\x4d\x4d\x77\x72\x50\x00\x00\x00\x04\x06\x03\x01\x00"
    b"\x00\x00\x1c\x3e\x63\x41\x00\x00\x00\x00\x41\x63\x3e\x1c\x00\x00\x08\x2a\x3e\x1c\x1c\x3e\x2a\x08\x00\x08\x08\x3e\x3e\x08\x08\x00"
    b"\x00\x00\x80\xe0\x60\x00\x00\x00\x00\x08\x08\x08\x08\x08\x08\x00\x00\x00\x00\x60\x60\x00\x00\x00\x00\x40\x60\x30\x18\x0c\x06\x02"
    b"\x00\x3e\x7f\x49\x45\x7f\x3e\x00\x00\x40\x44\x7f\x7f\x40\x40\x00\x00\x62\x73\x51\x49\x4f\x46\x00\x00\x22\x63\x49\x49\x7f\x36\x00"
    b"\x00\x18\x18\x14\x16\x7f\x7f\x10\x00\x27\x67\x45\x45\x7d\x39\x00\x00\x3e\x7f\x49\x49\x7b\x32\x00\x00\x03\x03\x79\x7d\x07\x03\x00"
    b"\x00\x36\x7f\x49\x49\x7f\x36\x00\x00\x26\x6f\x49\x49\x7f\x3e\x00\x00\x00\x00\x24\x24\x00\x00\x00\x00\x00\x80\xe4\x64\x00\x00\x00"
    b"\x00\x08\x1c\x36\x63\x41\x41\x00\x00\x14\x14\x14\x14\x14\x14\x00\x00\x41\x41\x63\x36\x1c\x08\x00\x00\x02\x03\x51\x59\x0f\x06\x00"
    b"\x00\x3e\x7f\x41\x4d\x4f\x2e\x00\x00\x7c\x7e\x0b\x0b\x7e\x7c\x00\x00\x7f\x7f\x49\x49\x7f\x36\x00\x00\x3e\x7f\x41\x41\x63\x22\x00"
    b"\x00\x7f\x7f\x41\x63\x3e\x1c\x00\x00\x7f\x7f\x49\x49\x41\x41\x00\x00\x7f\x7f\x09\x09\x01\x01\x00\x00\x3e\x7f\x41\x49\x7b\x3a\x00"
    b"\x00\x7f\x7f\x08\x08\x7f\x7f\x00\x00\x00\x41\x7f\x7f\x41\x00\x00\x00\x20\x60\x41\x7f\x3f\x01\x00\x00\x7f\x7f\x1c\x36\x63\x41\x00"
    b"\x00\x7f\x7f\x40\x40\x40\x40\x00\x00\x7f\x7f\x06\x0c\x06\x7f\x7f\x00\x7f\x7f\x0e\x1c\x7f\x7f\x00\x00\x3e\x7f\x41\x41\x7f\x3e\x00"
    b"\x00\x7f\x7f\x09\x09\x0f\x06\x00\x00\x1e\x3f\x21\x61\x7f\x5e\x00\x00\x7f\x7f\x19\x39\x6f\x46\x00\x00\x26\x6f\x49\x49\x7b\x32\x00"
    b"\x00\x01\x01\x7f\x7f\x01\x01\x00\x00\x3f\x7f\x40\x40\x7f\x3f\x00\x00\x1f\x3f\x60\x60\x3f\x1f\x00\x00\x7f\x7f\x30\x18\x30\x7f\x7f"
    b"\x00\x63\x77\x1c\x1c\x77\x63\x00\x00\x07\x0f\x78\x78\x0f\x07\x00\x00\x61\x71\x59\x4d\x47\x43\x00\x00\x00\x7f\x7f\x41\x41\x00\x00"
    b"\x00\x02\x06\x0c\x18\x30\x60\x40\x00\x00\x41\x41\x7f\x7f\x00\x00\x00\x08\x0c\x06\x06\x0c\x08\x00\xc0\xc0\xc0\xc0\xc0\xc0\xc0\xc0"
    b"\x00\x00\x01\x03\x06\x04\x00\x00\x00\x20\x74\x54\x54\x7c\x78\x00\x00\x7f\x7f\x44\x44\x7c\x38\x00\x00\x38\x7c\x44\x44\x6c\x28\x00"
    b"\x00\x38\x7c\x44\x44\x7f\x7f\x00\x00\x38\x7c\x54\x54\x5c\x58\x00\x00\x08\x7e\x7f\x09\x03\x02\x00\x00\x98\xbc\xa4\xa4\xfc\x7c\x00"
    b"\x00\x7f\x7f\x04\x04\x7c\x78\x00\x00\x00\x00\x7d\x7d\x00\x00\x00\x00\x40\xc0\x80\x80\xfd\x7d\x00\x00\x7f\x7f\x30\x38\x6c\x44\x00"
    b"\x00\x00\x41\x7f\x7f\x40\x00\x00\x00\x7c\x7c\x18\x30\x18\x7c\x7c\x00\x7c\x7c\x04\x04\x7c\x78\x00\x00\x38\x7c\x44\x44\x7c\x38\x00"
    b"\x00\xfc\xfc\x24\x24\x3c\x18\x00\x00\x18\x3c\x24\x24\xfc\xfc\x00\x00\x7c\x7c\x04\x04\x0c\x08\x00\x00\x48\x5c\x54\x54\x74\x20\x00"
    b"\x04\x04\x3f\x7f\x44\x64\x20\x00\x00\x3c\x7c\x40\x40\x7c\x3c\x00\x00\x1c\x3c\x60\x60\x3c\x1c\x00\x00\x1c\x7c\x30\x18\x30\x7c\x1c"
    b"\x00\x44\x6c\x38\x38\x6c\x44\x00\x00\x9c\xbc\xa0\xa0\xfc\x7c\x00\x00\x44\x64\x74\x5c\x4c\x44\x00\x00\x08\x08\x3e\x77\x41\x41\x00"
    b"\x00\x00\x00\xff\xff\x00\x00\x00\x00\x41\x41\x77\x3e\x08\x08\x00\x00\x02\x03\x01\x03\x02\x03\x01\xaa\x55\xaa\x55\xaa\x55\xaa\x55"
)


def _cdiv(a, b):
    """C's integer division (towards zero), as modframebuf.c's poly fill computes."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


class FrameBuffer:
    def __init__(self, buf, width, height, format, stride=None):
        if width < 1 or height < 1 or format not in (MONO_VLSB, MONO_HLSB, MONO_HMSB):
            raise ValueError("invalid FrameBuffer")
        stride = width if stride is None else stride
        if stride < width:
            raise ValueError("stride < width")
        if format == MONO_VLSB:
            need = ((height + 7) // 8 - 1) * stride + width
        else:
            stride = (stride + 7) & ~7
            need = ((height - 1) * stride + width + 7) // 8
        if len(buf) < need:
            raise ValueError("buffer too small")
        self.buf = buf
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self._cols = None  # (bytes of buf, its columns as ints) when blitted from

    # --- pixels ---------------------------------------------------------------------------
    def _get(self, x, y):
        if self.format == MONO_VLSB:
            return self.buf[(y >> 3) * self.stride + x] >> (y & 7) & 1
        i = (x + y * self.stride) >> 3
        return self.buf[i] >> (x & 7 if self.format == MONO_HMSB else 7 - (x & 7)) & 1

    def _set(self, x, y, col):
        if self.format == MONO_VLSB:
            i = (y >> 3) * self.stride + x
            bit = 1 << (y & 7)
        else:
            i = (x + y * self.stride) >> 3
            bit = 1 << (x & 7 if self.format == MONO_HMSB else 7 - (x & 7))
        if col:
            self.buf[i] |= bit
        else:
            self.buf[i] &= ~bit & 0xFF

    def _set_checked(self, x, y, col):
        if 0 <= x < self.width and 0 <= y < self.height:
            self._set(x, y, col)

    def pixel(self, x, y, col=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            if col is None:
                return self._get(x, y)
            self._set(x, y, col)
        return None

    # --- rectangles -------------------------------------------------------------------------
    def fill(self, col):
        self.fill_rect(0, 0, self.width, self.height, col)

    def fill_rect(self, x, y, w, h, col):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        xend = min(self.width, x + w)
        yend = min(self.height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        w = xend - x
        if self.format != MONO_VLSB:
            for yy in range(y, yend):
                for xx in range(x, xend):
                    self._set(xx, yy, col)
            return
        buf = self.buf
        full = (b"\xff" * w) if col else bytes(w)
        while y < yend:
            top = y & 7
            n = min(8 - top, yend - y)
            mask = ((1 << n) - 1) << top
            i = (y >> 3) * self.stride + x
            if mask == 0xFF:
                buf[i : i + w] = full
            elif col:
                for j in range(i, i + w):
                    buf[j] |= mask
            else:
                mask ^= 0xFF
                for j in range(i, i + w):
                    buf[j] &= mask
            y += n

    def hline(self, x, y, w, col):
        self.fill_rect(x, y, w, 1, col)

    def vline(self, x, y, h, col):
        self.fill_rect(x, y, 1, h, col)

    def rect(self, x, y, w, h, col, fill=False):
        if fill:
            self.fill_rect(x, y, w, h, col)
        else:
            self.fill_rect(x, y, w, 1, col)
            self.fill_rect(x, y + h - 1, w, 1, col)
            self.fill_rect(x, y, 1, h, col)
            self.fill_rect(x + w - 1, y, 1, h, col)

    # --- columns of bits (MONO_VLSB) ---------------------------------------------------------
    def _column(self, x, y, bits, col):
        """Set the pixels of column x from row y down where the int bits has a 1 (bit 0 at
        row y) to col, clipped to the buffer (x is inside it)."""
        if y < 0:
            bits >>= -y
            y = 0
        buf = self.buf
        p = y >> 3
        bits <<= y & 7
        i = p * self.stride + x
        last = (self.height - 1) >> 3
        while bits and p <= last:
            b = bits & 0xFF
            if p == last and self.height & 7:
                b &= (1 << (self.height & 7)) - 1
            if b:
                if col:
                    buf[i] |= b
                else:
                    buf[i] &= b ^ 0xFF
            bits >>= 8
            p += 1
            i += self.stride

    def text(self, s, x0, y0, col=1):
        vlsb = self.format == MONO_VLSB
        for c in s.encode():  # a byte at a time, as MicroPython reads the string's UTF-8
            if c < 32 or c > 127:
                c = 127
            k = (c - 32) * 8
            for j in range(8):
                if 0 <= x0 < self.width:
                    v = _FONT[k + j]
                    if vlsb:
                        if v and y0 < self.height:
                            self._column(x0, y0, v, col)
                    else:
                        y = y0
                        while v:
                            if v & 1:
                                self._set_checked(x0, y, col)
                            v >>= 1
                            y += 1
                x0 += 1

    def _columns(self):
        """This buffer's columns as ints (bit r: the pixel in row r), kept while its bytes are
        the same (the box's glyphs never change: each is worked out once)."""
        now = bytes(self.buf)
        if self._cols is None or self._cols[0] != now:
            cols = []
            for x in range(self.width):
                v = 0
                for y in range(self.height):
                    if self._get(x, y):
                        v |= 1 << y
                cols.append(v)
            self._cols = (now, cols)
        return self._cols[1]

    def blit(self, fbuf, x, y, key=-1, palette=None):
        if x >= self.width or y >= self.height or -x >= fbuf.width or -y >= fbuf.height:
            return
        c0 = palette._get(0, 0) if palette is not None else 0
        c1 = palette._get(1, 0) if palette is not None else 1
        x0 = max(0, x)
        x0end = min(self.width, x + fbuf.width)
        if self.format != MONO_VLSB:
            y0 = max(0, y)
            y0end = min(self.height, y + fbuf.height)
            for yy in range(y0, y0end):
                for xx in range(x0, x0end):
                    c = c1 if fbuf._get(xx - x, yy - y) else c0
                    if c != key:
                        self._set(xx, yy, c)
            return
        cols = fbuf._columns()
        allbits = (1 << fbuf.height) - 1
        for xx in range(x0, x0end):
            v = cols[xx - x]
            if c1 != key:
                self._column(xx, y, v, c1)
            if c0 != key:
                self._column(xx, y, v ^ allbits, c0)

    # --- lines and shapes (modframebuf.c's algorithms, step for step) -----------------------
    def line(self, x1, y1, x2, y2, col):
        dx = x2 - x1
        sx = 1 if dx > 0 else -1
        dx = abs(dx)
        dy = y2 - y1
        sy = 1 if dy > 0 else -1
        dy = abs(dy)
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                self._set_checked(y1, x1, col)
            else:
                self._set_checked(x1, y1, col)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        self._set_checked(x2, y2, col)

    def _quadrants(self, cx, cy, x, y, col, mask):
        if mask & 0x10:
            if mask & 1:
                self.fill_rect(cx, cy - y, x + 1, 1, col)
            if mask & 2:
                self.fill_rect(cx - x, cy - y, x + 1, 1, col)
            if mask & 4:
                self.fill_rect(cx - x, cy + y, x + 1, 1, col)
            if mask & 8:
                self.fill_rect(cx, cy + y, x + 1, 1, col)
        else:
            if mask & 1:
                self._set_checked(cx + x, cy - y, col)
            if mask & 2:
                self._set_checked(cx - x, cy - y, col)
            if mask & 4:
                self._set_checked(cx - x, cy + y, col)
            if mask & 8:
                self._set_checked(cx + x, cy + y, col)

    def ellipse(self, cx, cy, xr, yr, col, fill=False, m=0x0F):
        mask = (0x10 if fill else 0) | (m & 0x0F)
        if xr == 0 and yr == 0:
            if mask & 0x0F:
                self._set_checked(cx, cy, col)
            return
        two_a = 2 * xr * xr
        two_b = 2 * yr * yr
        x = xr
        y = 0
        xchange = yr * yr * (1 - 2 * xr)
        ychange = xr * xr
        err = 0
        stopx = two_b * xr
        stopy = 0
        while stopx >= stopy:
            self._quadrants(cx, cy, x, y, col, mask)
            y += 1
            stopy += two_a
            err += ychange
            ychange += two_a
            if 2 * err + xchange > 0:
                x -= 1
                stopx -= two_b
                err += xchange
                xchange += two_b
        x = 0
        y = yr
        xchange = yr * yr
        ychange = xr * xr * (1 - 2 * yr)
        err = 0
        stopx = 0
        stopy = two_a * yr
        while stopx <= stopy:
            self._quadrants(cx, cy, x, y, col, mask)
            x += 1
            stopx += two_b
            err += xchange
            xchange += two_b
            if 2 * err + ychange > 0:
                y -= 1
                stopy -= two_a
                err += ychange
                ychange += two_a

    def poly(self, x, y, coords, col, fill=False):
        n = len(coords) // 2
        if n == 0:
            return
        if not fill:
            px1 = coords[0]
            py1 = coords[1]
            i = n * 2 - 1
            while i >= 0:
                py2 = coords[i]
                px2 = coords[i - 1]
                i -= 2
                self.line(x + px1, y + py1, x + px2, y + py2, col)
                px1 = px2
                py1 = py2
            return
        ys = [coords[2 * i + 1] for i in range(n)]
        for row in range(min(ys), max(ys) + 1):
            nodes = []
            px1 = coords[0]
            py1 = coords[1]
            i = n * 2 - 1
            while i >= 0:
                py2 = coords[i]
                px2 = coords[i - 1]
                i -= 2
                if py1 != py2 and ((py1 > row >= py2) or (py1 <= row < py2)):
                    nodes.append(_cdiv(32 * px1 + _cdiv(32 * (px2 - px1) * (row - py1), py2 - py1) + 16, 32))
                elif row == max(py1, py2):
                    if py1 < py2:
                        self._set_checked(x + px2, y + py2, col)
                    elif py2 < py1:
                        self._set_checked(x + px1, y + py1, col)
                    else:
                        self.line(x + px1, y + py1, x + px2, y + py2, col)
                px1 = px2
                py1 = py2
            nodes.sort()
            for i in range(0, len(nodes) - 1, 2):
                self.fill_rect(x + nodes[i], y + row, nodes[i + 1] - nodes[i] + 1, 1, col)
