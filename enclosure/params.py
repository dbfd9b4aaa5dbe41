"""Every dimension of the case, in millimetres, in one place.

What the firmware also knows (display, keys, battery, piezo) is read from firmware/pins.py;
everything else is here. Bought parts are described by `Display`, `Battery`, ...; the printed
parts by `Params`. Change a figure here (or pass `dataclasses.replace(...)`) and re-export.
"""

import ast
from dataclasses import dataclass, field, replace
from pathlib import Path

PINS = Path(__file__).resolve().parent.parent / "firmware" / "pins.py"


def read_pins(path=PINS):
    """The plain constants of pins.py, parsed (not imported: it is firmware, not a PC module)."""
    consts = {}
    for node in ast.parse(Path(path).read_text()).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                consts[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue  # not a literal: nothing the case needs
    return consts


@dataclass(frozen=True)
class Display:
    """An OLED module: board, glass on its front, the lit area on the glass (offsets from the board centre)."""

    name: str
    board: tuple  # w, h, thickness
    glass: tuple  # w, h, thickness
    glass_dy: float  # glass centre above the board centre
    active: tuple  # w, h of the active area
    active_dy: float  # active area centre above the board centre (towards the header edge)
    holes: tuple  # centre spacing x, y of the four mounting holes
    tape: float = 0.2  # the glass sits on the board on double-sided tape


DISPLAYS = {
    # 0.96" I2C module, header along the top edge. Panel: 26.70 x 19.26 x 1.4, active 21.74 x 10.86.
    "SSD1306": Display("SSD1306", (27.3, 27.8, 1.2), (26.7, 19.26, 1.4), -0.25, (21.74, 10.86), 1.8, (23.3, 23.6)),
    # 1.3" I2C module (the reference: pins.py). Panel: about 34.5 x 23.0 x 1.5, active 29.42 x 14.7.
    "SH1106": Display("SH1106", (35.4, 33.5, 1.2), (34.5, 23.0, 1.5), 0.0, (29.42, 14.7), 1.5, (30.4, 28.5)),
    # 2.42" module: board 61.5 x 39.5 and active 55.01 x 27.49 (Waveshare's 2.42inch OLED Module);
    # the glass's height and the holes are assumed (modules differ): measure yours.
    "SSD1309": Display("SSD1309", (61.5, 39.5, 1.6), (60.5, 31.0, 2.0), 0.0, (55.01, 27.49), 0.0, (56.0, 36.0)),
}


@dataclass(frozen=True)
class Battery:
    """The power parts: a cell pack lying on the floor, an optional charger board and a switch on the back."""

    kind: str
    pack: tuple  # w, h, d of the holder or the LiPo cell
    charger: tuple = ()  # TP4056 board w, h, thickness; its USB socket points down like the Pico's
    # The power switch: an SS12D00 slide switch (body w, h, d) glued inside the bottom wall, its
    # knob out through an opening (w along the wall, h) there: clear of the stand's leg behind the box.
    switch_body: tuple = (8.6, 3.6, 3.6)
    switch_hole: tuple = (6.0, 4.0)
    swell: float = 0.0  # room kept free above a pouch cell, part of its envelope (checked like the cell)
    charger_gap: float = 0.0  # air between the charger board and the cell, beyond board_gap
    tape: float = 1.0  # double-sided foam tape under the pack and the charger board (the parts list's 1 mm)

    @property
    def envelope(self):
        """w, h, d the pack may take: a pouch cell with its room to swell."""
        w, h, d = self.pack
        return (w, h, d + self.swell)


BATTERIES = {
    "3xAA": Battery("3xAA", (47.0, 58.0, 16.0)),  # a holder's own switch, if it has one, stays on
    # 1000 mAh "503450" cell: 34 x 50 x 5.0; TP4056 board 26 x 17.
    # A pouch cell swells as it ages, faster when warm: 2 mm kept free above it (40 %; a cell
    # that outgrows it is due for replacing), which costs no depth: the Pico's standoffs and USB
    # socket already need 7.8 mm. The TP4056 warms as it charges: 3 mm more air between it and
    # the cell (docs/hardware.md: set to 400 mA, about 0.5 W).
    "lipo": Battery(
        "lipo",
        (34.0, 50.0, 5.0),
        charger=(17.0, 26.0, 1.6),
        swell=2.0,
        charger_gap=3.0,
    ),
}


@dataclass(frozen=True)
class Usb:
    """A micro-USB receptacle on a board, and the plug that must reach it through the wall."""

    socket: tuple = (8.0, 5.6, 2.8)  # w, depth along the board, height above the board
    overhang: float = 1.0  # how far the socket sticks out past the board edge
    plug: tuple = (11.0, 7.5)  # the plug's moulded body, w x h: the opening clears it
    reach: float = 5.0  # the plug's metal shell past its moulding: the wall face must be this close


@dataclass(frozen=True)
class Params:
    display: Display
    layout: str  # "keypad" or "buttons"
    battery: Battery
    piezo: bool

    # --- the shells
    wall: float = 2.4  # tray walls and floor, and the front plate; at least 2.0 (checked)
    plate: float = 2.4
    skirt: float = 2.0  # the front shell's skirt that hangs over the tray's rim
    overlap: float = 6.0  # how far the skirt overlaps the tray: rain runs off, not in
    # Gap between skirt and tray: wide enough that capillarity does not draw water past the
    # overlap (between PETG walls 1.5 mm apart water climbs 1.7-3.4 mm; 8.6-17 mm at 0.3 mm).
    # The corner screws locate the front shell, not the skirt.
    fit: float = 1.5
    min_gap: float = 1.0  # the least gap the fit checks accept
    drip: float = 1.5  # the skirt's rim flares out by this at 45 degrees: its edge is a drip edge
    clearance: float = 0.3  # required air around every board (checked)
    board_gap: float = 0.5  # designed air around boards (>= clearance)
    corner_post: float = 7.0  # diameter of the corner posts and bosses for the M3 screws
    front_boss: float = 6.0  # height of the front shell's corner bosses (M3 heat-set inserts)
    m3_clear: float = 3.4
    m3_head: tuple = (6.2, 3.2)  # counterbore for an M3 socket head: diameter, depth
    m3_insert: tuple = (4.0, 5.7)  # hole for an M3 x 5.7 heat-set insert: diameter, depth
    m2_pilot: float = 1.7  # self-tapping M2 into bosses
    m2_boss: float = 4.4
    display_boss: float = 3.6  # slimmer: the 0.96" module's glass comes within 2.2 mm of its holes

    # --- the Pico (datasheet: 51 x 21 x 1, holes 2.1 at 11.4 x 47.0)
    pico: tuple = (21.0, 51.0, 1.0)
    pico_holes: tuple = (11.4, 47.0)
    pico_parts: float = 1.8  # tallest part on top besides the USB socket (BOOTSEL)
    pico_standoff: float = 4.0  # a bare Pico, wires soldered to the pads on top
    pico_headers: float = 0.0  # how far header pins reach below the board: none on a bare Pico (a Pico H's, 8.5)
    usb: Usb = field(default_factory=Usb)

    # --- the front: window, cover, keys
    window_margin: float = 0.75  # window beyond the active area on each side (checked: 0..1.5)
    window_limit: float = 1.5
    window_chamfer: float = 1.0  # 45 degree flare on the outside, against shading at an angle
    cover: tuple = (1.5, 1.0)  # clear cover in a recess behind the window: overlap, thickness
    keypad: tuple = (69.0, 77.0, 1.0)  # membrane, self-adhesive on the front
    ribbon: tuple = (20.0, 0.4)  # the 8-way ribbon tail: w, thickness
    ribbon_slot: tuple = (22.0, 2.0, 4.0)  # w, h, distance above the keypad's lower edge (under it)
    button_pitch: float = 20.0  # glove-sized: 11.6 caps 20 mm apart
    switch: tuple = (12.0, 12.0, 3.6)  # 12 x 12 tactile switch body
    cap: tuple = (11.6, 6.5, 2.5)  # round cap: diameter, height, how far it stands proud
    button_board: tuple = (60.0, 62.0, 1.6)  # perfboard carrying the six switches
    face_margin: float = 2.0

    # --- piezo sounder, glued in a ring on the front: TDK PS1240P02BT, 12.2 mm across, 6.5 mm
    # high without its pins (TDK's PS series datasheet); docs/hardware.md
    buzzer: tuple = (12.2, 6.5)
    buzzer_wall: float = 1.2
    sound_hole: float = 1.6
    # The sound holes face the archer, and the rain on a stand leaning back: an adhesive waterproof
    # acoustic vent (an ePTFE membrane: diameter, thickness with its adhesive) is stuck over them
    # inside the ring before the piezo, so what runs into them stops there (checked).
    sound_vent: tuple = (10.0, 0.3)

    # --- the clip for the target stand
    leg: tuple = (45.0, 22.0)  # width and thickness of the leg or batten (planed 45 x 22 timber)
    leg_tol: float = 0.5  # a planed leg's thickness within +-0.5 mm: the grip holds over that range
    jaw_fit: float = 0.5
    # The grip: two strips of self-adhesive closed-cell sponge (EPDM or neoprene), w x length x
    # thickness, in recesses in the jaw's floor either side of the screws; the leg pressed onto
    # the hooks squeezes them within the usual working range of such sponge (checked).
    grip_pad: tuple = (9.0, 34.0, 5.0)
    pad_recess: float = 2.7  # how deep the strips sit in the clip's plate (2.3 mm of plate left)
    pad_x: float = 15.5  # each strip's centre from the clip's centre, across the leg
    pad_squeeze: tuple = (0.25, 0.5)  # the compression the sponge works in, as a fraction of its thickness
    arm: float = 4.0
    lip: tuple = (1.5, 3.0)  # the hook at each arm's tip: how far it grips, its thickness
    clip_plate: float = 5.0
    clip_len: float = 40.0
    clip_screws: float = 16.0  # square pattern: the clip also fits turned 90 degrees (a batten)
    clip_screw_head: tuple = (5.6, 2.0)  # M3 pan head inside the tray: diameter, height
    m3_pilot: float = 2.6  # M3 self-tapping into the clip
    switch_reach: float = 15.0  # a thumb's room kept free outside the power switch's opening (checked)
    strap: tuple = (26.0, 3.0)  # slot for a 25 mm strap (round pole, boss strap): length, width

    # --- printing
    bed: tuple = (220.0, 220.0)
    max_overhang: float = 45.0  # degrees from vertical
    max_bridge: float = 10.0


def params_for(display=None, layout=None, battery=None, piezo=None, pins=PINS, **changes):
    """The case for pins.py's configuration; any argument given overrides pins.py."""
    consts = read_pins(pins)
    p = Params(
        display=DISPLAYS[display or consts["DISPLAY"]],
        layout=layout or consts["LAYOUT"],
        battery=BATTERIES[battery or consts["BATTERY"]],
        piezo=consts.get("PIEZO") is not None if piezo is None else piezo,
    )
    return replace(p, **changes)
