"""The box's 128x64 screen as the PC shows it: in a terminal (Unicode half blocks, or Braille
cells where the terminal is small, with the keys' help below) and as PNG pictures."""

import os

from scorebox.sim import png

HELP = (  # lines of 64 columns at most: they fit the small picture too
    "1-9 square  a b c d = values 3 2 1 0  0 miss  # call  * / undo",
    "arrows Enter Backspace = the six buttons  ~ then a key = hold it",
    "q quit (the box's memory is kept)",
)
# Braille cell dots: (dx, dy, bit) as Unicode numbers them (U+2800 + bits).
_DOTS = ((0, 0, 1), (0, 1, 2), (0, 2, 4), (1, 0, 8), (1, 1, 16), (1, 2, 32), (0, 3, 64), (1, 3, 128))


def half_blocks(frame, on=True):
    """The 128x64 frame as 32 lines of Unicode half blocks."""
    rows = png.pixels(frame)
    out = []
    for y in range(0, 64, 2):
        top, bot = rows[y], rows[y + 1]
        out.append("".join(" ▀▄█"[(top[x] | bot[x] << 1) if on else 0] for x in range(128)))
    return "\n".join(out)


def braille(frame, on=True):
    """The 128x64 frame as 16 lines of 64 Braille cells (2x4 dots each): every pixel, for a
    terminal too small for the half blocks."""
    rows = png.pixels(frame)
    out = []
    for y in range(0, 64, 4):
        line = []
        for x in range(0, 128, 2):
            bits = 0
            if on:
                for dx, dy, bit in _DOTS:
                    if rows[y + dy][x + dx]:
                        bits |= bit
            line.append(chr(0x2800 + bits))
        out.append("".join(line))
    return "\n".join(out)


def screen(frame, on, level, cols, rows):
    """The terminal's lines for a frame: full size (128x36) or half size (64x20) as the
    terminal allows, else one line saying what size the sim needs (never a garbled picture)."""
    state = "off" if not on else ("dim" if level < 32 else "on")
    for picture, width, height in ((half_blocks, 128, 32), (braille, 64, 16)):
        if cols >= width and rows >= height + 1 + len(HELP):
            return picture(frame, on).split("\n") + ["[screen %s]" % state] + list(HELP)
    return [
        ("scorebox sim needs a terminal of 64x20 at least (128x36 for full size); this one is %dx%d" % (cols, rows))[
            :cols
        ]
    ]


def write_frames(frames, out_dir, scale=4):
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for i, (frame, on, level) in enumerate(frames):
        rows = png.pixels(frame)
        if not on:
            rows = [[0] * 128 for _ in range(64)]
        colours = png.OLED
        if on and level < 32:  # dimmed: a darker ink
            colours = (png.OLED[0], (60, 95, 110))
        path = os.path.join(out_dir, "frame_%04d.png" % (i + 1))
        with open(path, "wb") as f:
            f.write(png.encode_rgb(rows, scale, colours))
        paths.append(path)
    return paths
