"""Fit checks on the assembled box. Each returns a list of problems in words; empty means it fits."""

from itertools import combinations

from build123d import Vector

from enclosure.bought import active_area, leg, switch_hole
from enclosure.layout import front_margin, sound_holes
from enclosure.shapes import box, centred_box, cylinder

TOUCH = 1e-3  # mm^3: solids that only touch (a board on its bosses) share no more volume than this


def _overlap(a, b):
    """Volume shared by two solids, skipping the boolean when their boxes are apart."""
    ba, bb = a.bounding_box(), b.bounding_box()
    if ba.min.X >= bb.max.X or bb.min.X >= ba.max.X or ba.min.Y >= bb.max.Y or bb.min.Y >= ba.max.Y:
        return 0.0
    if ba.min.Z >= bb.max.Z or bb.min.Z >= ba.max.Z:
        return 0.0
    return (a & b).volume


def _solids(asm):
    """(name, group, solid) for every printed and bought part; printed parts are their own group."""
    return [(n, n, s) for n, s in asm.parts.items()] + [(c.name, c.group, c.solid) for c in asm.components]


def collisions(asm):
    """No part or bought part runs into another (pieces of one bought part may touch)."""
    out = []
    for (na, ga, a), (nb, gb, b) in combinations(_solids(asm), 2):
        if ga != gb and (v := _overlap(a, b)) > TOUCH:
            out.append("%s intersects %s (%.2f mm^3)" % (na, nb, v))
    return out


def keep_out(c, gap):
    """The board grown by `gap` sideways and on the side away from what holds it."""
    bb = c.solid.bounding_box()
    z0, z1 = (bb.min.Z, bb.max.Z + gap) if c.seat == "down" else (bb.min.Z - gap, bb.max.Z)
    return box(bb.min.X - gap, bb.max.X + gap, bb.min.Y - gap, bb.max.Y + gap, z0, z1)


def clearance(asm):
    """At least `clearance` of air around every board, except where its own bosses hold it."""
    gap = asm.params.clearance
    out = []
    for c in asm.components:
        if not c.seat:
            continue
        zone = keep_out(c, gap)
        for name, group, solid in _solids(asm):
            if group != c.group and (v := _overlap(zone, solid)) > TOUCH:
                out.append("%s is closer than %.1f mm to %s (%.2f mm^3)" % (c.name, gap, name, v))
    return out


def _blocked(shell, x, y, z0, z1, step=0.1):
    """Does the solid stop the sight line along z through (x, y) between z0 and z1? Samples every
    `step`, from the middle of the plate outwards, where a window is narrowest."""
    n = int((z1 - z0) / step) + 1
    ks = sorted(range(n + 1), key=lambda k: abs(2 * k - n))
    return any(shell.is_inside(Vector(x, y, z0 + (z1 - z0) * k / n)) for k in ks)


def _ring(cx, cy, w, h, step):
    """Points along the outline of a w x h rectangle."""
    nx, ny = max(2, int(w / step)), max(2, int(h / step))
    xs = [cx - w / 2 + w * i / nx for i in range(nx + 1)]
    ys = [cy - h / 2 + h * j / ny for j in range(ny + 1)]
    return (
        [(x, cy - h / 2) for x in xs]
        + [(x, cy + h / 2) for x in xs]
        + [(cx - w / 2, y) for y in ys]
        + [(cx + w / 2, y) for y in ys]
    )


def window(asm):
    """The whole active area is seen through the window, and nothing more than window_limit beyond it."""
    p, lay = asm.params, asm.layout
    shell = asm.parts["front"]
    (cx, cy), (w, h) = active_area(p, lay)
    z0, z1 = lay.depth, lay.depth + p.plate
    out = []
    sight = centred_box(cx, cy, w, h, z0, z1)
    if (v := _overlap(sight, shell)) > TOUCH:
        out.append("the front shell hides part of the active area (%.2f mm^3 in the line of sight)" % v)
    limit = p.window_limit + 0.05
    ring = _ring(cx, cy, w + 2 * limit, h + 2 * limit, 0.25)
    open_at = next((pt for pt in ring if not _blocked(shell, *pt, z0, z1)), None)
    if open_at:
        out.append(
            "the window reaches more than %.1f mm beyond the active area (open at x=%.2f y=%.2f)"
            % (p.window_limit, *open_at)
        )
    return out


def usb(asm):
    """A plug centred on each USB socket comes in through the wall to the socket's mouth."""
    p = asm.params
    w, h = p.usb.plug
    out = []
    for s in asm.sockets:
        plug = box(s.x - w / 2, s.x + w / 2, s.mouth_y - p.wall - 30, s.mouth_y - 0.01, s.z - h / 2, s.z + h / 2)
        for name, solid in asm.parts.items():
            if (v := _overlap(plug, solid)) > TOUCH:
                out.append("a plug into the %s's USB socket hits the %s (%.2f mm^3)" % (s.name, name, v))
        if s.mouth_y + p.wall > p.usb.reach:
            out.append("the %s's USB socket is %.1f mm inside the wall" % (s.name, s.mouth_y + p.wall))
    return out


def seam(asm):
    """Rain at the seam: the gap between the skirt and the tray is at least `min_gap` all round,
    over the whole overlap (wider than capillarity draws water through); along the underside,
    where water from the face runs back, the skirt's rim reaches at least `min_gap` below the
    skirt's outside: a drip edge below the gap, in front of the USB openings too, unbroken but
    where the skirt is notched for a plug (the slim LiPo box: its openings reach the rim, so they
    take the parts list's dust plugs); and each USB opening is in the bottom wall, facing down."""
    p, lay = asm.params, asm.layout
    front, t, d = asm.parts["front"], p.wall, lay.depth
    w, h, g = lay.width, lay.height, p.min_gap
    out = []
    rim = d - p.overlap
    outside = box(-w / 2 - t, w / 2 + t, -t, h + t, rim + 0.01, d - 0.01)
    band = box(-w / 2 - t - g, w / 2 + t + g, -t - g, h + t + g, rim + 0.01, d - 0.01) - outside
    if (v := _overlap(band, front)) > TOUCH:
        out.append("the gap between the skirt and the tray is under %.1f mm (%.2f mm^3 within it)" % (g, v))
    skirt_face = -front_margin(p)
    plug_w, plug_h = p.usb.plug
    roof = plug_h / 2 + (plug_w - min(plug_w, p.max_bridge - 1)) / 2  # the opening's top, over its socket
    notches = [(s.x - plug_w / 2 - 0.5, s.x + plug_w / 2 + 0.5) for s in asm.sockets if s.z + roof > rim]
    xs = [-w / 2 - t + k for k in range(int(w + 2 * t) + 1)]
    edge = [x for x in xs if not any(a <= x <= b for a, b in notches)]
    dry = [x for x in edge if not front.is_inside(Vector(x, skirt_face - g + 0.05, rim + 0.05))]
    if dry:
        out.append(
            "no drip edge %.1f mm below the skirt along the underside at x = %s"
            % (g, ", ".join("%.0f" % x for x in dry[:6]))
        )
    for s in asm.sockets:  # its plug, from the mouth down: the opening faces down (fit.usb checks it is clear)
        cut = box(s.x - 1, s.x + 1, s.mouth_y - t - 0.5, s.mouth_y, s.z - 1, s.z + 1) & asm.parts["tray"]
        if cut.volume > TOUCH or s.mouth_y > 0.01:
            out.append("the %s's USB opening is not in the bottom wall, facing down" % s.name)
    return out


def sound(asm):
    """The sound holes face the archer and so the rain: each is closed from inside by the
    acoustic vent (its whole width, through the vent's thickness)."""
    p, lay = asm.params, asm.layout
    if not lay.buzzer:
        return []
    vents = [c.solid for c in asm.components if c.name == "acoustic vent"]
    t = p.sound_vent[1]
    out = []
    for x, y in sound_holes(p, lay):
        column = cylinder(x, y, p.sound_hole, lay.depth - t, lay.depth)
        for vent in vents:
            column -= vent
        if column.volume > TOUCH:
            out.append("the sound hole at x=%.1f y=%.1f opens straight into the box" % (x, y))
    return out


def switch(asm):
    """The power switch's opening is reachable on the stand: a thumb's room (`switch_reach`) straight
    out from it meets neither the leg (45 x 22, vertical, or a batten across the clip turned 90
    degrees) nor the clip nor the front shell."""
    p, lay = asm.params, asm.layout
    reach = switch_hole(p, lay, out=p.switch_reach)
    out = []
    for name, solid in (("the leg", leg(p, lay)), ("a horizontal batten", leg(p, lay, turned=True))):
        if (v := _overlap(reach, solid)) > TOUCH:
            out.append("the power switch's opening is behind %s held by the clip (%.1f mm^3)" % (name, v))
    for name in ("clip", "front"):
        if (v := _overlap(reach, asm.parts[name])) > TOUCH:
            out.append("the %s is in the way of the power switch (%.1f mm^3)" % (name, v))
    return out


def grip(asm):
    """The clip grips the leg: a leg of the nominal thickness, and 0.5 mm (`leg_tol`) thinner or
    thicker, pressed onto the hooks, goes into the jaw and squeezes each sponge strip within the
    sponge's working range (`pad_squeeze`), measured as the strip's depth inside the leg."""
    p, lay = asm.params, asm.layout
    pads = [c for c in asm.components if c.name == "grip pad"]
    if not pads:
        return ["the clip has no grip: the %g mm leg has %.1f mm of play in its jaw" % (p.leg[1], p.jaw_fit)]
    lo, hi = p.pad_squeeze
    thickness = p.grip_pad[2]
    out = []
    for t in (p.leg[1] - p.leg_tol, p.leg[1], p.leg[1] + p.leg_tol):
        held = leg(p, lay, thickness=t)
        if (v := _overlap(held, asm.parts["clip"])) > TOUCH:
            out.append("a %.1f mm leg does not go into the clip's jaw (%.2f mm^3)" % (t, v))
        for c in pads:
            squeezed = c.solid & held
            depth = squeezed.bounding_box().size.Z if squeezed.volume > TOUCH else 0.0
            if not lo * thickness - 1e-6 <= depth <= hi * thickness + 1e-6:
                out.append(
                    "a %.1f mm leg squeezes a grip pad by %.2f mm of its %.1f (%.0f %%): outside %.0f-%.0f %%"
                    % (t, depth, thickness, 100 * depth / thickness, 100 * lo, 100 * hi)
                )
    return out


def walls(asm):
    p = asm.params
    return [
        "%s is %.1f mm: walls must be at least 2 mm" % (n, v)
        for n, v in (("wall", p.wall), ("plate", p.plate))
        if v < 2
    ]


CHECKS = (collisions, clearance, window, usb, seam, sound, switch, grip, walls)


def check(asm):
    """All fit checks: {check name: problems}."""
    return {f.__name__: f(asm) for f in CHECKS}
