"""Runs on MicroPython: Try-Tac-Toe's board tables at import (time, heap) and the move with
its shape check (time per move, peak heap of a game).

argv: events file (JSON {"games": [[...], ...]}). Prints one JSON object of figures.
"""

import gc
import json
import sys
import time

with open(sys.argv[1]) as f:
    data = json.load(f)
games = data["games"]
gc.collect()
base = gc.mem_alloc()
t0 = time.ticks_us()
from scorebox_core.games.ttt import board  # noqa: E402, F401  (timed: the placements are computed here)

import_us = time.ticks_diff(time.ticks_us(), t0)
gc.collect()
board_heap = gc.mem_alloc() - base

from scorebox_core.games.ttt.rules import Game  # noqa: E402

# Time: one move (mark, shape check, tallies, end checks) over whole two-match games.
n = 0
t0 = time.ticks_us()
for events in games:
    g = Game()
    for ev in events:
        g.apply(ev)
    n += len(events)
us = time.ticks_diff(time.ticks_us(), t0) / n

# Heap: the live game plus what one move allocates, at its most.
g = None
gc.collect()
base = gc.mem_alloc()
g = Game()
peak = 0
for ev in games[0]:
    gc.collect()
    g.apply(ev)
    peak = max(peak, gc.mem_alloc() - base)
print(json.dumps({"us_per_move": us, "import_us": import_us, "board_heap": board_heap, "heap_peak": peak, "n": n}))
