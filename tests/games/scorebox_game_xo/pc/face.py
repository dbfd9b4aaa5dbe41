"""The printable face for `scorebox face`: nine numbered squares."""

from scorebox.games.svg import num, outline, svg_text


def draw(size):
    """The face, size mm square. Returns (width, height, SVG elements)."""
    pad = 0.04 * size
    side = (size - 2 * pad) / 3
    out = [outline(size, size, size)]
    for i in range(9):
        x, y = pad + side * (i % 3), pad + side * (i // 3)
        out.append(
            '<rect id="square-%d" x="%s" y="%s" width="%s" height="%s" fill="#fff" stroke="#222" stroke-width="%s"/>'
            % (i + 1, num(x), num(y), num(side), num(side), num(0.01 * side))
        )
        out.append(svg_text(x + side / 2, y + side / 2, 0.3 * side, i + 1, ' class="num"'))
    return size, size, "\n".join(out)
