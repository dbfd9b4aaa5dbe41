"""The box on the emulated CircuitPython Pico (docs/circuitpython.md): figures in emulated time
(the RP2040's cycles at 125 MHz), measured as bench_rp2.py measures the rp2_* ones, on the drive
`scorebox deploy --circuitpython` leaves (tests/cp/cphelp.py's box_files), powered only while
keys play (paused: the same cycles from run to run), as tests/cp/test_cp_app.py runs it.

Skipped, with the line that says what to download, where CircuitPython's image is missing.
"""

import os
import sys
import tempfile

from emulated_pico import HEAP_WATCH, ROOT, ROSTER, demo_figures, demo_match, demo_steps, skipped

from scorebox.sim.cp import emu

sys.path.insert(0, os.path.join(ROOT, "tests", "cp"))
SETTLE_MS = 8000  # tests/cp/test_cp_app.py's: power on to the home screen with room to spare
# For the key figures each key gets 1.5 s, more than the slowest screen (a match's start, about
# 1.3 s): at 120 ms the keys behind it would queue and a key's frame be read before it is whole.
TIMED_GAP_MS = 1500

# code.py for the heap figure: main.py's work with the free heap read at every turn of the
# box's loop (App.poll); a Ctrl-C ends main() and the least is printed.
_HEAP_CODE = (
    b"import gc\nimport main\nfrom box.app import App\nlow = [1 << 30]\n"
    + HEAP_WATCH
    + b'main.main()\nprint("LOW", low[0], gc.mem_free() + gc.mem_alloc())\n'
)


def _drive(tmp, extra=()):
    from cphelp import box_files

    files = dict(box_files())
    files["roster.txt"] = ROSTER
    files.update(extra)
    flash = os.path.join(tmp, "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(sorted(files.items())))
    return flash


def app(tmp):
    """The demo match: each key that changed the screen, press to its last byte on the bus;
    then the box powered on again with the match kept, to its first frame's last byte."""
    flash = _drive(tmp)
    played = demo_match(lambda: emu.EmulatedCircuitPython(flash, paused=True), SETTLE_MS, TIMED_GAP_MS)
    return demo_figures("cp", *played)


def heap(tmp):
    """The least free heap over the demo match, read at every turn of the box's loop."""
    pico = emu.EmulatedCircuitPython(_drive(tmp, {"code.py": _HEAP_CODE}), paused=True)
    try:
        pico.play([emu.rp2.key_step(None, SETTLE_MS, 0)])
        pico.play(demo_steps(pico.pins))
        pico.write(b"\x03")
        pico.run()  # paused since the keys ended: on again for main() to end and print
        out = emu.console_text(pico.read_until(emu.DONE, timeout=120))
    finally:
        pico.close()
    low, total = (int(v) for v in out.split("LOW", 1)[1].split()[:2])
    return {"cp_heap_free_min_bytes": low, "cp_heap_bytes": total}


def run():
    if skipped(emu, "cp"):
        return {}
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for part in (app, heap):
            d = os.path.join(tmp, part.__name__)
            os.makedirs(d)
            out.update(part(d))
    return out
