"""The box's capacity figure (issue 22's leftover of issue 21, item 14): 256 bytes a match,
or the journal's measured average when its matches are larger, as the PC counts it
(host_tools/scorebox/device/space.py). Short matches (a demo match is about 150 bytes)
made the box's own figure jump up, past what the flash holds with matches of a typical
size, while the PC's stayed. The box's Journal on a RAM flash of the Pico's geometry.

Prints the space reports as JSON lines (SPACE {...}) for the test to compare with the PC's
figure; exits 1 if a check failed (tests/mpy/verdict.py).

    micropython -X heapsize=4m tests/mpy/journal_capacity.py
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import json

import jt
from verdict import done, want

from box.journal import Journal

jt.fresh()
j = Journal(jt.ROOT)
j.recover()
first = j.space()
print("SPACE", json.dumps(first))
for seed in range(1, 7):  # short matches: 4 arrows, the journal measures them from the 4th on
    evs, m = jt.play(seed, arrows=4, face=False)
    jt.write(j, {"options": m.opts.to_dict(), "archers": [["A"], ["B"]]}, evs, jt.result(m))
    sp = j.space()
    print("SPACE", json.dumps(sp))
    want(sp["matches_left"] <= first["matches_left"], "the figure went up: %r" % sp)
    want(sp["matches_left"] <= sp["blocks"] * sp["block_size"] // 256, "more than the flash over 256: %r" % sp)
size = j._fin[0] // j._fin[1]
want(size < 200, "short matches: %d bytes each" % size)
done()
