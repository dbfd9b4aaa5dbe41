"""Tic Tac BOW's printable face for `scorebox face` (report/face.py tiles and writes it): its
surface names this module as FACE."""

from scorebox.games.svg import num, outline, svg_text

# TTB-4: the scoring zones from the outside in: value, fill, colour of its label.
ZONES = ((1, "#2f6fb3", "#fff"), (2, "#d23c32", "#fff"), (3, "#f0c030", "#222"))


def draw(size):
    """The Tic Tac BOW face, size mm square: three by three squares numbered in reading order
    (TTB-1), each with the scoring zones 1, 2 and 3 (TTB-4) round the called shot's white X
    in its circle (TTB-8). Returns (width, height, SVG elements)."""
    border, line = 0.03 * size, 0.012 * size
    cell = (size - 2 * border) / 3
    out = [outline(size, size, size)]
    radii = (0.44 * cell, 0.32 * cell, 0.2 * cell, 0.09 * cell)  # zones 1, 2, 3, the X's circle
    for square in range(1, 10):
        row, col = divmod(square - 1, 3)  # TTB-1: 1 2 3 / 4 5 6 / 7 8 9, as the keypad's digits
        x, y = border + col * cell, border + row * cell
        cx, cy = x + cell / 2, y + cell / 2
        out.append(
            '<rect id="square-%d" data-square="%d" x="%s" y="%s" width="%s" height="%s" fill="#fff"'
            ' stroke="#9a9a9a" stroke-width="%s"/>' % (square, square, num(x), num(y), num(cell), num(cell), num(line))
        )
        for (value, fill, ink), r, inner in zip(ZONES, radii, radii[1:]):
            out.append(
                '<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="#222" stroke-width="%s"/>'
                % (num(cx), num(cy), num(r), fill, num(0.003 * cell))
            )
            out.append(svg_text(cx, cy - (r + inner) / 2, 0.06 * cell, value, ' class="value" fill="%s"' % ink))
        arm = 0.045 * cell
        out.append('<circle cx="%s" cy="%s" r="%s" fill="#222"/>' % (num(cx), num(cy), num(radii[3])))
        ends = (cx - arm, cy - arm, cx + arm, cy + arm, cx - arm, cy + arm, cx + arm, cy - arm)
        out.append(
            '<path class="x" d="M%s %sL%s %sM%s %sL%s %s" stroke="#fff" stroke-width="%s" stroke-linecap="round"/>'
            % (tuple(num(v) for v in ends) + (num(0.018 * cell),))
        )
        attrs = ' id="sq-%d" data-square="%d" class="num"' % (square, square)
        out.append(svg_text(x + 0.1 * cell, y + 0.1 * cell, 0.11 * cell, square, attrs))  # in the white corner
    return size, size, "\n".join(out)
