"""The journal on CircuitPython's FAT drive (box/journal.py through box/fat/group.py,
docs/journal.md "On FAT"): an arrow's commit on the emulated CircuitPython Pico, in the match
tests/cp/test_cp_powercut.py writes (12 events after start_match, each in both copies).

cp_journal_commit_ms: emulated time an append() took (time.monotonic_ns() around it, the
mean), the CPU's only: CircuitPython's harness models no flash chip time.
cp_journal_commit_flash_ms: what the flash writes of those appends (traced) take at the
W25Q16JV's typical times, as the MicroPython harness's model counts them (a 4 KiB erase 45 ms,
a 256-byte page 0.4 ms); rp2_journal_commit_ms has them inside. cp_journal_commit_erases:
4 KiB erases an append.

Skipped, with the line that says what to download, where CircuitPython's image is missing.
"""

import json
import os
import sys
import tempfile

from emulated_pico import ROOT, skipped

from scorebox.sim.cp import emu

sys.path.insert(0, os.path.join(ROOT, "tests", "cp"))
ERASE_MS = 45.0
PAGE_MS = 0.4


def run():
    if skipped(emu, "cp_journal"):
        return {}
    import cpcut

    with tempfile.TemporaryDirectory() as tmp:
        start = os.path.join(tmp, "start.img")
        with open(start, "wb") as f:
            f.write(emu.fs_image(cpcut.journal_files()))
        console, trace, _ = cpcut.run(start, tmp, "bench")
        ops, _ = cpcut.read_trace(trace)
    took = json.loads([ln for ln in console.splitlines() if ln.startswith("TOOK ")][0][5:])
    appends = took[1 : 1 + len(cpcut.EVENTS)]
    n = len(appends)
    # The appends' writes: marked 1 (start_match returned) to n (the last append returned).
    writes = [o for o in ops if 1 <= o[4] <= n]
    erases = sum(1 for o in writes if o[0] == 1)
    pages = sum(o[2] // 256 for o in writes if o[0] == 2)
    return {
        "cp_journal_commit_ms": round(sum(appends) / n / 1000, 2),
        "cp_journal_commit_flash_ms": round((erases * ERASE_MS + pages * PAGE_MS) / n, 1),
        "cp_journal_commit_erases": round(erases / n, 2),
    }
