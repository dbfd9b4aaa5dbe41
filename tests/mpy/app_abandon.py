"""A match opened by mistake is abandoned from Home, on the virtual Pico (run by
tests/both/test_app_abandon.py):

    micropython tests/mpy/app_abandon.py FLASH_FILE

Keyed on the keypad. A Tic Tac BOW match whose only arrow was undone is offered for
abandoning (first kept, then abandoned): it is finished in the journal as {"abandoned": True}
with both confirmations, a reboot comes back to Home, and New match opens the next. A match
with an arrow in effect is not offered and New match still refuses; undone, New match asks
and goes on to the setup. A Try-Tac-Toe game with nothing marked is abandoned too, and its
rules leave the heap; one with a move is not offered. Home's module, with the abandon code,
leaves the heap with the menus. Prints one JSON line of what was seen.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import gc
import json
import sys

from flashbox import FlashBox

from box.app import MENU
from box.keys import code


class Box(FlashBox):
    def home(self):
        """A held *: home, the match stays open. Home's rows then."""
        self.d.long(code("*"))
        return self.seen()

    def seen(self):
        s = self.app.screen
        return [type(s).__name__, list(s.items) if s is self.app.home else None]

    def match(self, n):
        _, events, x = self.app.journal.read_match(n)
        return [events, x["result"], x["confirmed"]]


def main(path):
    box = Box(path)
    app = box.app
    j = app.journal
    got = {}
    box.keys("# # #")  # New match, to Start, start: match 1
    box.keys("5 A *")  # an arrow, undone: nothing in effect
    got["ttb_empty_home"] = box.home()
    box.keys("8 #")  # Abandon match: asked first
    got["asked"] = [app.home.ask, j.open_match() is not None]
    box.keys("*")  # keep it
    got["kept"] = [app.home.ask, j.open_match() is not None]
    box.keys("#")  # Abandon match again, and yes
    box.keys("#")
    got["abandoned"] = box.seen() + [j.open_match(), j.unconfirmed()]
    got["m1"] = box.match(1)
    box.boot()  # a reboot: nothing to resume, nothing to confirm
    app, j = box.app, box.app.journal
    got["rebooted"] = box.seen() + [app.session.match is None]
    box.keys("# # #")  # New match works: match 2
    got["m2_open"] = [box.seen()[0], j.open_match()[0]]
    box.keys("5 A")  # an arrow in effect: not offered, New match refuses
    got["ttb_arrow_home"] = box.home()
    box.keys("8 #")
    got["new_refused"] = [box.seen()[0], app.screen.text]
    box.keys("#")  # OK: home again
    box.keys("#")  # Resume, undo the arrow, home: New match asks, then the setup
    box.keys("*")
    box.home()
    box.keys("8 8 #")
    got["new_asks"] = app.home.ask
    box.keys("#")
    got["new_then"] = [box.seen()[0], j.open_match()]
    box.keys("# #")  # start: match 3
    got["m2"] = box.match(2)
    got["m3_open"] = [box.seen()[0], j.open_match()[0]]
    box.home()
    box.keys("8 #")
    box.keys("#")  # match 3 abandoned at once (nothing keyed ever)
    got["m3"] = box.match(3)
    # Try-Tac-Toe: a game with nothing marked, then one with a move.
    box.keys("# 4 # #")
    got["ttt_open"] = [app.session.game.NAME == "Try-Tac-Toe", "scorebox_core.games.ttt.rules" in sys.modules]
    got["ttt_empty_home"] = box.home()
    box.keys("8 # #")
    got["ttt_abandoned"] = box.seen() + [
        m in sys.modules for m in ("scorebox_core.games.ttt.rules", "scorebox_core.games.ttt.tables")
    ]
    got["m4"] = box.match(4)
    box.keys("# 4 # #")
    box.keys("1 2 #")  # triangle 12 marked for X
    got["ttt_move_home"] = box.home()
    got["m5_events"] = j.open_match()[2]
    # The abandon code lives in box/home.py, in the heap only with the menus: going to a match
    # screen lets Home's screens and module go (done here without loading a match screen).
    gc.collect()
    at_home = gc.mem_alloc()
    app.screen = None
    app.release(MENU)
    gc.collect()
    got["menus_freed"] = at_home - gc.mem_alloc()
    print(json.dumps(got))


main(sys.argv[1])
