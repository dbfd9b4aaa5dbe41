"""The help lines follow the board's layout (run by test_app_sound.py):

    micropython tests/mpy/app_layout.py FLASH_FILE

On a board with the keypad the settings screen's bottom line names keypad keys, with the
six buttons it names the buttons; and what it says is what the screen shows. Prints `ALL OK`,
or the checks that failed and exits with status 1 (tests/mpy/verdict.py).
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

import framebuf
from verdict import done, want

from box.app import App
from box.keys import code
from vpico import board as vboard
from vpico.drive import Driver


def bottom_line(b):
    """The panel's last page (rows 56-63), where the help line is drawn."""
    return bytes(b.panel.ram[7 * 128 : 8 * 128])


def drawn(text):
    buf = bytearray(128)
    framebuf.FrameBuffer(buf, 128, 8, framebuf.MONO_VLSB).text(text, 0, 0, 1)
    return bytes(buf)


def settings_help(path, layout, keys):
    b = vboard.Board(path=path, layout=layout)
    app = App(b, strict=True)
    d = Driver(app, b)
    for k in keys.split():
        d.press(code(k))
    want(app.screen is app.settings, app.screen)
    line = bottom_line(b)
    vboard.unmount(b.root)
    b.bdev.close()
    return line


keypad = settings_help(sys.argv[1], "keypad", "8 8 8 #")
buttons = settings_help(sys.argv[1] + ".buttons", "buttons", "down down down ok")
want(keypad == drawn("4/6 change"), keypad)
want(buttons == drawn("< > change"), buttons)
done()
