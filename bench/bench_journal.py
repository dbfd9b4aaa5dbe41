"""The match journal on the virtual Pico: flash per match, capacity, power cuts, commit time.

Everything runs on the MicroPython unix port, on LittleFS2 (`vfs.VfsLfs2`, progsize 256
as rp2 mounts its flash) over a RAM block device with the Pico's geometry (352 blocks of
4096 bytes, host_tools/scorebox/sim/mpy/vpico/blockdev.py):

- tests/mpy/journal_bench_fill.py writes typical matches (30 arrows, tests/support/jt.py)
  to an empty journal until it refuses one: `journal_bytes_per_match` is the os.statvfs
  blocks used by the first 2,000 matches, in bytes, over 2,000; `journal_matches_capacity`
  is how many fitted; `journal_commit_us_mpy` the mean time of one `append` (write + flush;
  the RAM block device is Python here, the Pico's is C) over the first 2,000 matches, and
  `journal_commit_us_mpy_nearly_full` past the 90% warning.
- tests/mpy/journal_powercut.py in the three configurations tests/both/test_journal_powercut.py
  runs: `powercut_cut_points` cuts tried (every erase and program, before it and half
  done), `powercut_lost_arrows` committed arrows missing after recovery (must be 0).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(os.path.dirname(HERE), "tests", d) for d in ("support", "mpy")]

from journal_support import run_script  # noqa: E402

POWERCUT = ((700, 0, 256), (16384, 20, 256), (700, 0, 32))


def run():
    _, fill = run_script("journal_bench_fill.py", timeout=1800)
    cuts = lost = 0
    for args in POWERCUT:
        _, res = run_script("journal_powercut.py", *args)
        if res["failures"]:
            raise RuntimeError("power-cut failures: %r" % res["failures"][:3])
        cuts += res["cuts"]
        lost += res["lost_arrows"]
    return {
        "journal_bytes_per_match": round(fill["bytes_per_match"]["2000"], 1),
        "journal_matches_capacity": fill["capacity"],
        "journal_warn_at_matches": fill["warn_at"],
        "journal_commit_us_mpy": round(fill["commit_us"][0], 1),
        "journal_commit_us_mpy_nearly_full": round(fill["commit_us"][2], 1),
        "powercut_cut_points": cuts,
        "powercut_lost_arrows": lost,
    }
