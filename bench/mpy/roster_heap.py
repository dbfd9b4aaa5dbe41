"""Runs on MicroPython (the virtual Pico, .mpy, -X heapsize=192k): what a roster of N names
costs the box. argv: flash file, N. Prints one JSON object: the roster's bytes, the heap free
at the home screen and at the new-match screen, and after picking two names."""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import gc
import json
import sys

from box.app import App
from box.keys import code
from box.store import Store
from vpico.board import Board
from vpico.drive import Driver

n = int(sys.argv[2])
b = Board(path=sys.argv[1])
Store(b.root).set_roster(["Archer %05d" % i for i in range(n)])  # 12 characters, the most
gc.collect()
st = Store(b.root)
gc.collect()
before = gc.mem_alloc()
st.roster()
gc.collect()
roster_bytes = gc.mem_alloc() - before
st = None
app = App(b, strict=True)
d = Driver(app, b)
gc.collect()
home = gc.mem_free()
d.press(code("#"))  # New match
gc.collect()
setup = gc.mem_free()
for k in "8 8 4 8 8 4".split():  # A: the last name; B: the last name
    d.press(code(k))
gc.collect()
print(json.dumps({"roster_bytes": roster_bytes, "free_home": home, "free_setup": setup, "free_picked": gc.mem_free()}))
