"""The bench's kept folders in bench/cache/ named NAME-HASH, HASH of their inputs: a change of
inputs makes a new one (bench_league_1m.py's league, 12 GB), and the older ones went on
filling the disk. The bench marks each folder it makes and removes its own stale ones; a
folder without the mark is not the bench's to remove, and is named in one line instead."""

import os
import re
import shutil
import sys

MARK = ".made-by-scorebox-bench"


def mark(folder):
    """Make folder (if needed) and mark it as the bench's own, before anything goes in it."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, MARK), "w") as f:
        f.write("made by the Scorebox bench (bench/cache_folders.py): removed when its inputs change\n")


def prune(parent, prefix, keep, say=None):
    """Remove the folders of parent named prefix + another hash than keep's (a generation
    cut short too: ".part" after it) that the bench marked; say each. Returns their names."""
    say = say or (lambda msg: print(msg, file=sys.stderr, flush=True))
    name = re.compile(re.escape(prefix) + r"[0-9a-f]+(\.part)?")
    removed = []
    for entry in sorted(os.listdir(parent)) if os.path.isdir(parent) else []:
        path = os.path.join(parent, entry)
        if entry in (keep, keep + ".part") or not name.fullmatch(entry) or not os.path.isdir(path):
            continue
        if os.path.islink(path) or not os.path.isfile(os.path.join(path, MARK)):
            say("# %s: stale, left alone: it has no %s (not made by the bench): delete it yourself" % (path, MARK))
            continue
        shutil.rmtree(path)
        removed.append(entry)
        say("# %s: stale (its inputs changed): removed" % path)
    return removed
