"""Pictures of the Try-Tac-Toe board, drawn from the rules core (scorebox_core/games/ttt/board.py)
so that they cannot drift from it.

    python tools/ttt_svg.py docs     rewrite docs/try-tac-toe-board.svg and docs/try-tac-toe-shapes.svg
    python tools/ttt_svg.py check    exit 1 when the committed pictures differ from the board

The board picture numbers every triangle as the box does; the shapes picture shows one
placement of each tetriamond on the board with its count and default value.
"""

import os
import sys

from scorebox_core.games.ttt import board
from scorebox_core.games.ttt.rules import VALUES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIDE = 40  # px per triangle side in the pictures
H = SIDE * 0.8660254
PAD = 10
COLOURS = ("#e4572e", "#29335c", "#17bebb")  # triangle, bar, chevron


def _xy(p):
    a, b = p
    return (a + b / 2) * SIDE, b * H


def _frame():
    xs = [_xy(p)[0] for v in board.CELLS for p in v]
    ys = [_xy(p)[1] for v in board.CELLS for p in v]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _poly(i, x0, y0, dx, dy, fill, stroke="#333"):
    pts = " ".join("%.1f,%.1f" % (x - x0 + dx, y - y0 + dy) for x, y in (_xy(p) for p in board.CELLS[i]))
    return '<polygon points="%s" fill="%s" stroke="%s" stroke-width="1.5"/>' % (pts, fill, stroke)


def _centre(i, x0, y0, dx, dy):
    pts = [_xy(p) for p in board.CELLS[i]]
    return sum(x for x, _ in pts) / 3 - x0 + dx, sum(y for _, y in pts) / 3 - y0 + dy


def board_svg():
    x0, y0, w, h = _frame()
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        'font-family="sans-serif">' % (w + 2 * PAD, h + 2 * PAD, w + 2 * PAD, h + 2 * PAD),
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    for i in range(board.N):
        out.append(_poly(i, x0, y0, PAD, PAD, "#f4f1e8"))
        cx, cy = _centre(i, x0, y0, PAD, PAD)
        out.append('<text x="%.1f" y="%.1f" font-size="12" text-anchor="middle">%d</text>' % (cx, cy + 4, i + 1))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def shapes_svg():
    """The board three times, one placement of each shape coloured on it."""
    x0, y0, w, h = _frame()
    gap = 30
    total_h = 3 * (h + gap + 20) + PAD
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        'font-family="sans-serif">' % (w + 2 * PAD, total_h, w + 2 * PAD, total_h),
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    # a placement near the middle of the board, for each shape
    for k in range(3):
        dy = PAD + k * (h + gap + 20) + 20
        pl = board.placements(k)
        chosen = set(pl[len(pl) // 2])
        out.append(
            '<text x="%d" y="%d" font-size="15">%s: %d placements, worth %d</text>'
            % (PAD, dy - 6, board.SHAPES[k], board.COUNTS[k], VALUES[k])
        )
        for i in range(board.N):
            out.append(_poly(i, x0, y0, PAD, dy, COLOURS[k] if i in chosen else "#f4f1e8", "#999"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


FILES = (("docs/try-tac-toe-board.svg", board_svg), ("docs/try-tac-toe-shapes.svg", shapes_svg))


def main(argv):
    if argv[:1] == ["docs"]:
        for name, make in FILES:
            with open(os.path.join(ROOT, name), "w") as f:
                f.write(make())
        return 0
    if argv[:1] == ["check"]:
        stale = []
        for name, make in FILES:
            try:
                with open(os.path.join(ROOT, name)) as f:
                    if f.read() != make():
                        stale.append(name)
            except FileNotFoundError:
                stale.append(name)
        if stale:
            print("out of date: %s (python tools/ttt_svg.py docs)" % ", ".join(stale))
            return 1
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
