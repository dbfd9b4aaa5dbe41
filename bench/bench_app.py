"""The firmware app on the virtual Pico: keys per arrow, display bytes, heap, key-to-frame;
and Try-Tac-Toe's keys per move and heap (tests/mpy/app_ttt_play.py).

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
    out = {
        "keypresses_per_arrow": round(s["keys_per_arrow"], 3),
        "keypresses_per_arrow_all": round(s["keys_per_arrow_all"], 3),
        "display_bytes_per_key": round(s["display_bytes_per_key"], 1),
        "app_heap_peak_bytes": s["live_heap_peak"],
        "app_key_to_frame_us_mpy": round(s["key_to_frame_us_mean"], 1),
        "app_alloc_bytes_per_arrow_key": round(s["alloc_bytes_per_play_key"], 1),
        "app_bench_arrows": s["arrows"],
    }
    out.update(_ttt(built))
    return out


TTT_GAMES = 10


def _ttt(built):
    """Try-Tac-Toe: key presses per move (a mark or a miss, undos not counted) over TTT_GAMES
    whole games (tests/support/ttt_game.py deals the moves), on the keypad and with the six
    buttons (the cursor's shortest way), and the app's live heap peak while they are played."""
    out = {}
    peak = 0
    for layout in ("keypad", "buttons"):
        with tempfile.TemporaryDirectory() as tmp:
            r = mpy.run(
                ["tests/mpy/app_ttt_play.py", os.path.join(tmp, "flash.img"), layout, str(TTT_GAMES), "1"],
                heapsize=HEAP,
                paths=(built,),
                timeout=600,
            )
        if r.returncode:
            raise RuntimeError("ttt app bench failed: %s" % (r.stdout[-1000:] + r.stderr[-2000:]))
        s = json.loads(r.stdout.strip().splitlines()[-1])
        out["ttt_keypresses_per_move_" + layout] = round(s["keys_per_move"], 3)
        out["ttt_bench_moves"] = s["moves"]
        peak = max(peak, s["heap_peak"])
    out["ttt_app_heap_peak_bytes"] = peak
    return out
