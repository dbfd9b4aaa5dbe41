"""The golden pictures read back (tests/golden/*.png, written by scorebox.sim.png's
encode_1bit): rows of pixels, and the box's frame of them. Only the tests read PNGs."""

import struct
import zlib


def frame_from_pixels(rows):
    height, width = len(rows), len(rows[0])
    out = bytearray(width * height // 8)
    for y in range(height):
        base = (y >> 3) * width
        bit = 1 << (y & 7)
        for x in range(width):
            if rows[y][x]:
                out[base + x] |= bit
    return bytes(out)


def decode_1bit(data):
    """Rows of 0/1 from a PNG written by encode_1bit (1-bit greyscale, filter 0)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos = 8
    idat = b""
    width = height = None
    while pos < len(data):
        n = struct.unpack(">I", data[pos : pos + 4])[0]
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 1 or ctype != 0:
                raise ValueError("only 1-bit greyscale PNGs are read here")
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = (width + 7) // 8 + 1
    rows = []
    for y in range(height):
        line = raw[y * stride : (y + 1) * stride]
        if line[0] != 0:
            raise ValueError("unsupported PNG filter")
        rows.append([line[1 + x // 8] >> (7 - x % 8) & 1 for x in range(width)])
    return rows
