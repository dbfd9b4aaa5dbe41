"""The printable faces' SVG pieces, which each game's FACE draws with (report/face.py
assembles the page)."""


def num(v):
    """A length for SVG: mm to 0.01 mm, without trailing zeros."""
    return ("%.2f" % v).rstrip("0").rstrip(".")


def svg_text(x, y, size, label, attrs=""):
    return '<text x="%s" y="%s" font-size="%s"%s>%s</text>' % (num(x), num(y), num(size), attrs, label)


def outline(w, h, size):
    """The face's frame: where the assembled sheets are trimmed."""
    values = (num(w), num(h), num(0.002 * size))
    return (
        '<rect id="face-outline" x="0" y="0" width="%s" height="%s" fill="#fff" stroke="#000" stroke-width="%s"/>'
        % values
    )
