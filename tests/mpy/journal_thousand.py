"""1,000 matches written and read back on LittleFS2 (run by tests/both/test_journal_mpy.py).

    micropython -X heapsize=64M tests/mpy/journal_thousand.py OUTDIR [COUNT]

Writes COUNT (1000) matches - typical ones, best-of-3 ones, with notes and face records -
checks every one read back (iter_matches, read_match, and again after a reboot), then
copies the journal's files to OUTDIR on the host with, per match, the canonical text of
what MicroPython read (OUTDIR/mpy_view.txt), for CPython to decode and compare. Prints
`RESULT {json}` with the flash used and the time taken.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import os
import sys
import time

import jt

from box.journal import Journal

OUT = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 1000


def spec(seed):
    """What match `seed` is: (header, events, result, notes)."""
    games = 3 if seed % 7 == 0 else 1
    evs, m = jt.play(seed, 30 if games == 1 else 50, games)
    notes = [{"time": seed}] if seed % 5 == 0 else []
    return jt.header(seed, games), evs, jt.result(m), notes


def canon_match(n, h, evs, x):
    return jt.canon([n, h, evs, x["result"], x["confirmed"], x["notes"], x["damaged"], x["stray"]])


def main():
    jt.fresh()
    j = Journal(jt.ROOT)
    j.recover()
    free0 = os.statvfs(jt.ROOT)[3]
    t0 = time.ticks_ms()
    for seed in range(1, COUNT + 1):
        h, evs, res, notes = spec(seed)
        n = j.start_match(h)
        if n != seed:
            raise SystemExit("numbered %d, not %d" % (n, seed))
        for ev in evs:
            j.append(ev)
        for note in notes:
            j.note(note)
        j.finish(res)
        j.confirm(seed % 2)
        j.confirm(1 - seed % 2)
        if seed % 100 == 0:
            j.set_face({"games": 0, "arrows": [0] * 9})
    t_write = time.ticks_diff(time.ticks_ms(), t0)
    used = free0 - os.statvfs(jt.ROOT)[3]
    bad = []

    def check(n, h, evs, x):
        wh, wevs, wres, wnotes = spec(n)
        if [h, evs, x["result"], x["notes"], x["confirmed"]] != [wh, wevs, wres, wnotes, [True, True]]:
            bad.append(n)

    t0 = time.ticks_ms()
    seen = 0
    for n, h, evs, x in j.iter_matches():
        check(n, h, evs, x)
        seen += 1
    t_iter = time.ticks_diff(time.ticks_ms(), t0)
    t0 = time.ticks_ms()
    for n in j.list_matches():
        h, evs, x = j.read_match(n)
        check(n, h, evs, x)
    t_read = time.ticks_diff(time.ticks_ms(), t0)
    j.close()
    t0 = time.ticks_ms()
    j2 = Journal(jt.ROOT)
    rep = j2.recover()
    t_recover = time.ticks_diff(time.ticks_ms(), t0)
    lines = []
    for n, h, evs, x in j2.iter_matches():
        check(n, h, evs, x)
        lines.append(canon_match(n, h, evs, x))
    ver = j2.verify()
    names = sorted(os.listdir(jt.ROOT))
    for name in names:
        with open(jt.ROOT + "/" + name, "rb") as src:
            data = src.read()
        with open(OUT + "/" + name, "wb") as dst:
            dst.write(data)
    with open(OUT + "/mpy_view.txt", "w") as f:
        for line in lines:
            f.write(line + "\n")
    jt.emit(
        {
            "written": COUNT,
            "seen": seen,
            "listed": len(j2.list_matches()),
            "bad": bad[:10],
            "nbad": len(bad),
            "report": rep,
            "verify_damage": len(ver["damage"]),
            "blocks_used": used,
            "bytes_per_match": used * 4096 // COUNT,
            "files": names,
            "ms_write": t_write,
            "ms_iter": t_iter,
            "ms_read_each": t_read,
            "ms_recover": t_recover,
        }
    )


main()
