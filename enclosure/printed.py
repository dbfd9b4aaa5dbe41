"""The three printed parts: the tray (back shell), the front shell, and the clip for the stand.

Each is built where it sits in the assembled box (see layout.py) and turned into its print
orientation by `on_bed`. Openings in faces that print vertical get a 45 degree roof or a short
flat top, so no part needs supports.
"""

from build123d import Axis

from enclosure.bought import active_area, ribbon_slot_y, sockets, switch_hole, window_size
from enclosure.layout import button_bosses, buttons, buzzer_ring, corner_screw, front_margin, sound_holes
from enclosure.shapes import box, centred_box, cylinder, flare, frustum, teardrop_z, xz_prism

PRINT_TURN = {"tray": 0, "front": 180, "clip": 90}  # degrees about x: floor, face, profile on the bed


def on_bed(name, solid):
    """The part as it prints: turned about x, lowest point on z = 0."""
    turned = solid.rotate(Axis.X, PRINT_TURN[name]) if PRINT_TURN[name] else solid
    bb = turned.bounding_box()
    return turned.translate((-(bb.min.X + bb.max.X) / 2, -(bb.min.Y + bb.max.Y) / 2, -bb.min.Z))


def usb_opening(p, s, y0, y1, down_to=None):
    """The plug's moulding, with 45 degree cheeks up to a flat top no wider than a printable bridge;
    `down_to` extends it to a notch from an edge below."""
    w, h = p.usb.plug
    top_w = min(w, p.max_bridge - 1)
    z0, z1 = s.z - h / 2, s.z + h / 2
    if down_to is not None:
        z0 = min(z0, down_to)
    cheek = (w - top_w) / 2
    outline = [
        (s.x - w / 2, z0),
        (s.x + w / 2, z0),
        (s.x + w / 2, z1),
        (s.x + top_w / 2, z1 + cheek),
        (s.x - top_w / 2, z1 + cheek),
        (s.x - w / 2, z1),
    ]
    return xz_prism(outline, y0, y1)


def clip_screw_spots(p, lay):
    s = p.clip_screws / 2
    return [(lay.clip[0] + dx, lay.clip[1] + dy) for dx, dy in ((-s, -s), (s, -s), (-s, s), (s, s))]


def tray(p, lay):
    w, h, d, t = lay.width, lay.height, lay.depth, p.wall
    post = p.corner_post
    shell = box(-w / 2 - t, w / 2 + t, -t, h + t, -t, d) - box(-w / 2, w / 2, 0, h, 0, d + 1)
    for x, y in lay.posts:
        shell += box(x, x + post, y, y + post, 0, d - p.front_boss)
    hx, hy = p.pico_holes
    px, py = lay.pico[0] + p.pico[0] / 2, lay.pico[1] + p.pico[1] / 2
    pico_holes = [(px + sx * hx / 2, py + sy * hy / 2) for sx in (-1, 1) for sy in (-1, 1)]
    for x, y in pico_holes:
        shell += cylinder(x, y, p.m2_boss, 0, p.pico_standoff)
    head, _ = corner_screw(p, d)
    for x, y in lay.posts:  # M3 from the back, through the post, into the front shell's insert
        cx, cy = x + post / 2, y + post / 2
        shell -= cylinder(cx, cy, p.m3_clear, -t - 1, d)
        shell -= cylinder(cx, cy, p.m3_head[0], -t - 1, -t + head)
    for x, y in pico_holes:
        shell -= cylinder(x, y, p.m2_pilot, -t + 0.8, p.pico_standoff + 1)
    for s in sockets(p, lay):
        shell -= usb_opening(p, s, -t - 1, 0.5)
    shell -= switch_hole(p, lay)
    for x, y in clip_screw_spots(p, lay):
        shell -= cylinder(x, y, p.m3_clear, -t - 1, 1)
    return shell


def front(p, lay):
    w, h, d, t = lay.width, lay.height, lay.depth, p.plate
    m, post = front_margin(p), p.corner_post
    outside = d + t
    shell = box(-w / 2 - m, w / 2 + m, -m, h + m, d, outside)
    skirt_in = p.wall + p.fit
    rim = d - p.overlap
    skirt = box(-w / 2 - m, w / 2 + m, -m, h + m, rim, d)
    if p.drip:  # the drip edge round the rim
        skirt += flare(0, h / 2, w + 2 * m, h + 2 * m, rim, rim + p.drip)
    shell += skirt - box(-w / 2 - skirt_in, w / 2 + skirt_in, -skirt_in, h + skirt_in, rim - 1, d)
    for s in sockets(p, lay):  # where the skirt comes down over a USB opening: a notch from its edge
        shell -= usb_opening(p, s, -m - p.drip - 1, -p.wall, down_to=rim - 1)
    insert_d, insert_len = p.m3_insert
    for x, y in lay.posts:
        shell += box(x, x + post, y, y + post, d - p.front_boss, d)
        shell -= cylinder(x + post / 2, y + post / 2, insert_d, d - p.front_boss - 1, d - p.front_boss + insert_len)

    # The display: M2 bosses reaching the board's front face, the window, the clear cover's recess.
    disp = p.display
    bx, by = lay.display
    hx, hy = disp.holes
    boss_z = d - disp.glass[2] - disp.tape
    holes = [(bx + sx * hx / 2, by + sy * hy / 2) for sx in (-1, 1) for sy in (-1, 1)]
    for x, y in holes:
        shell += cylinder(x, y, p.display_boss, boss_z, d)
    (ax, ay), _ = active_area(p, lay)
    ww, wh = window_size(p)
    lap, cover_t = p.cover
    shell -= centred_box(ax, ay, ww, wh, d - 1, outside + 1)
    shell -= frustum(ax, ay, ww, wh, outside - p.window_chamfer, outside + 0.01)
    shell -= centred_box(ax, ay, ww + 2 * lap, wh + 2 * lap, d - 0.01, d + cover_t)
    for x, y in holes:
        shell -= cylinder(x, y, p.m2_pilot, boss_z - 1, outside - 0.8)

    kx, ky = lay.keys
    if p.layout == "keypad":
        sw, sh, _ = p.ribbon_slot
        shell -= centred_box(kx, ribbon_slot_y(p, lay), sw, sh, d - 1, outside + 1)
    else:
        for dx, dy in buttons(p).values():
            shell -= cylinder(kx + dx, ky + dy, p.cap[0] + 1.0, d - 1, outside + 1)
        for dx, dy in button_bosses(p):
            shell += cylinder(kx + dx, ky + dy, p.m2_boss, lay.button_board_z, d)
            shell -= cylinder(kx + dx, ky + dy, p.m2_pilot, lay.button_board_z - 1, outside - 0.8)

    if lay.buzzer:  # a ring the piezo is glued into, and holes to let the sound out
        bd, _ = p.buzzer
        x, y = lay.buzzer
        shell += cylinder(x, y, buzzer_ring(p), d - 4, d) - cylinder(x, y, bd + 0.4, d - 5, d + 0.01)
        for hx, hy in sound_holes(p, lay):
            shell -= cylinder(hx, hy, p.sound_hole, d - 1, outside + 1)
    return shell


def clip(p, lay):
    """A U-jaw for the leg, with hooked tips; strap slots through both arms for a round pole or a boss."""
    leg_w, leg_t = p.leg
    a = leg_w / 2 + p.jaw_fit  # inner half-width
    b = a + p.arm
    grip, lip_t = p.lip
    z0 = -p.wall  # against the tray's back
    z1 = z0 - p.clip_plate
    z2 = z1 - leg_t - p.jaw_fit
    z3 = z2 - lip_t
    outline = [
        (-b, z0),
        (b, z0),
        (b, z3),
        (a, z3),
        (a - grip, z3 + grip),  # 45 degree lead-in: the leg pushes the arms apart
        (a - grip, z2),
        (a, z2),
        (a, z1),
        (-a, z1),
        (-a, z2),
        (-a + grip, z2),
        (-a + grip, z3 + grip),
        (-a, z3),
        (-b, z3),
    ]
    x, y = lay.clip
    half = p.clip_len / 2
    part = xz_prism([(x + u, v) for u, v in outline], y - half, y + half)
    for sx, sy in clip_screw_spots(p, lay):
        part -= teardrop_z(sx, sy, p.m3_pilot, z1 - 1, z0 + 1)
    sl, sw = p.strap
    part -= box(x - b - 1, x + b + 1, y - sl / 2, y + sl / 2, z1 - 2 - sw, z1 - 2)
    pw, pl, _ = p.grip_pad
    for sx in (-1, 1):  # the sponge strips' recesses in the jaw's floor, 0.2 mm round them
        part -= centred_box(x + sx * p.pad_x, y, pw + 0.4, pl + 0.4, z1 - 1, z1 + p.pad_recess)
    return part


def parts(p, lay):
    return {"tray": tray(p, lay), "front": front(p, lay), "clip": clip(p, lay)}
