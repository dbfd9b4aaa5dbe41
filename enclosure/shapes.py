"""Solids by their extents: every model in this package is made of these."""

import math

from build123d import Align, Box, Circle, Cylinder, Plane, Polygon, Pos, Rectangle, extrude

MIN = (Align.MIN, Align.MIN, Align.MIN)


def box(x0, x1, y0, y1, z0, z1):
    return Pos(x0, y0, z0) * Box(x1 - x0, y1 - y0, z1 - z0, align=MIN)


def centred_box(x, y, w, h, z0, z1):
    return box(x - w / 2, x + w / 2, y - h / 2, y + h / 2, z0, z1)


def cylinder(x, y, d, z0, z1):
    return Pos(x, y, z0) * Cylinder(d / 2, z1 - z0, align=(Align.CENTER, Align.CENTER, Align.MIN))


def frustum(x, y, w, h, z0, z1):
    """A window's 45 degree flare: w x h at z0, growing by (z1 - z0) on each side up to z1."""
    return extrude(Pos(x, y, z0) * Rectangle(w, h), amount=z1 - z0, taper=-45)


def flare(x, y, w, h, z0, z1):
    """A skirt's 45 degree flare: w x h at z1, growing by (z1 - z0) on each side down to z0."""
    return extrude(Pos(x, y, z0) * Rectangle(w + 2 * (z1 - z0), h + 2 * (z1 - z0)), amount=z1 - z0, taper=45)


def teardrop_z(x, y, d, z0, z1):
    """A hole along z that prints with its axis horizontal (y up): a circle with a 45 degree roof."""
    r = d / 2
    s = r / math.sqrt(2)
    face = Pos(x, y, z0) * (Circle(r) + Polygon((-s, s), (s, s), (0, r * math.sqrt(2)), align=None))
    return extrude(face, amount=z1 - z0)


def xz_prism(points, y0, y1):
    """A prism with the (x, z) outline `points`, from y0 to y1."""
    prism = extrude(Plane.XZ * Polygon(*points, align=None), amount=y1 - y0)
    return prism.translate((0, y0 - prism.bounding_box().min.Y, 0))  # either way round the outline goes
