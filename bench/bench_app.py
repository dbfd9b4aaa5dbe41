"""The firmware app on the virtual Pico: keys per arrow, display bytes, heap, key-to-frame.

Sixty realistic matches (tests/support/corpus.py: the archer model is described there) are keyed in
on the keypad through the firmware compiled to .mpy, on the MicroPython unix port, by
tests/mpy/app_play.py in its measuring mode (a gc.collect() and gc.mem_alloc() after every key).
"""

import json
import os
import tempfile

import corpus
import mpy

from scorebox.device import mpy_build

MATCHES = 60
HEAP = "512k"  # measuring keeps garbage until each key's end; tests/both/test_app.py proves 192k


def run():
    built = mpy_build.build()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "corpus.txt")
        with open(path, "w") as f:
            f.write("\n".join(corpus.corpus_lines(1000, MATCHES)) + "\n")
        r = mpy.run(
            ["tests/mpy/app_play.py", os.path.join(tmp, "flash.img"), path, "measure"],
            heapsize=HEAP,
            paths=(built,),
            timeout=600,
        )
    if r.returncode:
        raise RuntimeError("app bench failed: %s" % (r.stdout[-1000:] + r.stderr[-2000:]))
    s = json.loads(r.stdout.strip().splitlines()[-1])
    return {
        "keypresses_per_arrow": round(s["keys_per_arrow"], 3),
        "keypresses_per_arrow_all": round(s["keys_per_arrow_all"], 3),
        "display_bytes_per_key": round(s["display_bytes_per_key"], 1),
        "app_heap_peak_bytes": s["live_heap_peak"],
        "app_key_to_frame_us_mpy": round(s["key_to_frame_us_mean"], 1),
        "app_alloc_bytes_per_arrow_key": round(s["alloc_bytes_per_play_key"], 1),
        "app_bench_arrows": s["arrows"],
    }
