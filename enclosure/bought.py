"""The bought parts as simple solids, placed as in the assembled box: what the fit checks test against."""

from dataclasses import dataclass

from enclosure.layout import buttons
from enclosure.shapes import box, centred_box, cylinder


@dataclass(frozen=True)
class Component:
    name: str
    group: str  # pieces of one bought part share a group and may touch each other
    solid: object
    seat: str = ""  # a board: "down" (held from behind) or "up" (held from the front); needs clearance


@dataclass(frozen=True)
class Socket:
    """A USB receptacle: where a plug must come in through the bottom wall."""

    name: str
    x: float
    mouth_y: float
    z: float


def pico(p, at):
    w, h, t = p.pico
    x, y = at
    z = p.pico_standoff
    sw, sd, sh = p.usb.socket
    y0 = y - p.usb.overhang
    headers = [  # two rows of pins 17.78 mm apart, their 2.54 mm plastic strips under the board
        Component("pico header", "pico", box(x0, x0 + 2.54, y, y + h, z - p.pico_headers, z))
        for x0 in (x + w / 2 - 8.89 - 1.27, x + w / 2 + 8.89 - 1.27)
        if p.pico_headers
    ]
    return headers + [
        Component("pico", "pico", box(x, x + w, y, y + h, z, z + t), "down"),
        Component("pico USB socket", "pico", centred_box(x + w / 2, y0 + sd / 2, sw, sd, z + t, z + t + sh)),
        Component("pico parts", "pico", box(x + 1, x + w - 1, y + sd, y + h - 1, z + t, z + t + p.pico_parts)),
    ]


def sockets(p, lay):
    sw, sd, sh = p.usb.socket
    out = [
        Socket("pico", lay.pico[0] + p.pico[0] / 2, lay.pico[1] - p.usb.overhang, p.pico_standoff + p.pico[2] + sh / 2)
    ]
    if lay.charger:
        w, _, t = p.battery.charger
        z = p.battery.tape + t + sh / 2
        out.append(Socket("charger", lay.charger[0] + w / 2, lay.charger[1] - p.usb.overhang, z))
    return out


def display(p, lay):
    d = p.display
    x, y = lay.display
    front = lay.depth  # the glass touches the clear cover, flush with the plate's inside face
    back = front - d.glass[2] - d.tape
    return [
        Component("display", "display", centred_box(x, y, d.board[0], d.board[1], back - d.board[2], back), "up"),
        Component("display glass", "display", centred_box(x, y + d.glass_dy, d.glass[0], d.glass[1], back, front)),
    ]


def window_size(p):
    w, h = p.display.active
    return w + 2 * p.window_margin, h + 2 * p.window_margin


def active_area(p, lay):
    """Centre and size of the display's lit area."""
    return (lay.display[0], lay.display[1] + p.display.active_dy), p.display.active


def cover_size(p):
    """The clear cover, cut 0.1 mm smaller all round than its recess."""
    w, h = window_size(p)
    lap = p.cover[0]
    return w + 2 * lap - 0.2, h + 2 * lap - 0.2


def cover(p, lay):
    (x, y), _ = active_area(p, lay)
    return [Component("clear cover", "cover", centred_box(x, y, *cover_size(p), lay.depth, lay.depth + p.cover[1]))]


def ribbon_slot_y(p, lay):
    return lay.keys[1] - p.keypad[1] / 2 + p.ribbon_slot[2]


def keypad_keys(p, x, y, z):
    """The sixteen keys' printed squares, for the pictures (the membrane is flat)."""
    kw, kh, _ = p.keypad
    pitch_x, pitch_y = (kw - 8) / 4, (kh - 22) / 4  # the ribbon end has the wider margin
    y0 = y - kh / 2 + 18 + pitch_y / 2
    return [
        Component("keypad keys", "keypad", centred_box(x + (i - 1.5) * pitch_x, y0 + j * pitch_y, 11, 9, z, z + 0.8))
        for i in range(4)
        for j in range(4)
    ]


def keys(p, lay):
    outside = lay.depth + p.plate
    x, y = lay.keys
    if p.layout == "keypad":
        kw, kh, kt = p.keypad
        rw, rt = p.ribbon
        slot = ribbon_slot_y(p, lay)
        return [
            Component("keypad", "keypad", centred_box(x, y, kw, kh, outside, outside + kt)),
            *keypad_keys(p, x, y, outside + kt),
            # through its slot, then folded flat up the inside of the plate
            Component("keypad ribbon", "keypad", centred_box(x, slot, rw, rt, lay.depth - rt, outside)),
            Component(
                "keypad ribbon fold", "keypad", box(x - rw / 2, x + rw / 2, slot, slot + 15, lay.depth - rt, lay.depth)
            ),
        ]
    bw, bh, bt = p.button_board
    z = lay.button_board_z
    sw, sh, sd = p.switch
    cap_d, cap_h, proud = p.cap
    out = [Component("button board", "buttons", centred_box(x, y, bw, bh, z - bt, z), "up")]
    for name, (dx, dy) in buttons(p).items():
        out.append(Component("switch " + name, "buttons", centred_box(x + dx, y + dy, sw, sh, z, z + sd)))
        out.append(
            Component(
                "cap " + name, "buttons", cylinder(x + dx, y + dy, cap_d, outside + proud - cap_h, outside + proud)
            )
        )
    return out


def tape(b, x0, x1, y0, y1):
    """The foam tape a part is stuck down with: on the floor, 1 mm in from the part's edges."""
    return [Component("foam tape", "tape", box(x0 + 1, x1 - 1, y0 + 1, y1 - 1, 0, b.tape))] if b.tape else []


def power(p, lay):
    b = p.battery
    w, h, d = b.envelope
    x, y = lay.pack
    z = b.tape  # on its foam tape
    out = [Component(b.kind, "pack", box(x, x + w, y, y + h, z, z + d), "down"), *tape(b, x, x + w, y, y + h)]
    if b.charger:
        cw, ch, ct = b.charger
        cx, cy = lay.charger
        sw, sd, sh = p.usb.socket
        out.append(Component("TP4056", "charger", box(cx, cx + cw, cy, cy + ch, z, z + ct), "down"))
        out += tape(b, cx, cx + cw, cy, cy + ch)
        y0 = cy - p.usb.overhang
        out.append(
            Component(
                "TP4056 USB socket", "charger", centred_box(cx + cw / 2, y0 + sd / 2, sw, sd, z + ct, z + ct + sh)
            )
        )
    w, h, d = b.switch_body
    x, y, z = lay.switch
    out.append(Component("slide switch", "switch", centred_box(x, y, w, h, z - d / 2, z + d / 2)))
    return out


def switch_hole(p, lay, out=1.0):
    """The opening for the slide switch's knob: through the bottom wall (or, as the box had it
    before, the back), from 1 mm inside to `out` beyond the outside face."""
    w, h = p.battery.switch_hole
    x, y, z = lay.switch
    t = p.wall
    if lay.switch_face == "back":
        return centred_box(x, y, w, h, -t - out, 1)
    z0 = max(z - h / 2, 0.0)  # from the floor up: the knob is at the body's middle
    return box(x - w / 2, x + w / 2, -t - out, 1, z0, z0 + h)


def leg(p, lay, thickness=None, turned=False):
    """The stand's leg held in the clip, pressed against its hooks: vertical, or (the clip turned
    90 degrees) a horizontal batten. Long enough to stand for the whole leg."""
    w, t = p.leg
    t = t if thickness is None else thickness
    z_hooks = -p.wall - p.clip_plate - p.leg[1] - p.jaw_fit  # the hooks' inner faces
    x, y = lay.clip
    if turned:
        return box(x - 500, x + 500, y - w / 2, y + w / 2, z_hooks, z_hooks + t)
    return box(x - w / 2, x + w / 2, y - 500, y + 500, z_hooks, z_hooks + t)


def buzzer(p, lay):
    if not lay.buzzer:
        return []
    d, h = p.buzzer
    vent_d, vent_t = p.sound_vent
    z = lay.depth - vent_t  # behind the vent stuck on the plate
    return [
        Component("acoustic vent", "vent", cylinder(*lay.buzzer, vent_d, z, lay.depth)),
        Component("piezo", "piezo", cylinder(*lay.buzzer, d, z - h, z)),
    ]


def clip_screw_heads(p, lay):
    x, y = lay.clip
    s = p.clip_screws / 2
    head_d, head_h = p.clip_screw_head
    return [
        Component("clip screw head", "clip screw %d" % i, cylinder(x + dx, y + dy, head_d, 0, head_h))
        for i, (dx, dy) in enumerate(((-s, -s), (s, -s), (-s, s), (s, s)))
    ]


def grip_pads(p, lay):
    """The sponge strips in their recesses in the clip, as they are before a leg squeezes them."""
    w, length, t = p.grip_pad
    floor = -p.wall - p.clip_plate + p.pad_recess  # the recess's floor
    x, y = lay.clip
    return [
        Component("grip pad", "grip pad", centred_box(x + sx * p.pad_x, y, w, length, floor - t, floor))
        for sx in (-1, 1)
    ]


def components(p, lay):
    return (
        pico(p, lay.pico)
        + display(p, lay)
        + cover(p, lay)
        + keys(p, lay)
        + power(p, lay)
        + buzzer(p, lay)
        + clip_screw_heads(p, lay)
        + grip_pads(p, lay)
    )
