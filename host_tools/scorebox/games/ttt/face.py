"""Try-Tac-Toe's printable face for `scorebox face` (report/face.py tiles and writes it): its
surface names this module as FACE."""

import math

from scorebox.games.svg import num, outline, svg_text
from scorebox_core.games.ttt import board


def lattice_point(a, b):
    """The point of lattice vertex (a, b): a*(1, 0) + b*(1/2, sqrt(3)/2), in triangle sides."""
    return a + b / 2, b * math.sqrt(3) / 2


def draw(size):
    """The Try-Tac-Toe face (TTT-1): the board's 74 triangles, each with its number at its
    centre; size mm is the outline's longer side. Returns (width, height, SVG elements)."""
    points = [[lattice_point(a, b) for a, b in cell] for cell in board.CELLS]  # y down, as on the screen
    xs = [x for tri in points for x, _ in tri]
    ys = [y for tri in points for _, y in tri]
    pad = 0.04 * size
    side = (size - 2 * pad) / max(max(xs) - min(xs), max(ys) - min(ys))  # mm per triangle side
    x0, y0 = pad - side * min(xs), pad - side * min(ys)
    w, h = side * (max(xs) - min(xs)) + 2 * pad, side * (max(ys) - min(ys)) + 2 * pad
    out = [outline(w, h, size)]
    for number, tri in enumerate(points, 1):
        corners = [(x0 + side * x, y0 + side * y) for x, y in tri]
        out.append(
            '<polygon id="cell-%d" data-triangle="%d" points="%s" fill="#fff" stroke="#222" stroke-width="%s"/>'
            % (number, number, " ".join("%s,%s" % (num(x), num(y)) for x, y in corners), num(0.02 * side))
        )
        cx, cy = sum(x for x, _ in corners) / 3, sum(y for _, y in corners) / 3
        attrs = ' id="tri-%d" data-triangle="%d" class="num"' % (number, number)
        out.append(svg_text(cx, cy, 0.2 * side, number, attrs))
    return w, h, "\n".join(out)
