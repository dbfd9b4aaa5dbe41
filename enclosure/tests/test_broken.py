"""Each check fails when its parameter is broken on purpose: the checks are not vacuous."""

from dataclasses import replace

import numpy as np
import trimesh

from enclosure import bought, fit, printability
from enclosure.assembly import Assembly, build
from enclosure.params import BATTERIES
from enclosure.shapes import box, xz_prism
from enclosure.tests.variants import assembled, with_components_of


def test_window_too_large_is_reported():
    problems = fit.window(assembled(window_margin=2.0))
    assert len(problems) == 1 and "beyond the active area" in problems[0]


def test_window_just_within_the_limit_passes():
    assert fit.window(assembled(window_margin=1.45)) == []


def test_window_too_small_is_reported():
    problems = fit.window(assembled(window_margin=-0.3))
    assert len(problems) == 1 and "hides part of the active area" in problems[0]


def test_other_display_behind_the_window_is_reported():
    ssd, sh = assembled(display="SSD1306"), assembled(display="SH1106")
    mixed = Assembly(sh.params, sh.layout, ssd.parts, sh.components, sh.sockets)
    assert fit.window(mixed)  # the 1.3" panel behind the window cut for the 0.96" one


def test_too_small_board_gap_is_reported():
    problems = fit.clearance(assembled(board_gap=0.1))
    assert any(p.startswith("pico is closer than 0.3 mm to tray") for p in problems)


def test_stricter_clearance_than_designed_is_reported():
    problems = fit.clearance(assembled(clearance=0.8))
    assert {p.split(" is closer")[0] for p in problems} >= {"pico", "3xAA", "display"}


def test_a_bigger_part_than_the_case_was_made_for_collides():
    fat = replace(BATTERIES["3xAA"], pack=(47.0, 58.0, 19.0))  # a 19 mm holder in a case made for 16 mm
    problems = fit.collisions(with_components_of(assembled(battery="3xAA"), battery=fat))
    assert any(p.startswith("front intersects 3xAA") for p in problems)


def test_usb_socket_out_of_line_is_reported():
    asm = with_components_of(assembled(), pico_standoff=7.0)
    problems = fit.usb(asm)
    assert any("plug into the pico's USB socket hits the tray" in p for p in problems)


def test_thin_walls_are_reported():
    assert fit.walls(assembled(wall=1.6)) == ["wall is 1.6 mm: walls must be at least 2 mm"]


def _mesh(solid, tmp_path):
    from build123d import export_stl

    path = tmp_path / "probe.stl"
    export_stl(solid, str(path))
    return printability.load(path)


def test_steep_overhang_is_reported(tmp_path):
    # A shelf whose underside rises at 30 degrees from horizontal (60 from vertical).
    shelf = xz_prism([(0, 0), (5, 0), (5, 10), (5 + 10, 10 + 10 * np.tan(np.radians(30))), (15, 20), (0, 20)], 0, 10)
    assert printability.overhangs(_mesh(shelf, tmp_path), 45)
    chamfer = xz_prism([(0, 0), (5, 0), (5, 10), (15, 20), (0, 20)], 0, 10)
    assert printability.overhangs(_mesh(chamfer, tmp_path), 45) == []


def test_long_bridge_is_reported(tmp_path):
    def tunnel(span):  # through a block 8 mm deep: the ceiling is span x 8
        return box(0, 30, 0, 8, 0, 10) - box(10, 10 + span, -1, 9, 0, 5)

    assert printability.bridges(_mesh(tunnel(12), tmp_path), 10)
    assert printability.bridges(_mesh(tunnel(8), tmp_path), 10) == []


def test_open_mesh_is_reported():
    mesh = trimesh.creation.box((10, 10, 10))
    mesh.update_faces(np.arange(len(mesh.faces)) > 0)
    assert "the mesh is not watertight" in printability.solid(mesh)


def test_part_too_big_for_the_bed_is_reported():
    mesh = trimesh.creation.box((100, 90, 20))
    assert printability.bed(mesh, (220, 220)) == []
    assert printability.bed(mesh, (95, 95)) == ["100.0 x 90.0 mm does not fit a 95 x 95 mm bed"]


def test_a_case_made_without_the_foam_tape_is_reported():
    """The holder stands on 1 mm of foam tape: a case whose depth left it out has 0.1 mm,
    not the 0.3 mm of clearance, between the holder and the keypad's ribbon (issue 37)."""
    asm = assembled(battery="3xAA")
    taped = asm.params.battery
    old = build(replace(asm.params, battery=replace(taped, tape=0.0)))  # the depth without the tape
    on_tape = bought.components(asm.params, old.layout)  # the holder on its tape in that case
    problems = fit.clearance(Assembly(old.params, old.layout, old.parts, on_tape, old.sockets))
    assert any(p.startswith("3xAA is closer than 0.3 mm to keypad ribbon") for p in problems), problems
    assert fit.clearance(asm) == []


def test_the_switch_in_the_back_behind_the_leg_is_reported():
    """Where the holder's switch was reached before issue 37: through the back, 44 mm up the
    holder and 23.5 mm in from its side; a 45 mm leg in the clip covers it."""
    asm = assembled(battery="3xAA")
    lay = asm.layout
    back = replace(lay, switch=(lay.pack[0] + 23.5, lay.pack[1] + 44.0, 0.0), switch_face="back")
    problems = fit.switch(Assembly(asm.params, back, asm.parts, asm.components, asm.sockets))
    assert "the power switch's opening is behind the leg held by the clip" in " ".join(problems), problems
    assert fit.switch(asm) == []


def test_a_clip_without_its_grip_is_reported():
    """Before issue 37 the jaw was 0.5 mm deeper than the leg and held nothing."""
    asm = assembled()
    bare = [c for c in asm.components if c.name != "grip pad"]
    assert fit.grip(Assembly(asm.params, asm.layout, asm.parts, bare, asm.sockets)) == [
        "the clip has no grip: the 22 mm leg has 0.5 mm of play in its jaw"
    ]
    assert fit.grip(asm) == []


def test_a_grip_pad_squeezed_beyond_its_range_is_reported():
    thin = fit.grip(with_components_of(assembled(), grip_pad=(9.0, 34.0, 3.0)))  # 3 mm sponge, same recess
    assert any("squeezes a grip pad" in p for p in thin), thin
    loose = fit.grip(assembled(pad_recess=4.0))  # recesses 1.3 mm deeper: the strips stand 1.0 mm proud
    assert any("a 21.5 mm leg squeezes a grip pad by 0.00 mm" in p for p in loose), loose


def test_the_old_seam_is_reported():
    """Before issue 37: a 0.3 mm gap (capillary: water climbs it past the 6 mm overlap) and a
    square rim, no drip edge."""
    problems = fit.seam(assembled(fit=0.3, drip=0.0))
    assert problems[0].startswith("the gap between the skirt and the tray is under 1.0 mm"), problems
    assert problems[1].startswith("no drip edge 1.0 mm below the skirt along the underside at x = "), problems
    assert len(problems) == 2


def test_a_narrow_drip_edge_is_reported():
    problems = fit.seam(assembled(drip=0.8))
    assert len(problems) == 1 and problems[0].startswith("no drip edge"), problems


def test_sound_holes_open_into_the_box_are_reported():
    """Before issue 37 the piezo sat straight behind its holes: rain running down the face got in."""
    asm = assembled()
    bare = [c for c in asm.components if c.name != "acoustic vent"]
    problems = fit.sound(Assembly(asm.params, asm.layout, asm.parts, bare, asm.sockets))
    assert len(problems) == 7 and all(p.endswith("opens straight into the box") for p in problems), problems
    small = fit.sound(with_components_of(asm, sound_vent=(6.0, 0.3)))  # a vent short of the outer holes
    assert len(small) == 6, small
    assert fit.sound(asm) == []


def test_a_pico_with_headers_is_reported():
    """The standoffs are 4 mm: a Pico H's pins (8.5 mm below the board) run into the floor, so
    the parts list asks for a bare Pico, wires soldered to its pads."""
    problems = fit.collisions(with_components_of(assembled(), pico_headers=8.5))
    assert any(p.startswith("tray intersects pico header") for p in problems), problems
