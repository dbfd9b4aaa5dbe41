"""Pictures of the two key layouts for docs/keys.md, drawn by MicroPython's framebuf.

    python tools/keypics.py docs     writes docs/keys-keypad.png and docs/keys-buttons.png

The drawing runs on the `micropython` command (the same 8x8 font and 16 px digits as the
box's screen); this module turns the frame into a PNG.
"""

import os
import subprocess
import sys

from scorebox.device.firmware import firmware_dir
from scorebox.sim import png
from scorebox.sim.run import micropython

W = 304
H = 216

# The 4x4 keypad: cap, line 1, line 2 (what the key does on the play screen / in menus).
KEYPAD = (
    (("1", "square", ""), ("2", "square", "menu up"), ("3", "square", ""), ("A", "value 3", "X hit")),
    (("4", "square", "left"), ("5", "square", ""), ("6", "square", "right"), ("B", "value 2", "")),
    (("7", "square", ""), ("8", "square", "menu dn"), ("9", "square", ""), ("C", "value 1", "")),
    (("*", "undo", "hold:home"), ("0", "miss", ""), ("#", "call X", "ok"), ("D", "value 0", "X missed")),
)

BUTTONS = (
    # x, y, cap, line 1, line 2
    (110, 40, "up", "frame up", "menu up"),
    (110, 136, "down", "frame dn", "menu dn"),
    (22, 88, "left", "frame <", "value <"),
    (198, 88, "right", "frame >", "value >"),
    (110, 88, "OK", "value...", "commit"),
    (198, 160, "back", "undo", "hold:home"),
)

PROGRAM = r"""
import framebuf, sys, binascii
from box import font
W, H = %d, %d
buf = bytearray(W * H // 8)
fb = framebuf.FrameBuffer(buf, W, H, framebuf.MONO_VLSB)
fb.fill(0)
def cap(x, y, w, h, c, l1, l2):
    fb.rect(x, y, w, h, 1)
    fb.rect(x + 1, y + 1, w - 2, h - 2, 1)
    if len(c) == 1 and c in font.CHARS:
        font.char(fb, c, x + 4, y + 4)
    else:
        fb.text(c, x + 5, y + 8, 1)
    fb.text(l1, x + 2, y + h - 20, 1)
    fb.text(l2, x + 2, y + h - 11, 1)
kind = sys.argv[1]
if kind == "keypad":
    fb.text("4x4 keypad: play screen / menus", 4, 2, 1)
    rows = %r
    for r in range(4):
        for c in range(4):
            k = rows[r][c]
            cap(2 + c * 75, 16 + r * 50, 74, 47, k[0], k[1], k[2])
else:
    fb.text("six buttons: play / menus", 4, 2, 1)
    for x, y, c, l1, l2 in %r:
        cap(x, y, 84, 44, c, l1, l2)
print(binascii.hexlify(buf).decode())
"""


def draw(kind):
    prog = PROGRAM % (W, H, KEYPAD, BUTTONS)
    env = dict(os.environ)
    env["MICROPYPATH"] = firmware_dir()
    r = subprocess.run([micropython(), "-c", prog, kind], capture_output=True, text=True, env=env)
    if r.returncode:
        raise RuntimeError(r.stderr)
    return png.pixels(bytes.fromhex(r.stdout.strip()), W, H)


def main(out_dir):
    for kind in ("keypad", "buttons"):
        path = os.path.join(out_dir, "keys-%s.png" % kind)
        with open(path, "wb") as f:
            f.write(png.encode_rgb(draw(kind), 2, png.PLAIN, gap=False))
        print(path)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs")
