"""firmware/circuitpython/lib/framebuf.py (CircuitPython's framebuf, which it lacks) against
MicroPython's own framebuf on the unix port (run by tests/both/test_cp_framebuf.py): the same
random drawing calls on both, the buffers compared byte for byte after each: every method the
box draws with, clipped at every edge, on the box's 128x64 MONO_VLSB and on a 61-row one
(a last page cut short), blits of the box's 10x16 MONO_HLSB glyphs through its palettes.
Prints `ok NAME` per check and ends with ALL OK (tests/mpy/verdict.py)."""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import random
from array import array

import framebuf as real
from verdict import done, want

_ns = {}
with open(path_setup._ROOT + "/firmware/circuitpython/lib/framebuf.py") as _f:
    exec(_f.read(), _ns)  # its own name is the built-in's: loaded from the file
FrameBuffer = _ns["FrameBuffer"]

W = 10  # the box's large glyphs (box/font_data.py): 10x16, 2 bytes a row
H = 16


def glyphs(rnd):
    """A 10x16 MONO_HLSB glyph of random bits, and both palettes of box/font.py, as (real, ours)."""
    g = bytearray(rnd.getrandbits(8) for _ in range(2 * H))
    out = []
    for cls in (real.FrameBuffer, FrameBuffer):
        gl = cls(bytearray(g), W, H, real.MONO_HLSB)
        ink = []
        for a, b in ((1, 0), (0, 1)):
            p = cls(bytearray(1), 2, 1, real.MONO_HLSB)
            p.pixel(0, 0, a)
            p.pixel(1, 0, b)
            ink.append(p)
        out.append((gl, ink))
    return out


TEXTS = ("no matches yet", "A=X hit", "5:3", "#=off", "~12%", "caf\u00e9", "\x01\x7f", "")


def op(rnd, w, h):
    """One drawing call: (method name, args) for either FrameBuffer."""
    k = rnd.randrange(11)
    x = rnd.randrange(-12, w + 4)
    y = rnd.randrange(-12, h + 4)
    c = rnd.randrange(2)
    if k == 0:
        return "fill", (c,)
    if k == 1:
        return "fill_rect", (x, y, rnd.randrange(-2, w), rnd.randrange(-2, h), c)
    if k == 2:
        return "hline", (x, y, rnd.randrange(-2, w + 8), c)
    if k == 3:
        return "vline", (x, y, rnd.randrange(-2, h + 8), c)
    if k == 4:
        return "rect", (x, y, rnd.randrange(0, 40), rnd.randrange(0, 40), c) + ((True,) if rnd.randrange(2) else ())
    if k == 5:
        return "pixel", (x, y, c)
    if k == 6:
        return "line", (x, y, rnd.randrange(-12, w + 4), rnd.randrange(-12, h + 4), c)
    if k == 7:
        n = rnd.randrange(1, 7)
        pts = array("h", [rnd.randrange(-20, 40) for _ in range(2 * n)])
        return "poly", (x, y, pts, c) + ((True,) if rnd.randrange(2) else ())
    if k == 8:
        args = (x, y, rnd.randrange(0, 20), rnd.randrange(0, 20), c)
        if rnd.randrange(2):
            args += (bool(rnd.randrange(2)), rnd.randrange(16))
        return "ellipse", args
    if k == 9:
        return "text", (TEXTS[rnd.randrange(len(TEXTS))], x, y, c)
    return "blit", (x, y)


def run(name, w, h, seed, n):
    random.seed(seed)
    rnd = random
    rows = (h + 7) // 8
    a = bytearray(w * rows)
    b = bytearray(w * rows)
    fa = real.FrameBuffer(a, w, h, real.MONO_VLSB)
    fb = FrameBuffer(b, w, h, _ns["MONO_VLSB"])
    bad = None
    for i in range(n):
        meth, args = op(rnd, w, h)
        if meth == "blit":
            (ga, inka), (gb, inkb) = glyphs(rnd)
            choice = rnd.randrange(4)
            if choice == 0:
                fa.blit(ga, args[0], args[1])
                fb.blit(gb, args[0], args[1])
            elif choice == 3:
                fa.blit(ga, args[0], args[1], 0)
                fb.blit(gb, args[0], args[1], 0)
            else:  # as box/font.py: ink 1 on a transparent background, or ink 0
                key, pal = (0, 1) if choice == 1 else (1, 0)
                fa.blit(ga, args[0], args[1], key, inka[pal])
                fb.blit(gb, args[0], args[1], key, inkb[pal])
        else:
            ra = getattr(fa, meth)(*args)
            rb = getattr(fb, meth)(*args)
            if meth == "pixel" and not want(ra == rb, "%s: pixel returned %r, not %r" % (name, rb, ra)):
                break
            if meth == "pixel":
                g = (args[0], args[1])
                if not want(fa.pixel(*g) == fb.pixel(*g), "%s: pixel(%r) differs" % (name, g)):
                    break
        if a != b:
            bad = (i, meth, args, sum(1 for j in range(len(a)) if a[j] != b[j]))
            break
    if want(bad is None, "%s: call %r differs (%r bytes)" % (name, bad, bad and bad[3])):
        print("ok", name)


run("box_128x64", 128, 64, 25, 3000)
run("short_page_61_rows", 61, 61, 7, 1500)
done()
