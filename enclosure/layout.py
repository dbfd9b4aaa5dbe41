"""Where everything goes: the cavity's size and each part's position, derived from the parameters.

Coordinates of the assembled box, in mm: x to the archer's right, y up, z towards the archer.
The cavity is centred on x = 0; y = 0 is the inside of the bottom wall, z = 0 the inside of the
tray's floor and z = depth the inside of the front plate (which rests on the tray's rim).
"""

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    depth: float
    pico: tuple  # lower-left corner of the Pico board; its USB socket points down (-y)
    pack: tuple  # lower-left corner of the battery holder or LiPo cell
    charger: tuple  # lower-left corner of the TP4056 board, or ()
    switch: tuple  # centre (x, y, z) of the slide switch's body, against the inside of the bottom wall
    display: tuple  # centre of the display board
    keys: tuple  # centre of the keypad (on the front) or of the button board
    buzzer: tuple  # centre of the piezo, or ()
    clip: tuple  # centre of the stand clip on the back
    posts: tuple  # lower-left corners of the four corner posts (square, corner_post wide)
    button_board_z: float  # front face of the button board
    switch_face: str = "bottom"  # the wall the switch's knob comes out of ("back" was behind the leg)


STANDARD_LENGTHS = (4, 5, 6, 8, 10, 12, 14, 16, 18, 20, 22, 25, 30, 35, 40)


def corner_screw(p, depth):
    """(counterbore depth, screw length) for the M3 corner screws: the counterbore at least the
    head's height, 0.5 mm deeper at a time until a standard length bites 3 mm into the insert."""
    head = p.m3_head[1]
    while head <= p.wall + p.corner_post:
        clamp = depth - p.front_boss + p.wall - head  # from the counterbore's seat to the insert
        fits = [n for n in STANDARD_LENGTHS if n <= clamp + p.m3_insert[1] - 0.5]
        if fits and fits[-1] - clamp >= 3.0:
            return head, fits[-1]
        head += 0.5
    raise ValueError("no standard corner screw for a %.1f mm deep box" % depth)


def buttons(p):
    """The six buttons as keys.md draws them: a cross around OK, back at the lower right."""
    s = p.button_pitch
    return {"up": (0, s), "left": (-s, 0), "ok": (0, 0), "right": (s, 0), "down": (0, -s), "back": (s, -s - 2)}


def button_bosses(p):
    """Four M2 bosses on the button board, clear of the switches (board-centre coordinates)."""
    w, h = p.button_board[0] / 2 - 3, p.button_board[1] / 2 - 3
    return ((-w, h), (w, h), (-w, -h), (w, -p.button_pitch / 2 - 1))


def buzzer_ring(p):
    """Outside diameter of the ring the piezo is glued into."""
    return p.buzzer[0] + 0.4 + 2 * p.buzzer_wall


def sound_holes(p, lay):
    """The piezo's sound holes: one in the middle, six round it."""
    x, y = lay.buzzer
    return [(x, y)] + [(x + 3.2 * math.cos(k * math.pi / 3), y + 3.2 * math.sin(k * math.pi / 3)) for k in range(6)]


def front_margin(p):
    """From the cavity's edge to the front shell's edge: tray wall, fit gap and skirt."""
    return p.wall + p.fit + p.skirt


def plan(p):
    g, post, d, b = p.board_gap, p.corner_post, p.display, p.battery
    pico_w, pico_h, _ = p.pico
    pack_w, pack_h, pack_d = b.envelope

    # Width: the Pico beside the power parts, both clear of the lower corner posts.
    if b.charger:
        right = max(b.charger[0] + g + post, pack_w + g)
    else:
        right = pack_w + g
    width = post + g + pico_w + g + right
    width = max(width, p.keypad[0] + 2 * p.face_margin - 2 * front_margin(p))
    if p.layout == "buttons":
        width = max(width, p.button_board[0] + 2 * (post + g))
    if p.piezo:  # its ring beside the display
        width = max(width, d.board[0] + 4 * g + 2 * buzzer_ring(p))

    pico = (-width / 2 + post + g, g)
    if b.charger:  # charger in the lower right beside the post, the cell above it
        charger = (width / 2 - post - g - b.charger[0], g)
        pack = (width / 2 - g - pack_w, charger[1] + b.charger[1] + g + b.charger_gap)
        right = charger[0]
    else:
        charger = ()
        pack = (width / 2 - g - pack_w, post + g)  # above the lower right post
        right = width / 2 - post
    # The slide switch lies on the floor against the bottom wall, between the Pico and what is on
    # its right: its knob comes out of the underside, never behind the stand's leg.
    sw, sh, sd = b.switch_body
    switch = ((pico[0] + pico_w + right) / 2, sh / 2, sd / 2)
    floor_top = max(pack[1] + pack_h, pico[1] + pico_h) + g

    # Height: the keys at the bottom of the front, the display above them.
    # The keypad's lower edge face_margin above the front's, or higher: its ribbon's slot clear of the tray's wall.
    bottom = max(-front_margin(p) + p.face_margin, g + p.ribbon_slot[1] / 2 - p.ribbon_slot[2])
    if p.layout == "keypad":
        keys = (0.0, bottom + p.keypad[1] / 2)
        active_y = bottom + p.keypad[1] + 2 + p.window_chamfer + p.window_margin + d.active[1] / 2
        display_y = active_y - d.active_dy
    else:
        keys = (0.0, g + p.button_board[1] / 2)
        display_y = g + p.button_board[1] + g + d.board[1] / 2
    display_y = max(display_y, floor_top + d.board[1] / 2)
    height = display_y + d.board[1] / 2 + g

    # Depth: what lies on the floor, plus (buttons) the switch board hanging behind the front.
    floor_stack = max(  # the pack and the charger stand on their foam tape
        b.tape + pack_d,
        p.pico_standoff + p.pico[2] + p.usb.socket[2],
        b.tape + b.charger[2] + p.usb.socket[2] if b.charger else 0,
    )
    _, cap_h, proud = p.cap
    board_z = p.plate + proud - cap_h - 0.5 - p.switch[2]  # relative to the plate's inside face
    front_stack = 1.0 if p.layout == "keypad" else -board_z + p.button_board[2] + 1.5  # ribbon fold; solder
    plug_w, plug_h = p.usb.plug
    usb_roof = (
        p.pico_standoff + p.pico[2] + p.usb.socket[2] / 2 + plug_h / 2 + (plug_w - min(plug_w, p.max_bridge - 1)) / 2
    )
    depth = max(floor_stack + g + front_stack, usb_roof + 1.0, p.sound_vent[1] + p.buzzer[1] + g if p.piezo else 0)

    buzzer = (d.board[0] / 2 + g + buzzer_ring(p) / 2, display_y) if p.piezo else ()
    screw_room = p.clip_screw_head[0] / 2 + g + p.clip_screws / 2  # their heads inside, clear of the floor parts
    clip_y = min(max(floor_top + screw_room, height - p.clip_len / 2), height - screw_room)
    x1, y1 = width / 2 - post, height - post
    posts = ((-width / 2, 0.0), (x1, 0.0), (-width / 2, y1), (x1, y1))
    return Layout(
        width,
        height,
        depth,
        pico,
        pack,
        charger,
        switch,
        (0.0, display_y),
        keys,
        buzzer,
        (0.0, clip_y),
        posts,
        depth + board_z,
    )
