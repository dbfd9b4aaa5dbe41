"""The large font: 10x16 glyphs for the numbers that matter (needs, score, arrow count).

The built-in 8x8 font is too small to read at arm's length on a 0.96" panel; these glyphs are
16 px tall. Each glyph is a FrameBuffer made once at import, so drawing is one C blit and
allocates nothing. Glyphs come from tools/fontgen.py.
"""

import framebuf

from box.font_data import CHARS, DATA, H, W

ADVANCE = W + 2  # glyph width plus spacing

_buf = bytearray(DATA)
_GLYPHS = tuple(
    framebuf.FrameBuffer(memoryview(_buf)[i * 2 * H : (i + 1) * 2 * H], W, H, framebuf.MONO_HLSB)
    for i in range(len(CHARS))
)
# Palettes for blit: ink 1 on a transparent background, or ink 0 (drawn on a lit area).
_INK = (
    framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB),
    framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB),
)
_INK[0].pixel(0, 0, 1)  # colour 0 of the glyph -> 1 (key), colour 1 -> 0
_INK[0].pixel(1, 0, 0)
_INK[1].pixel(0, 0, 0)
_INK[1].pixel(1, 0, 1)
DASH = CHARS.find("-")
SLASH = CHARS.find("/")
COLON = CHARS.find(":")
PLUS = CHARS.find("+")
QUERY = CHARS.find("?")
LETTER_A = CHARS.find("A")


def glyph(fb, i, x, y, col=1):
    """Draw glyph number i (an index into CHARS) with its top left at x, y."""
    if col:
        fb.blit(_GLYPHS[i], x, y, 0, _INK[1])
    else:
        fb.blit(_GLYPHS[i], x, y, 1, _INK[0])


def char(fb, ch, x, y, col=1):
    i = CHARS.find(ch)
    glyph(fb, i if i >= 0 else QUERY, x, y, col)
    return x + ADVANCE


def text(fb, s, x, y, col=1):
    """Draw a short string of CHARS; returns the x after it."""
    for ch in s:
        x = char(fb, ch, x, y, col)
    return x


def digits(n):
    """How many digits n >= 0 has."""
    d = 1
    while n >= 10:
        n //= 10
        d += 1
    return d


def number(fb, n, x, y, col=1):
    """Draw the whole number n with no string made; returns the x after it."""
    if n < 0:
        glyph(fb, DASH, x, y, col)
        x += ADVANCE
        n = -n
    d = digits(n)
    p = 1
    for _ in range(d - 1):
        p *= 10
    while p:
        glyph(fb, n // p % 10, x, y, col)
        x += ADVANCE
        p //= 10
    return x
