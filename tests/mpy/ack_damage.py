"""A damaged journal.ack is quarantined once, not at every boot (issue 13, item 19): it is
rewritten with what could be read, so the next boot finds it sound. The box's own Journal
on a RAM flash with the Pico's geometry. Prints `ok NAME` per check, then ALL OK, or exits
with status 1 (verdict.py).

    micropython -X heapsize=4m tests/mpy/ack_damage.py
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import os

import jt
from verdict import done, want

from box.journal import Journal
from scorebox_core.journal import ACK_FILE, QUARANTINE_FILE

jt.fresh()
j = Journal(jt.ROOT)
j.recover()
for seed in (1, 2, 3):
    jt.write(j, *jt.typical(seed))
j.ack([1])
j.close()
path = jt.ROOT + "/" + ACK_FILE
with open(path, "rb") as f:
    data = bytearray(f.read())
data[len(data) // 2] ^= 0x40  # one flipped bit inside the acknowledgement record
with open(path, "wb") as f:
    f.write(data)


def qsize():
    try:
        return os.stat(jt.ROOT + "/" + QUARANTINE_FILE)[6]
    except OSError:
        return 0


def check(name, ok):
    if want(ok, name):
        print("ok", name)


sizes = []
for boot in range(3):
    j = Journal(jt.ROOT)
    rep = j.recover()
    sizes.append(qsize())
    if boot == 0:
        check("first boot quarantines the damaged ack file", rep["quarantined"] > 0 and sizes[0] > 0)
    else:
        check("boot %d finds it sound" % (boot + 1), rep["quarantined"] == 0 and not rep["damage"])
    j.close()
check("the quarantine does not grow", sizes[0] == sizes[1] == sizes[2])
j = Journal(jt.ROOT)
j.recover()
check("matches still listed, numbering goes on", j.list_matches() == [1, 2, 3] and j.last() == 3)
done()
