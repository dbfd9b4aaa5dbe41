"""Runs on MicroPython: the undo storms of bench/bench_undo_storm.py through the rules core,
the Tic Tac BOW script read as `scorebox replay` reads it and the Try-Tac-Toe game folded as
the box resumes it from its journal: the time, and the heap the folded game holds.

argv: JSON file {"ttb": [script lines], "ttt": [events]}. Prints one JSON object of figures.
"""

import gc
import json
import sys
import time

from scorebox_core.games.ttb.script import read_lines
from scorebox_core.games.ttt.rules import Game

with open(sys.argv[1]) as f:
    data = json.load(f)
out = {}
for name, fold in (("ttb", read_lines), ("ttt", lambda events: Game.replay(events, lenient=True))):
    got = None
    gc.collect()
    base = gc.mem_alloc()
    t0 = time.ticks_us()
    got = fold(data[name])
    out[name + "_us"] = time.ticks_diff(time.ticks_us(), t0)
    gc.collect()
    out[name + "_heap"] = gc.mem_alloc() - base
    out[name + "_log"] = len(got.log)
print(json.dumps(out))
