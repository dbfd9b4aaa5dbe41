"""A tour of Try-Tac-Toe's screens on the virtual Pico (run by micropython).

    micropython tests/mpy/app_ttt_screens.py FLASH_FILE

Prints `NAME HEX` for each screen visited (the panel's RAM, 1024 bytes), as
app_screens.py does; tests/both/test_app_ttt.py compares them with tests/golden/ttt_*.png.
The moves come from ttt_game.py's dealer, so the tour is the same on every run.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import binascii
import sys

import ttt_game

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

    keys("# 4")  # New match; rules: left from standard is Try-Tac-Toe
    shot("ttt_new_match")
    keys("8 8 8 8 6 6 6 6 6 6 6 6 8 6 8 6 6 8 6 6 6 8 6 6 6 6")  # moves 80; X: Ann, Bob; O: Cat, Dan (TTT-2)
    shot("ttt_new_match_players")
    keys("# #")
    shot("ttt_start")
    keys("3")
    shot("ttt_typing")  # triangle 3 selected while the number is keyed
    keys("1 #")  # X1 (Ann) marks 31
    shot("ttt_one_mark")
    keys("3 1 #")  # O1 (Cat) on 31: refused, with the rules' reason
    shot("ttt_refused")
    keys("4 4 # 3 0 # D 3 2 # 4 5 #")  # O1 44, X2 30, O2 misses, X1 32, O1 45
    keys("1 8 #")  # X2 18: with 30, 31, 32 a triangle, worth 3 (TTT-3, TTT-4)
    shot("ttt_shapes")
    keys("C")
    shot("ttt_end_asked")
    keys("*")
    # The six buttons: the cursor moves between neighbours, off the face to miss / end.
    keys("up up")
    shot("ttt_cursor_miss")
    keys("right")
    shot("ttt_cursor_end")
    keys("down left ok")
    shot("ttt_buttons_mark")
    # On to a board with no shape possible for either side (TTT-5): the box offers to end.
    g = app.session.match
    for ev in ttt_game.until_dead(g):
        for ch in ttt_game.keypad_keys(ev):
            d.press(code(ch))
    shot("ttt_dead_offer")
    keys("#")
    shot("ttt_match_end")
    keys("#")  # match 2: O starts (TTT-6), with O1; X's turns start at X2
    shot("ttt_match_2")
    g = app.session.match
    for ev in ttt_game.until_dead(g):
        for ch in ttt_game.keypad_keys(ev):
            d.press(code(ch))
    keys("#")
    shot("ttt_game_over")
    keys("#")
    shot("ttt_game_over_x_confirmed")
    keys("#")
    shot("ttt_history")
    keys("#")
    shot("ttt_detail")


main(sys.argv[1])
