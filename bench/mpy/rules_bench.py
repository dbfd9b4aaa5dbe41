"""Runs on MicroPython: time per arrow and peak heap of the rules core.

argv: events file (JSON {"options": {...}, "matches": [[...], ...], "game60": [...]}).
Prints one JSON object of figures.
"""

import gc
import json
import sys
import time

from scorebox_core.games.ttb.rules import Match, Options
from scorebox_core.games.ttb.snapshot import squares

with open(sys.argv[1]) as f:
    data = json.load(f)
opts = Options.from_dict(data["options"])

# Time: apply one arrow and derive the board, over random best-of-9 matches.
n = 0
t0 = time.ticks_us()
for events in data["matches"]:
    m = Match(opts)
    for ev in events:
        m.apply(ev)
        squares(m.game)
    n += len(events)
us = time.ticks_diff(time.ticks_us(), t0) / n

# Heap: collect before each event, read the heap after it: the live match plus what the
# one event allocated, whose maximum is the most the replay ever needs at once.
game = data["game60"]
m = None
gc.collect()
base = gc.mem_alloc()
m = Match()
peak = 0
for ev in game:
    gc.collect()
    m.apply(ev)
    squares(m.game)
    peak = max(peak, gc.mem_alloc() - base)
print(json.dumps({"us_per_arrow": us, "heap_peak": peak, "arrows": len(game)}))
