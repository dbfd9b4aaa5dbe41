"""The battery's figures per chemistry (docs/power.md): pure, no hardware.

The box judges VSYS, the cells less the Schottky diode's 0.2 V in the + lead
(docs/hardware.md), as the board's battery_mv() reads it with the ADC's known offset taken
out (boards/pico.py). The chemistry is a setting (`cells`, box/home.py's Settings): absent,
it is pins.BATTERY's, as before the setting ("3xAA": alkaline, "lipo": LiPo).
"""

DIODE_MV = 200  # the Schottky diode at a few mA (docs/hardware.md, tools/battery_life.py)

# mV a cell under the box's few mA: cells in series, then EMPTY (stop), LOW (the mark), half
# the usable charge taken, full. The usual shapes (tools/battery_life.py's curves for the
# alkaline and the LiPo); NiMH (low self-discharge, Eneloop-like) sits near 1.25 V for most
# of its charge and falls off a cliff below 1.15 V.
CELLS = {
    "alkaline": (3, 1050, 1180, 1240, 1550),
    "nimh": (3, 1100, 1180, 1250, 1320),
    "lipo": (1, 3250, 3450, 3780, 4150),
}
CHOICES = ("alkaline", "nimh", "lipo")  # the setting's values, in the Settings screen's order
LABELS = {"alkaline": "alkaline", "nimh": "NiMH", "lipo": "LiPo"}


def chemistry(setting, battery_type):
    """The chemistry judged: the setting's, or where it is absent (None) pins.BATTERY's."""
    if setting in CELLS:
        return setting
    return "lipo" if battery_type == "lipo" else "alkaline"


def thresholds(name):
    """(EMPTY, LOW, half, full) in mV at VSYS for a chemistry."""
    c = CELLS[name]
    n = c[0]
    return (n * c[1] - DIODE_MV, n * c[2] - DIODE_MV, n * c[3] - DIODE_MV, n * c[4] - DIODE_MV)


def percent(mv, t):
    """A rough charge left, 0-100, from VSYS in mV and thresholds t: linear from EMPTY to
    half and from half to full (a cell's voltage falls faster near both ends)."""
    empty, _, half, full = t
    if mv <= empty:
        return 0
    if mv >= full:
        return 100
    if mv < half:
        return (mv - empty) * 50 // (half - empty)
    return 50 + (mv - half) * 50 // (full - half)
