"""The case follows firmware/pins.py, and the hardware list names standard screws."""

from enclosure.assembly import STANDARD_LENGTHS, hardware
from enclosure.params import PINS, params_for, read_pins
from enclosure.tests.variants import VARIANTS, assembled


def test_pins_constants_are_read_without_importing_the_firmware():
    consts = read_pins()
    assert consts["DISPLAY"] in ("SH1106", "SSD1309", "SSD1306")
    assert consts["LAYOUT"] in ("keypad", "buttons")
    assert consts["BATTERY"] in ("3xAA", "lipo")
    p = params_for()
    assert (p.display.name, p.layout, p.battery.kind, p.piezo) == (
        consts["DISPLAY"],
        consts["LAYOUT"],
        consts["BATTERY"],
        consts["PIEZO"] is not None,
    )


def test_another_pins_file_gives_another_case(tmp_path):
    text = PINS.read_text()
    for old, new in (
        ('DISPLAY = "SH1106"', 'DISPLAY = "SSD1309"'),
        ('LAYOUT = "keypad"', 'LAYOUT = "buttons"'),
        ('BATTERY = "3xAA"', 'BATTERY = "lipo"'),
        ("PIEZO = 20", "PIEZO = None"),
    ):
        text = text.replace(old, new)
    pins = tmp_path / "pins.py"
    pins.write_text(text)
    p = params_for(pins=pins)
    assert (p.display.name, p.layout, p.battery.kind, p.piezo) == ("SSD1309", "buttons", "lipo", False)


def test_hardware_lists_standard_screws():
    for v in VARIANTS:
        asm = assembled(*v)
        for _qty, item in hardware(asm.params, asm.layout):
            if item.startswith(("M2 x", "M3 x")) and "screw" in item:
                assert int(item.split(" x ")[1].split()[0]) in STANDARD_LENGTHS, (v, item)


def test_the_lipo_has_room_to_swell_and_its_charger_is_kept_apart():
    """A pouch cell swells as it ages and warms: its envelope in the case is the cell with 2 mm
    kept free above it (the fit checks keep every part out of it), and the TP4056, warm while
    it charges, sits 3 mm further from it than a board's usual gap."""
    for layout in ("keypad", "buttons"):
        asm = assembled(layout, "SH1106", "lipo")
        b = asm.params.battery
        assert b.pack == (34.0, 50.0, 5.0) and b.swell >= 2.0  # a "503450" cell is 5.0 mm
        parts = {c.name: c.solid.bounding_box() for c in asm.components}
        cell, charger = parts["lipo"], parts["TP4056"]
        assert cell.max.Z - cell.min.Z == 5.0 + b.swell
        assert cell.min.Y - charger.max.Y >= asm.params.board_gap + 3.0


def test_the_piezo_is_a_real_part():
    """TDK's PS1240P02BT, a piezo sounder with no oscillator inside: 12.2 mm across, 6.5 mm high."""
    asm = assembled()
    assert asm.params.buzzer == (12.2, 6.5)
    piezo = next(c for c in asm.components if c.name == "piezo").solid.bounding_box()
    assert round(piezo.max.X - piezo.min.X, 3) == 12.2 and round(piezo.max.Z - piezo.min.Z, 3) == 6.5
