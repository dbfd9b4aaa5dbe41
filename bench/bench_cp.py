"""The box on the emulated CircuitPython Pico (docs/circuitpython.md): figures in emulated time
(the RP2040's cycles at 125 MHz), measured as bench_rp2.py measures the rp2_* ones, on the drive
`scorebox deploy --circuitpython` leaves (tests/cp/cphelp.py's box_files), powered only while
keys play (paused: the same cycles from run to run), as tests/cp/test_cp_app.py runs it.

Skipped, with the line that says what to download, where CircuitPython's image is missing.
"""

import os
import statistics
import sys
import tempfile

from scorebox.sim.cp import emu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "cp"))
ROSTER = b"Ann\nBob\nCat\nDan\n"
SETTLE_MS = 8000  # tests/cp/test_cp_app.py's: power on to the home screen with room to spare
GAP_MS = 120  # the same: the virtual Pico's pace, as bench_rp2.py keys the demo
# For the key figures each key gets 1.5 s, more than the slowest screen (a match's start, about
# 1.3 s): at 120 ms the keys behind it would queue and a key's frame be read before it is whole.
TIMED_GAP_MS = 1500

# code.py for the heap figure: main.py's work with the free heap read at every turn of the
# box's loop (App.poll); a Ctrl-C ends main() and the least is printed.
_HEAP_CODE = b"""import gc
import main
from box.app import App
low = [1 << 30]
_poll = App.poll
def _watch(app):
    f = gc.mem_free()
    if f < low[0]:
        low[0] = f
    return _poll(app)
App.poll = _watch
main.main()
print("LOW", low[0], gc.mem_free() + gc.mem_alloc())
"""


def _drive(tmp, extra=()):
    from cphelp import box_files

    files = dict(box_files())
    files["roster.txt"] = ROSTER
    files.update(extra)
    flash = os.path.join(tmp, "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(sorted(files.items())))
    return flash


def _steps(pins, gap=GAP_MS):
    from cphelp import rp2help

    with open(os.path.join(ROOT, "docs", "demo.keys")) as f:
        script = rp2help().key_script(f.read())
    return [emu.rp2.key_step(n, ms, 0 if n is None else gap, pins) for n, ms in script]


def app(tmp):
    """The demo match: each key that changed the screen, press to its last byte on the bus;
    then the box powered on again with the match kept, to its first frame's last byte."""
    flash = _drive(tmp)
    pico = emu.EmulatedCircuitPython(flash, paused=True)
    try:
        boot = pico.play([emu.rp2.key_step(None, SETTLE_MS, 0)])
        played = pico.play(_steps(pico.pins, TIMED_GAP_MS))
        pico.power_off()
    finally:
        pico.close()
    pico = emu.EmulatedCircuitPython(flash, paused=True)
    try:
        again = pico.play([emu.rp2.key_step(None, SETTLE_MS, 0)])
    finally:
        pico.close()
    lat = []
    prev = boot["frames"][0]
    for frame, press, done in zip(played["frames"], played["press_ns"], played["frame_ns"]):
        if frame != prev:
            lat.append((done - press) / 1e6)
        prev = frame
    return {
        "cp_boot_ms": round(again["frame_ns"][0] / 1e6, 1),
        "cp_first_boot_ms": round(boot["frame_ns"][0] / 1e6, 1),
        "cp_app_key_to_frame_ms": round(statistics.median(lat), 1),
        "cp_app_key_to_frame_worst_ms": round(max(lat), 1),
        "cp_display_bytes_match": played["panel_bytes"],
    }


def heap(tmp):
    """The least free heap over the demo match, read at every turn of the box's loop."""
    pico = emu.EmulatedCircuitPython(_drive(tmp, {"code.py": _HEAP_CODE}), paused=True)
    try:
        pico.play([emu.rp2.key_step(None, SETTLE_MS, 0)])
        pico.play(_steps(pico.pins))
        pico.write(b"\x03")
        pico.run()  # paused since the keys ended: on again for main() to end and print
        out = emu.console_text(pico.read_until(emu.DONE, timeout=120))
    finally:
        pico.close()
    low, total = (int(v) for v in out.split("LOW", 1)[1].split()[:2])
    return {"cp_heap_free_min_bytes": low, "cp_heap_bytes": total}


def run():
    try:
        emu.images()
    except emu.Missing as e:
        print("# cp: skipped: %s" % e, file=sys.stderr)
        return {}
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for part in (app, heap):
            d = os.path.join(tmp, part.__name__)
            os.makedirs(d)
            out.update(part(d))
    return out
