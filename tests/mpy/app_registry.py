"""Which modules the box holds during a match of each game, on the virtual Pico (run by
tests/pc/test_registry.py):

    micropython tests/mpy/app_registry.py FLASH_FILE

Keyed on the keypad: a Tic Tac BOW match opened and an arrow keyed, abandoned from Home; a
Try-Tac-Toe game opened and a triangle marked, abandoned. After each step it records the
loaded modules of the firmware's packages (box, scorebox_core): only the game played may have
its modules in sys.modules. Prints one JSON line.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import gc
import json
import sys

from flashbox import FlashBox

from box.keys import code


def loaded():
    gc.collect()
    return sorted(m for m in sys.modules if m.startswith("box.") or m.startswith("scorebox_core."))


def main(path):
    box = FlashBox(path)
    got = {"home": loaded()}
    box.keys("# # #")  # New match, to Start, start: Tic Tac BOW, the first preset
    box.keys("5 A")  # an arrow in square 5
    got["ttb_match"] = loaded()
    got["ttb_screen"] = type(box.app.screen).__name__
    box.keys("*")  # undone: the match can be abandoned
    box.d.long(code("*"))  # home, the match open
    box.keys("8 # #")  # Abandon match, yes
    got["ttb_closed"] = loaded()
    box.keys("# 4 # #")  # New match, the preset to Try-Tac-Toe (the last), to Start, start
    box.keys("1 2 #")  # triangle 12 marked for X
    got["ttt_match"] = loaded()
    got["ttt_screen"] = type(box.app.screen).__name__
    box.keys("*")  # undone
    box.d.long(code("*"))
    box.keys("8 # #")
    got["ttt_closed"] = loaded()
    got["journal"] = [box.app.journal.read_match(n)[2]["result"] for n in (1, 2)]
    print(json.dumps(got))


main(sys.argv[1])
