"""A small PNG writer for the box's 1-bit frames (zlib + struct, no Pillow).

Frames are the panel's RAM: 128x64 pixels, MONO_VLSB (8 pages of 128 bytes, each byte a
column of 8 pixels, bit 0 on top), as the SSD1306 and SH1106 hold them.
"""

import struct
import zlib

# The look of an OLED for the docs: lit pixels in a pale blue on near black.
OLED = ((8, 10, 16), (140, 220, 255))
PLAIN = ((0, 0, 0), (255, 255, 255))


def pixels(frame, width=128, height=64):
    """Rows of 0/1 from a MONO_VLSB frame."""
    rows = []
    for y in range(height):
        base = (y >> 3) * width
        bit = 1 << (y & 7)
        rows.append([1 if frame[base + x] & bit else 0 for x in range(width)])
    return rows


def _chunk(kind, data):
    c = struct.pack(">I", len(data)) + kind + data
    return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_1bit(rows):
    """A 1-bit greyscale PNG (the golden screenshots: small and exact)."""
    height, width = len(rows), len(rows[0])
    raw = bytearray()
    for row in rows:
        raw.append(0)
        for x in range(0, width, 8):
            b = 0
            for i in range(8):
                b = b << 1 | (row[x + i] if x + i < width else 0)
            raw.append(b)
    head = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", head)
        + _chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + _chunk(b"IEND", b"")
    )


def encode_rgb(rows, scale=4, colours=OLED, gap=True):
    """An RGB PNG, each pixel scale x scale, with a thin dark gap between pixels as on a panel."""
    height, width = len(rows), len(rows[0])
    off, on = colours
    raw = bytearray()
    for y in range(height * scale):
        row = rows[y // scale]
        raw.append(0)
        edge_y = gap and scale >= 3 and y % scale == scale - 1
        for x in range(width * scale):
            lit = row[x // scale] and not (edge_y or (gap and scale >= 3 and x % scale == scale - 1))
            raw.extend(on if lit else off)
    head = struct.pack(">IIBBBBB", width * scale, height * scale, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", head)
        + _chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + _chunk(b"IEND", b"")
    )
