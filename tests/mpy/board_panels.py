"""The box on each panel the Pico binding drives (run by micropython, from test_panels.py).

The firmware's own driver for the panel (firmware/lib) sends to the virtual Pico's BusPanel,
a model of that controller decoding the bytes on I2C (vpico/board.py). The demo match of
Tic Tac BOW (docs/demo.keys) and a Try-Tac-Toe match are keyed in on each panel; after every
frame the glass must show what the box drew, and the same frames as on the SH1106, pins.py's
reference. Then the bus itself: what each controller would make of another's driver.
Checks print `ok NAME`; the script ends with `ALL OK` or exits with status 1 (verdict.py).
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import gc

import ttt_game
from verdict import done, want

from box.app import App
from box.display import Display
from box.keys import code
from vpico import keyscript
from vpico.blockdev import RamBlockDev
from vpico.board import Board, BusPanel
from vpico.drive import Driver

KINDS = ("SH1106", "SSD1309", "SSD1306")  # the reference first
DEMO = path_setup._ROOT + "/docs/demo.keys"


def ttt_match(app, d):
    """Try-Tac-Toe (TTT-2: players; TTT-5: played until no shape is possible, then ended)."""
    d.keys("#4")  # New match; rules: left from standard is Try-Tac-Toe
    for k in "8 8 8 8 6 6 6 6 6 6 6 6 8 6 8 6 6 8 6 6 6 8 6 6 6 6".split():
        d.press(code(k))
    d.keys("##")
    for ev in ttt_game.until_dead(app.session.match):
        d.keys(ttt_game.keypad_keys(ev))
    d.keys("##")


def frames(kind, game):
    """Every frame the glass of a `kind` panel showed over the game's match."""
    gc.collect()  # the last board's flash
    b = Board(bdev=RamBlockDev(blocks=96, block_size=4096), display=kind)  # a new, blank flash
    app = App(b, strict=True)
    app.store.set_roster(["Ann", "Bob", "Cat", "Dan"])
    got = []

    def on_frame(p):
        if want(bytes(p.ram) == bytes(b.display.buf), "%s %s frame %d: not the frame drawn" % (kind, game, len(got))):
            got.append(bytes(p.ram))

    d = Driver(app, b, on_frame)
    if game == "ttb":
        keyscript.play(DEMO, d)
    else:
        ttt_match(app, d)
    p = b.panel
    want(p.lit() and p.unknown == 0 and p.level == 255, (kind, p.on, p.pump, p.unknown, p.level))
    return got


def check_matches():
    for game in ("ttb", "ttt"):
        ref = frames(KINDS[0], game)
        want(len(set(ref)) > 10, "%s: the match shows many different screens" % game)
        for kind in KINDS[1:]:
            got = frames(kind, game)
            same = len(got) == len(ref) and all(g == r for g, r in zip(got, ref))
            want(
                same,
                "%s %s: %d frames, %d differ from the SH1106's %d"
                % (kind, game, len(got), sum(g != r for g, r in zip(got, ref)), len(ref)),
            )
        print("ok frames", game, len(ref))


def on_bus(kind, driver, locked=False):
    """A driver class into a `kind` controller: the bus model and a frame sent through it."""
    bus = BusPanel(kind, locked=locked)
    disp = Display(driver(bus, bus.addr))
    disp.fb.fill(0)
    disp.fb.text("10", 0, 0, 1)
    disp.show()
    return bus, disp


def check_bus():
    from sh1106 import SH1106
    from ssd1306 import SSD1306, SSD1309

    bus, disp = on_bus("SSD1309", SSD1309, locked=True)  # locked by a program before the box
    want(
        bus.lit() and not bus.locked and bytes(bus.ram) == bytes(disp.buf), "the SSD1309 driver unlocks a locked panel"
    )
    bus, _ = on_bus("SSD1309", SSD1306, locked=True)
    want(not bus.on and not any(bus.ram), "a locked SSD1309 takes nothing from the SSD1306's sequence")
    bus, disp = on_bus("SSD1309", SSD1306)
    want(bus.unknown == 1 and bytes(bus.ram) == bytes(disp.buf), bus.unknown)  # 0x8D: no SSD1309 command
    bus, _ = on_bus("SSD1306", SSD1309)
    want(bus.on and not bus.lit() and bus.unknown == 1, (bus.on, bus.unknown))  # no charge pump; 0xFD unknown
    bus, disp = on_bus("SH1106", SSD1309)
    want(bytes(bus.ram) != bytes(disp.buf) and bus.unknown > 0, bus.unknown)  # no horizontal addressing on an SH1106
    for kind, drv in (("SH1106", SH1106), ("SSD1309", SSD1309), ("SSD1306", SSD1306)):
        bus, disp = on_bus(kind, drv)
        want(bus.lit() and bus.unknown == 0 and bytes(bus.ram) == bytes(disp.buf), kind)
    print("ok bus")


check_bus()
check_matches()
done()
