"""The roster on the box (docs/sync.md "The roster"): the heap 200 names of 12 characters
cost on the virtual Pico (.mpy, -X heapsize=192k) against none, and the size of the
ROSTER frames sync sends."""

import json
import os
import tempfile

import mpy

from scorebox.device import mpy_build
from scorebox.sync.protocol import ROSTER_PART
from scorebox_core import frames

NAMES = 200  # box/store.py ROSTER_MAX
HEAP = "192k"


def measure(built, n):
    with tempfile.TemporaryDirectory() as tmp:
        p = mpy.run(["bench/mpy/roster_heap.py", os.path.join(tmp, "flash.img"), str(n)], heapsize=HEAP, paths=(built,))
    if p.returncode:
        raise RuntimeError("roster bench failed: %s" % (p.stdout[-1000:] + p.stderr[-2000:]))
    return json.loads(p.stdout.strip().splitlines()[-1])


def run():
    built = mpy_build.build()
    none, full = measure(built, 0), measure(built, NAMES)
    part = ["Archer %05d" % i for i in range(ROSTER_PART)]
    return {
        "roster_200_names_bytes_mpy": full["roster_bytes"],
        "roster_free_heap_home_0_names": none["free_home"],
        "roster_free_heap_home_200_names": full["free_home"],
        "roster_free_heap_setup_0_names": none["free_setup"],
        "roster_free_heap_setup_200_names": full["free_setup"],
        "roster_frame_bytes": len(frames.encode(1, "ROSTER", {"names": part, "part": 0, "last": False})),
    }
