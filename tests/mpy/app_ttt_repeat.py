"""Held digit keys on the play screens, on the virtual Pico (run by tests/both/test_app_ttt_repeat.py):

    micropython tests/mpy/app_ttt_repeat.py FLASH_FILE

2, 4, 6 and 8 repeat after 0.5 s held (they are up/down/left/right in the menus). On
Try-Tac-Toe's number entry a held digit is one digit: 2 held 0.6 s then # marks triangle 2,
not 22. On Tic Tac BOW's play screen a held digit frames its square again: nothing keyed.
The repeats stay where they move something: Home's rows, and the six buttons' cursor.
Each part on a fresh box (FLASH_FILE and two files beside it). Prints one JSON line.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import json
import sys

from flashbox import FlashBox

from box.keys import code


class Box(FlashBox):
    def events(self):
        return self.app.journal.open_match()[2]


def main(path):
    got = {}
    box = Box(path)  # first: its screens leave the heap at home, before Try-Tac-Toe's load
    box.keys("# # #")  # New match, to Start, start (Tic Tac BOW)
    box.keys("2~1200")
    got["ttb_held"] = [box.app.play.sel, box.events()]
    box.keys("A 8~600 A")
    got["ttb"] = box.events()
    box.d.long(code("*"))  # home: a held 8 moves down a row, then one more for the repeat
    box.keys("8~600")
    got["home_sel"] = box.app.home.sel

    box = Box(path + ".ttt")
    box.keys("# 4 # #")  # New match, Try-Tac-Toe, start
    box.keys("2~600")
    got["typed"] = [box.app.play.typed, box.app.play.sel]
    box.keys("#")
    box.keys("1 4~1200 #")  # 1, then 4 held through several repeats: 14
    box.keys("8~1200 #  6~600 #")
    got["ttt"] = box.events()

    box = Box(path + ".btn", "buttons")
    box.keys("ok left ok ok")  # New match, Try-Tac-Toe, start
    start = box.app.play.sel
    box.keys("right~600")  # a step, and one more for the repeat
    got["cursor"] = [start, box.app.play.sel]
    print(json.dumps(got))


main(sys.argv[1])
