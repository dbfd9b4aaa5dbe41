"""A virtual Pico's flash filled with finished matches through the box's own journal
(tests/mpy/journal_fill.py), for the sync tests and the sync benchmark."""

import json

from matchgen import box_matches
from mpy import run


def fill(folder, count, seed=0, torn=False, damage=False):
    """A virtual Pico flash file in folder (a pathlib.Path) holding `count` finished
    matches; returns (path, matches)."""
    flash = str(folder / "box.flash")
    matches = box_matches(count, seed)
    src = folder / "matches.json"
    src.write_text(json.dumps(matches))
    flags = (["--torn"] if torn else []) + (["--damage"] if damage else [])
    p = run(["tests/mpy/journal_fill.py", flash, str(src)] + flags, heapsize="8m", timeout=600)
    if p.returncode:
        raise RuntimeError("journal_fill.py failed: %s" % p.stderr[-2000:])
    return flash, matches
