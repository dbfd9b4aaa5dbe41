"""A Noughts and Crosses game keyed on the virtual Pico (tests/both/test_third_game_box.py),
the game installed beside the firmware (tests/games on MICROPYPATH):

    micropython tests/mpy/app_xo_play.py FLASH_FILE keypad|buttons

From Home: New match, the rules row to its preset (the last), Start; then X 5, O 1, a power
cut and the game resumed, X a miss, O 5 (X's already: marks nothing), X 3, O 9, X 8 undone,
X 7: X wins along 3-5-7; both confirm, its history detail, and back home. Prints one JSON line: the journal's
record of the game, the screens on the way and the modules loaded during the game and after.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import gc
import json
import sys

from flashbox import FlashBox

KEYS = {
    "keypad": {
        "start": "# 4 # #",
        "first": "5 # 1 #",
        "play": "D 5 # 3 # 9 # 8 # * 7 #",
        "confirm": "# #",
        "detail": "#",
        "home": "* *",
    },
    "buttons": {
        "start": "ok left ok ok",
        "first": "ok up left ok",
        "play": "up up ok down down ok up right ok down down ok left ok back left ok",  # from 5 again
        "confirm": "ok ok",
        "detail": "ok",
        "home": "back back",
    },
}
# The other games' packages: none of their modules during this game's match.
OTHERS = ("scorebox_core.games.ttb", "scorebox_core.games.ttt", "box.games.ttb", "box.games.ttt")


def loaded():
    gc.collect()
    return sorted(m for m in sys.modules if m.startswith(("box.", "scorebox_core.", "scorebox_game_")))


def main(path, layout):
    keys = KEYS[layout]
    box = FlashBox(path, layout)
    got = {}
    box.keys(keys["start"])
    got["playing"] = type(box.app.screen).__name__
    box.keys(keys["first"])
    box.boot()  # a power cut: the game comes back from the journal
    got["resumed"] = [type(box.app.screen).__name__, list(box.app.session.match.events)]
    box.keys(keys["play"])
    got["over"] = type(box.app.screen).__name__
    got["match"] = loaded()
    got["others"] = [m for m in got["match"] if m.startswith(OTHERS)]
    box.keys(keys["confirm"])
    got["confirmed"] = type(box.app.screen).__name__
    got["closed"] = loaded()
    box.keys(keys["detail"])  # the game in history: its own lines (its HISTORY)
    got["detail"] = box.app.detail.lines
    box.keys(keys["home"])
    got["home"] = box.app.screen is box.app.home
    got["after"] = loaded()
    h, events, extras = box.app.journal.read_match(1)
    got["journal"] = {
        "header": h,
        "events": events,
        "result": extras.get("result"),
        "confirmed": extras.get("confirmed"),
    }
    print(json.dumps(got))


main(sys.argv[1], sys.argv[2])
