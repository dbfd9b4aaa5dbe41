"""Journal figures on MicroPython and LittleFS2 with the Pico's geometry (bench/bench_journal.py).

    micropython -X heapsize=64M tests/mpy/journal_bench_fill.py

Typical matches (30 arrows, tests/support/jt.py) are written to a fresh 1408 KiB
flash until the journal refuses one: bytes per match as os.statvfs counts them (after
500, 1000 and 2000 matches), how many matches fit, where the 90% warning came, and the time one arrow
takes to commit (write + flush; the RAM block device is Python code here, the Pico's is
C) over the first 2,000 matches, then to the warning, then past it (LittleFS looks harder
for a free block on a nearly full flash). Prints `RESULT {json}`.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import os
import time

import jt

from box.journal import Journal, JournalFull


def main():
    jt.fresh()
    j = Journal(jt.ROOT)
    j.recover()
    free0 = os.statvfs(jt.ROOT)[3]
    per = {}  # matches written: flash bytes a match, from the empty journal
    warn_at = None
    n = 0
    t_append = [0, 0, 0]  # first 2000 matches, then up to the 90% warning, then past it
    appends = [0, 0, 0]
    t0 = time.ticks_ms()
    while True:
        h, evs, res = jt.typical(n)
        try:
            j.start_match(h)
        except JournalFull as e:
            reason = str(e)
            break
        phase = 0 if n < 2000 else (1 if warn_at is None else 2)
        for ev in evs:
            t = time.ticks_us()
            j.append(ev)
            t_append[phase] += time.ticks_diff(time.ticks_us(), t)
            appends[phase] += 1
        j.finish(res)
        j.confirm(0)
        j.confirm(1)
        n += 1
        if n in (500, 1000, 2000):
            per["%d" % n] = (free0 - os.statvfs(jt.ROOT)[3]) * 4096 / n
        if warn_at is None and n % 10 == 0 and j.space()["warn"]:
            warn_at = n
    sp = j.space()
    jt.emit(
        {
            "bytes_per_match": per,
            "capacity": n,
            "warn_at": warn_at,
            "reason": reason,
            "commit_us": [t_append[i] / appends[i] for i in range(3)],
            "seconds": time.ticks_diff(time.ticks_ms(), t0) / 1000,
            "space_when_full": sp,
        }
    )


main()
