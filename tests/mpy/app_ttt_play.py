"""Whole Try-Tac-Toe games keyed on the virtual Pico (run by micropython, as deployed .mpy).

    micropython -X heapsize=192k tests/mpy/app_ttt_play.py FLASH_FILE keypad|buttons GAMES SEED

Each game goes from New match through both matches (TTT-6: O starts the second) to both
confirmations, its moves dealt by tests/support/ttt_game.py: random triangles, misses, undos,
and the box's offer to end a match with no shape possible accepted (TTT-5). The journal's
record of each game must hold exactly the events keyed; it is printed as a JSON line (log,
result, confirmed) for tests/both/test_app_ttt.py to replay with the rules on CPython (the
Pico's heap has no room for a second copy of a game). After every key the heap is
collected and what the app holds is measured. The last line: games, moves, keys_per_move,
undos, heap_peak (bytes).
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import gc
import json
import sys

import ttt_game

gc.collect()
BASE = gc.mem_alloc()  # what the harness holds before the app is made


class Mismatch(Exception):
    pass


def main(path, layout, games, seed):
    from box.app import App
    from box.keys import code
    from vpico.board import Board
    from vpico.drive import Driver

    b = Board(path=path, layout=layout)
    app = App(b, strict=True)
    d = Driver(app, b)
    peak = [0]

    def press(names):
        for name in names:
            d.press(code(name))
            gc.collect()
            live = gc.mem_alloc() - BASE
            if live > peak[0]:
                peak[0] = live

    rnd = ttt_game.Rand(seed)
    t = ttt_game.Tally()
    for i in range(games):
        n, log = ttt_game.play_game(d, app, layout, rnd, t, press)
        if app.screen is not app.home:
            raise Mismatch("game %d: not back home" % i)
        h, events, x = app.journal.read_match(n)
        if h.get("game") != "try-tac-toe" or events != log:
            raise Mismatch("game %d: the journal has %r, the box keyed %r" % (i, events, log))
        print(json.dumps({"header": h, "log": events, "result": x.get("result"), "confirmed": x.get("confirmed")}))
        del h, events, x, log
    out = {
        "games": t.games,
        "moves": t.moves,
        "undos": t.undos,
        "keys_per_move": t.keys / t.moves,
        "heap_peak": peak[0],
    }
    print(json.dumps(out))


main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
