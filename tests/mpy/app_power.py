"""The app's battery watch on the virtual Pico (run by test_power.py): a falling VSYS gives
the low mark, then EMPTY mid-match: the message to switch off, no more keys taken, the
panel off and the board's deep sleep asked for after EMPTY_SHOW_MS (not on USB power), a key
showing the message again; the journal intact and the match whole after new batteries. The
`cells` setting: absent, pins.BATTERY's chemistry; NiMH's thresholds once chosen in Settings.
Prints `ALL OK`, or the checks that failed and exits with status 1 (tests/mpy/verdict.py)."""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

from verdict import done, want

from box import app as A
from box.app import App
from box.keys import code
from vpico.board import Board
from vpico.drive import Driver


def mark_shown(b):
    """Pixels of the low-battery mark in the panel's RAM (page 7, columns 114-127)."""
    return bytes(b.panel.ram[7 * 128 + 114 : 7 * 128 + 128])


def wait(d, b, ms):
    end = b.clock.now + ms
    while b.clock.now < end:
        b.clock.now += 500
        d.poll()


def screen_text(app):
    s = app.screen
    return getattr(s, "text", "")


def check_cells(path):
    """The `cells` setting: absent it reads as pins.BATTERY's chemistry (the thresholds of
    before), chosen in Settings it is kept and judged by."""
    from box import battery

    b = Board(path=path)
    app = App(b, strict=True)
    want(app.store.get("cells") is None and app.cells() == "alkaline", app.cells())
    want(app.battery == battery.thresholds("alkaline"), app.battery)
    b.battery_type = "lipo"
    want(App(b, strict=True).cells() == "lipo", "a LiPo box's default")
    b.battery_type = "3xAA"
    d = Driver(app, b)
    app.go(app.settings)
    for _ in range(4):
        d.press(code("8"))  # down to Cells
    d.press(code("6"))  # alkaline -> NiMH
    want(app.store.get("cells") == "nimh", app.store.get("cells"))
    want(app.battery == battery.thresholds("nimh"), app.battery)
    d.press(code("#"))  # saved
    app2 = App(Board(path=path), strict=True)
    want(app2.cells() == "nimh" and app2.battery == battery.thresholds("nimh"), app2.cells())
    app2.store.set("cells", None)
    app2.store.save()
    print("cells", app.cells(), app2.battery)


def main(path):
    b = Board(path=path)
    app = App(b, strict=True)
    app.store.set_roster(["Ann", "Bob"])
    app.store.set("sleep_s", 0)  # the screen dims but stays on: every key below is taken
    d = Driver(app, b)
    blank = mark_shown(b)
    for k in "# # #".split():  # New match, to Start, start: the play screen
        d.press(code(k))
    for k in "A B".split():  # two arrows
        d.press(code(k))
    events = len(app.session.match.log)
    # On USB power the battery is not judged.
    b.usb_powered = lambda: True
    b.battery = 2500
    wait(d, b, 60000)
    want(app.battery_state == A.BAT_OK, app.battery_state)
    del b.usb_powered
    for _ in range(5):  # a sag now and then is not a flat battery
        b.battery = 3200
        wait(d, b, 20000)
        b.battery = 4000
        wait(d, b, 10000)
    want(app.battery_state == A.BAT_OK, "app.battery_state == A.BAT_OK")
    b.battery = 3200  # 3xAA low
    wait(d, b, 15000)
    want(app.battery_state == A.BAT_OK, "app.battery_state == A.BAT_OK")  # one or two readings are not enough
    wait(d, b, 30000)
    want(app.battery_state == A.BAT_LOW, "app.battery_state == A.BAT_LOW")
    want(mark_shown(b) != blank, "no low-battery mark")
    print("low", app.battery_mv)
    b.battery = 3400  # above LOW (3340 for alkaline cells) but within the hysteresis: still low
    wait(d, b, 40000)
    want(app.battery_state == A.BAT_LOW, "app.battery_state == A.BAT_LOW")
    b.battery = 3200
    d.press(code("C"))  # the box still scores while low
    want(len(app.session.match.log) == events + 1, (events, app.session.match.log, app.screen, app.state))
    b.battery = 2800
    wait(d, b, 40000)
    want(app.battery_state == A.BAT_EMPTY and app.halted, "app.battery_state == A.BAT_EMPTY and app.halted")
    want(app.screen is app.msg, app.screen)
    want("Switch off" in screen_text(app) and "change the cells" in screen_text(app), screen_text(app))
    want(b.panel.on and b.deepslept == 0, (b.panel.on, b.deepslept))  # the message shows first
    d.press(code("D"))  # no key is taken any more
    d.press(code("D"))
    want(len(app.session.match.log) == events + 1, "len(app.session.match.log) == events + 1")
    want(app.screen is app.msg, "app.screen is app.msg")
    print("empty", app.battery_mv)
    # The message stays EMPTY_SHOW_MS from the last key, then the panel off and deep sleep.
    wait(d, b, A.EMPTY_SHOW_MS - 1000)
    want(b.panel.on and b.deepslept == 0, (b.panel.on, b.deepslept))
    wait(d, b, 1500)
    want(not b.panel.on and b.deepslept == 1, (b.panel.on, b.deepslept))
    want(app.journal.open_match() is not None, "the match is still open in the journal")
    # Where the board's sleep returns (this one), a key shows the message again, then sleeps.
    d.press(code("5"))
    want(b.panel.on and app.screen is app.msg and len(app.session.match.log) == events + 1, b.panel.on)
    wait(d, b, A.EMPTY_SHOW_MS + 1000)
    want(not b.panel.on and b.deepslept == 2, (b.panel.on, b.deepslept))
    # On USB power (a PC may sync) the box stays awake.
    d.press(code("5"))
    b.usb_powered = lambda: True
    wait(d, b, 2 * A.EMPTY_SHOW_MS)
    want(b.panel.on and b.deepslept == 2, (b.panel.on, b.deepslept))
    del b.usb_powered
    wait(d, b, 1000)
    want(not b.panel.on and b.deepslept == 3, (b.panel.on, b.deepslept))
    # A reboot with new batteries resumes the match where it was: nothing was lost.
    b.battery = 4500
    app2 = App(Board(path=path), strict=True)
    want(
        app2.session.match is not None and len(app2.session.match.log) == events + 1,
        "app2.session.match is not None and len(app2.session.match.log) == events + 1",
    )
    want(app2.screen is app2.play, "app2.screen is app2.play")
    want(app2.session.match.log == app.session.match.log, "the same events")
    check_cells(path)
    done()


main(sys.argv[1])
