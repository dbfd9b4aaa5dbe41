"""A tour of every screen of the firmware on the virtual Pico (run by micropython).

    micropython tests/mpy/app_screens.py FLASH_FILE

Prints `NAME HEX` for each screen visited: the panel's RAM (1024 bytes) at that moment.
tests/both/test_app.py compares them with the golden pictures in tests/golden/NAME.png.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import binascii
import sys

from box.app import App
from box.keys import code
from vpico.board import Board
from vpico.drive import Driver


def main(path):
    b = Board(path=path)
    app = App(b, strict=True)
    app.store.set_roster(["Ann", "Bob", "Cat", "Dan"])
    d = Driver(app, b)

    def shot(name):
        if bytes(b.panel.ram) != bytes(b.display.buf):
            raise RuntimeError("%s: the panel does not hold the frame drawn" % name)
        print(name, binascii.hexlify(b.panel.ram).decode())

    def keys(s):
        for ch in s.split():
            d.press(code(ch))

    shot("home")
    keys("8 8 #")
    shot("storage")
    keys("* 8 8 8 #")
    shot("settings")
    keys("* #")  # back home, New match
    shot("new_match")
    keys("6 6")  # rules: custom
    shot("new_match_custom")
    keys("8 8 8 8 8 8 8 8 8 4 4 4")  # face games 4 -> 1 (to see the new-face prompt)
    keys("8 6 8 6 8 6 6 8 6 6 6 8 6 6 6 6")  # best of 3; A: Ann, Bob; B: Cat, Dan
    shot("new_match_archers")
    keys("8 8 8 8 6 6 6 6 6 6")  # B's shaft 7.6 mm: more than 0.5 mm thicker (TTB-17)
    shot("new_match_shaft_warning")
    keys("# #")  # to Start, start
    shot("play_start")
    # Game 1, A first. A: 5:3 5:2 (claims 5) 1:3
    keys("5 A")
    shot("play_one_arrow")
    keys("B 1 A")
    shot("review")
    # B: 3:3 3:3 (claims 3) 7:1; A: 1:2 (claims 1) 9:3 9:3 (claims 9: a diagonal)
    keys("3 A A 7 C")
    keys("1 B 9 A A")
    shot("play_a_diagonal")
    # B answers: a called shot at 5 flips it (TTB-8, TTB-11), then two misses
    keys("5 #")
    shot("play_calling")
    keys("A")
    shot("play_flipped")  # the flip landed: called shots end (TTB-8), the values are back
    keys("#")  # # at the framed square, which cannot be flipped: refused
    shot("play_refused")
    keys("0 0")
    # A: 2:3 2:3 (claims 2), a flip of 3 (top row); B: 4:3 4:3 (claims 4) 6:0
    keys("2 A A 3 # A 4 A A 6 D")
    shot("game_over")
    keys("#")
    shot("new_face")
    keys("#")
    shot("play_game_2")
    d.long(code("*"))
    shot("home_resume")
    keys("8 #")
    shot("message_match_open")
    keys("# #")  # ok, then Resume
    # Game 2, B first: 7:1 x3; A: 1:3 1:3 2:3; B: 8:0 x3; A: 2:3 (claims 2) 3:3 3:3 (top row)
    keys("7 C C C 1 A A 2 A 8 D D D 2 A 3 A A")
    shot("game_over_2")
    keys("#")
    shot("match_over")
    keys("#")
    shot("match_over_a_confirmed")
    keys("#")
    shot("history")
    keys("#")
    shot("match_detail")
    keys("* * # 8 8 8 8 8 8 8 8 8 8 8 #")  # a new standard match
    # The six buttons: the arrows move the frame, OK opens the value, OK commits.
    keys("left ok")
    shot("buttons_picking")
    keys("right ok")
    shot("buttons_after_arrow")


main(sys.argv[1])
