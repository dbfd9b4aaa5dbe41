"""What the benches of an emulated Pico share: bench_rp2.py's on MicroPython's image and the
bench_cp*.py ones on CircuitPython's. The skip where the image is missing, the demo match
keyed and the box powered on again after it, its key-to-frame figures, the heap watch the
box's loop runs, and a command's seconds on the wire; each bench keeps its own figures."""

import os
import statistics
import subprocess
import sys
import time

from scorebox.sim.rp2 import emu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "rp2"))  # rp2help: the key script, wait_hello
ROSTER = b"Ann\nBob\nCat\nDan\n"
GAP_MS = 120  # between two keys of the demo: the virtual Pico's pace

# The least free heap over the box's loop, read at every turn (App.poll) into low[0]: the
# lines after a code.py's or main.py's imports and `low = [1 << 30, ...]`, before the app runs.
HEAP_WATCH = b"""_poll = App.poll
def _watch(app):
    f = gc.mem_free()
    if f < low[0]:
        low[0] = f
    return _poll(app)
App.poll = _watch
"""


def skipped(pico_emu, name):
    """True, with the line that says what to download, where pico_emu's image is missing."""
    try:
        pico_emu.images()
    except pico_emu.Missing as e:
        print("# %s: skipped: %s" % (name, e), file=sys.stderr)
        return True
    return False


def demo_script():
    """docs/demo.keys as [(key name or None, ms)]."""
    from rp2help import key_script

    with open(os.path.join(ROOT, "docs", "demo.keys")) as f:
        return key_script(f.read())


def demo_steps(pins, gap=GAP_MS):
    """The demo match's steps for an emulated Pico's play(), gap ms after each key."""
    return [emu.key_step(n, ms, 0 if n is None else gap, pins) for n, ms in demo_script()]


def demo_match(power_on, settle_ms, gap=GAP_MS):
    """The demo match on the Pico power_on() makes (paused: the same cycles from run to run),
    settle_ms after the power, then the box powered on again with the match kept: (the first
    boot's play, the keys', the boot's after)."""
    pico = power_on()
    try:
        boot = pico.play([emu.key_step(None, settle_ms, 0)])
        played = pico.play(demo_steps(pico.pins, gap))
        pico.power_off()
    finally:
        pico.close()
    pico = power_on()
    try:
        again = pico.play([emu.key_step(None, settle_ms, 0)])
    finally:
        pico.close()
    return boot, played, again


def demo_figures(name, boot, played, again):
    """demo_match's figures, named NAME_...: the boot's after the match (an archer's every-day
    boot) and the first's, to the first frame's last byte on the bus; from a key's press to its
    frame's last byte, the median and the slowest, over the keys that changed the screen (None
    where none did: at the flash's maximum times the keys can all be lost); the panel's bytes."""
    lat = []
    prev = boot["frames"][0]
    for frame, press, done in zip(played["frames"], played["press_ns"], played["frame_ns"]):
        if frame != prev:
            lat.append((done - press) / 1e6)
        prev = frame
    return {
        name + "_boot_ms": round(again["frame_ns"][0] / 1e6, 1),
        name + "_first_boot_ms": round(boot["frame_ns"][0] / 1e6, 1),
        name + "_app_key_to_frame_ms": round(statistics.median(lat), 1) if lat else None,
        name + "_app_key_to_frame_worst_ms": round(max(lat), 1) if lat else None,
        name + "_display_bytes_match": played["panel_bytes"],
    }


def on_the_wire(pico, run, port="usb"):
    """Run a command talking to the box on its port ("usb"; CircuitPython's usb_cdc.data:
    "data"): (what run() returned, {figure: seconds}): from the PC's first byte to the box's
    last ("") and of the whole command ("_command"), both the box's, in its cycles, and the
    whole command's in wall seconds ("_wall"). The whole command counts the PC's own start
    and end too: while the box waits for the PC its sleeps are fast-forwarded, so the PC's
    time is the box's (docs/benchmarks.md)."""
    if port == "usb":
        pico.send(op="usb_mark")  # MicroPython's harness counts from a mark, CircuitPython's from stats()
    c0, t0 = pico.stats()["cycles"], time.monotonic()
    result = run()
    t1 = time.monotonic()
    got = pico.stats()
    return result, {
        "": round((got[port + "_last_out"] - got[port + "_first_in"]) / emu.HZ, 2),
        "_command": round((got["cycles"] - c0) / emu.HZ, 2),
        "_wall": round(t1 - t0, 2),
    }


def sync_figures(pico, port, db, count, wire="usb"):
    """`scorebox sync` of the box's count matches at port into a new store db: on_the_wire's figures."""
    argv = [os.path.join(os.path.dirname(sys.executable), "scorebox"), "sync", "--port", port, "--db", db]
    p, figures = on_the_wire(pico, lambda: subprocess.run(argv, capture_output=True, text=True, timeout=3600), wire)
    if p.returncode or "%d new matches stored" % count not in p.stdout:
        raise RuntimeError(p.stdout + p.stderr)
    return figures
