"""The whole box for one set of parameters: printed parts, bought parts, and the screws it takes."""

from dataclasses import dataclass

from enclosure import bought, printed
from enclosure.layout import STANDARD_LENGTHS, corner_screw, plan

__all__ = ["STANDARD_LENGTHS", "Assembly", "build", "hardware", "screw"]


@dataclass(frozen=True)
class Assembly:
    params: object
    layout: object
    parts: dict  # name -> solid, as assembled
    components: list  # bought.Component
    sockets: list  # bought.Socket


def build(p):
    lay = plan(p)
    return Assembly(p, lay, printed.parts(p, lay), bought.components(p, lay), bought.sockets(p, lay))


def screw(clamp, room, engage_min):
    """The longest standard length that fits the hole (`room` under the head) and bites `engage_min`
    past the `clamp`ed thickness."""
    fits = [n for n in STANDARD_LENGTHS if n <= room]
    if not fits or fits[-1] - clamp < engage_min:
        raise ValueError("no standard screw: %.1f mm clamped, %.1f mm of hole" % (clamp, room))
    return fits[-1]


def hardware(p, lay):
    """(quantity, item) for everything besides the electronics and the printed parts."""
    insert_d, insert_len = p.m3_insert
    _, corner = corner_screw(p, lay.depth)  # its counterbore as deep as that length needs
    disp = p.display
    display_board = disp.board[2]
    display_hole = disp.glass[2] + disp.tape + p.plate - 0.8
    pilot_floor = p.wall - 0.8  # the M2 pilots go on into the floor or the plate, 0.8 short of the outside
    rows = [
        (4, "M3 x %d socket head screw (corners, from the back)" % corner),
        (4, "M3 x %.1f heat-set insert, %.1f mm hole (front shell corners)" % (insert_len, insert_d)),
        (4, "M3 x %d pan head screw, self-tapping into the clip" % screw(p.wall, p.wall + p.clip_plate - 1, 3.0)),
        (4, "M2 x %d self-tapping screw (Pico)" % screw(p.pico[2], p.pico[2] + p.pico_standoff + pilot_floor, 3.0)),
        (4, "M2 x %d self-tapping screw (display)" % screw(display_board, display_board + display_hole, 2.0)),
        (1, "clear cover, 1 mm PETG or polycarbonate sheet, %.1f x %.1f mm" % bought.cover_size(p)),
        (
            2,
            "self-adhesive closed-cell sponge strip (EPDM or neoprene), %g mm thick, cut %g x %g mm (the clip's grip)"
            % (p.grip_pad[2], p.grip_pad[0], p.grip_pad[1]),
        ),
        (1, "25 mm hook-and-loop strap, 40 cm (round pole or boss; optional)"),
        (
            len(bought.sockets(p, lay)),
            "micro-USB dust plug, silicone, in the socket while no cable is in (rain)",
        ),
        (1, "double-sided foam tape, 1 mm, for the %s" % ("holder" if p.battery.kind == "3xAA" else "cell and TP4056")),
    ]
    if p.piezo:
        rows.append(
            (1, "adhesive waterproof acoustic vent (ePTFE), %g mm across, over the sound holes" % p.sound_vent[0])
        )
    if p.layout == "buttons":
        t = p.button_board[2]
        room = t + lay.depth - lay.button_board_z + p.plate - 0.8
        rows.insert(5, (4, "M2 x %d self-tapping screw (button board)" % screw(t, room, 3.0)))
        rows.insert(6, (6, "round cap for 12 x 12 mm tactile switch, %.1f mm" % p.cap[0]))
    return rows
