"""The box on the emulated RP2040 (docs/rp2.md): figures in the Pico's own cycles at 125 MHz,
deterministic from run to run (docs/benchmarks.md, "The emulated RP2040").

The rp2_* figures are the frozen image's (`make uf2`: what a maker flashes) when it is built,
else MicroPython's own image with the .mpy files deployed; rp2_stock_* are the latter's boot,
keys and heap beside them, for the comparison. All with the flash chip's typical times, and
the slowest key, the frames that change and the keys lost under its maximum times (docs/rp2.md).

Skipped, with the line that says what to download, where the Pico's image is missing.
"""

import json
import os
import subprocess
import sys
import tempfile

from bench_rules import best_of_nine, game_of
from boxfill import fill
from emulated_pico import (
    HEAP_WATCH,
    ROOT,
    ROSTER,
    demo_figures,
    demo_match,
    demo_script,
    demo_steps,
    on_the_wire,
    skipped,
    sync_figures,
)

from scorebox.sim.rp2 import emu

MODEL = "typical"  # the flash chip's times (docs/rp2.md); flash_max() runs the maximum ones

# One idle turn of the box's loop on the Pico's own board (what main.py does between two
# sleeps with no key down and the PC quiet), and the heap the app leaves free.
_IDLE = """
import gc, time
from boards.pico import Board
from box import device
from box.app import App
from box.usbport import Sync
b = Board(); app = App(b); sync = Sync(app, device.Info(b, device.Clock()))
n = 500
t0 = time.ticks_us()
for _ in range(n):
    app.poll(); sync.poll()
us = time.ticks_diff(time.ticks_us(), t0) / n
gc.collect()
print("IDLE", us, gc.mem_free())
"""


# What a Try-Tac-Toe game's start costs in imports: the board (its placement tables) and
# the rules, from the deployed .mpy files.
_TTT_IMPORT = """
import gc, time
gc.collect()
f0 = gc.mem_free()
t0 = time.ticks_us()
import scorebox_core.games.ttt.board
t1 = time.ticks_us()
import scorebox_core.games.ttt.rules
t2 = time.ticks_us()
gc.collect()
print("TTT", time.ticks_diff(t1, t0), time.ticks_diff(t2, t1), f0 - gc.mem_free())
"""


# main.py for the heap figures: the deployed main.py (as boxmain.py) on the Pico's board,
# with the free heap read at every turn of the loop (App.poll); the REPL reads `low` after a Ctrl-C.
_HEAP_MAIN = (
    b"\nimport gc\nimport boxmain\nfrom boards.pico import Board\nfrom box.app import App\n"
    b"low = [1 << 30, gc.mem_free() + gc.mem_alloc()]\n" + HEAP_WATCH + b"boxmain.main(Board())\n"
)


# The time one arrow takes to commit (Journal.append: write + flush) on the Pico's flash,
# over three typical matches (tests/support/jt.py) into an empty journal.
_COMMIT = """
import os, time, jt
from box.journal import Journal
os.mkdir("/jbench")
j = Journal("/jbench")
j.recover()
t = n = 0
for seed in range(3):
    h, evs, res = jt.typical(seed)
    j.start_match(h)
    for ev in evs:
        t0 = time.ticks_us()
        j.append(ev)
        t += time.ticks_diff(time.ticks_us(), t0)
        n += 1
    j.finish(res)
print("COMMIT", t / n)
"""


def _mpremote(port, *args):
    exe = os.path.join(os.path.dirname(sys.executable), "mpremote")
    r = subprocess.run([exe, "connect", port, *args], capture_output=True, text=True, timeout=1800)
    if r.returncode:
        raise RuntimeError("mpremote %s: %s" % (args[0], (r.stdout + r.stderr)[-2000:]))
    return r.stdout


def _flash(tmp, files):
    path = os.path.join(tmp, "flash.img")
    with open(path, "wb") as f:
        f.write(emu.fs_image(files))
    return path


def rules(tmp, image):
    from scorebox_core.games.ttb.rules import Options

    opts = Options()  # the same matches as bench_rules.py, fewer of them
    opts.games = 9
    data = {"options": opts.to_dict(), "matches": [best_of_nine(s) for s in range(3)], "game60": game_of(60)}
    with open(os.path.join(ROOT, "bench", "mpy", "rules_bench.py"), "rb") as f:
        script = f.read()
    files = [(p, d) for p, d in image.fs if p.startswith("scorebox_core/")]
    files += [("rules_bench.py", script), ("events.json", json.dumps(data).encode())]
    pico = emu.EmulatedPico(_flash(tmp, _no_app(image, files)), uf2=image.uf2, flash_model=MODEL)
    try:
        pico.wait_usb()
        out = _mpremote(
            pico.port, "exec", "import sys; sys.argv[:] = ['rules_bench', 'events.json']; import rules_bench"
        )
    finally:
        pico.close()
    got = json.loads(out.strip().splitlines()[-1])
    return {"rp2_rules_us_per_arrow": round(got["us_per_arrow"], 1), "rp2_rules_heap_peak_bytes": got["heap_peak"]}


def app(tmp, image, model=None):
    model = model or MODEL
    flash = _flash(tmp, image.fs + [("roster.txt", ROSTER)])
    # rp2_boot_ms is an archer's every-day boot: the box powered on again with the match in its
    # journal. The first boot after a flash also writes the journal's ballast (4 sector erases,
    # docs/rp2.md).
    boot, played, again = demo_match(
        lambda: emu.EmulatedPico(flash, paused=True, uf2=image.uf2, flash_model=model), 1500
    )
    return dict(demo_figures("rp2", boot, played, again), frames=boot["frames"] + played["frames"])


def flash_max(tmp, image):
    """The demo match under the flash chip's maximum times: its slowest key, and the frames
    that differ from the typical model's (keys pressed and let go inside a stall are lost)."""
    for d in ("typical", "max"):
        os.makedirs(os.path.join(tmp, d))
    typical = app(os.path.join(tmp, "typical"), image)["frames"]
    got = app(os.path.join(tmp, "max"), image, "max")
    return {
        "rp2_app_key_to_frame_worst_ms_flash_max": got["rp2_app_key_to_frame_worst_ms"],
        "rp2_frames_differing_flash_max": sum(a != b for a, b in zip(got["frames"], typical)),
    }


def keys_lost(tmp, image):
    """The demo match at its pace and as a key storm (emu.PACES) under the flash chip's
    maximum times: the pictures the panel showed with no flash time that it did not show
    under them (a lost key takes at least its own picture with it; 0: no key lost). As
    tests/rp2/test_rp2_keys_flash_max.py, which asserts 0."""
    from test_rp2_keys_flash_max import shown

    script = demo_script()
    lost = 0
    for pace in sorted(emu.PACES):
        steps = emu.paced(script, pace)
        got = {}
        for model in (None, "max"):
            d = _Path(os.path.join(tmp, "%s-%s" % (pace, model)))
            os.makedirs(d)
            got[model] = shown(image, d, steps, model)["shown"]
        lost += emu.pictures_lost(got[None], got["max"])
    return {"rp2_keys_lost_flash_max": lost}


def heap(tmp, image):
    """The least free heap over the demo match, keyed with the PC attached (the sync link
    loaded by a HELLO first), read at every turn of the box's loop."""
    from rp2help import wait_hello

    files = [(("boxmain.py" if p == "main.py" else p), d) for p, d in image.fs]
    files += [("main.py", _HEAP_MAIN), ("roster.txt", ROSTER)]
    pico = emu.EmulatedPico(_flash(tmp, files), uf2=image.uf2, flash_model=MODEL)
    try:
        wait_hello(pico.port)
        pico.play(demo_steps(pico.pins))
        wait_hello(pico.port)
        out = _mpremote(pico.port, "resume", "exec", "print('LOW', low[0], low[1])")
    finally:
        pico.close()
    low, total = (int(v) for v in out.split("LOW", 1)[1].split()[:2])
    return {"rp2_heap_free_min_bytes": low, "rp2_app_heap_peak_bytes": total - low, "rp2_heap_bytes": total}


def _no_app(image, files):
    """files, and on the frozen image an empty main.py where files have none: its _boot.py
    would write the box's at the first boot, and the app would run as it does not on the
    stock image with the same files."""
    if image.kind == "frozen" and "main.py" not in dict(files):
        return files + [("main.py", b"")]
    return files


def _exec(tmp, image, files, code, tag):
    """Run code on an emulated Pico of image whose flash holds files (the REPL stops main.py);
    the words it printed after tag."""
    pico = emu.EmulatedPico(_flash(tmp, _no_app(image, files)), uf2=image.uf2, flash_model=MODEL)
    try:
        pico.wait_usb()
        out = _mpremote(pico.port, "exec", code)
    finally:
        pico.close()
    return out.split(tag, 1)[1].split()


def commit(tmp, image):
    with open(os.path.join(ROOT, "tests", "support", "jt.py"), "rb") as f:
        files = [(p, d) for p, d in image.fs if p != "main.py"] + [("jt.py", f.read())]
    us = _exec(tmp, image, files, _COMMIT, "COMMIT")[0]
    return {"rp2_journal_commit_ms": round(float(us) / 1000, 2)}


def idle(tmp, image):
    us, free = _exec(tmp, image, image.fs + [("roster.txt", ROSTER)], _IDLE, "IDLE")[:2]
    return {"rp2_idle_loop_us": round(float(us), 1), "rp2_app_heap_free_idle_bytes": int(free)}


def ttt_import(tmp, image):
    board, rules, heap = _exec(tmp, image, image.fs, _TTT_IMPORT, "TTT")[:3]
    return {
        "rp2_ttt_board_import_ms": round(int(board) / 1000, 1),
        "rp2_ttt_rules_import_ms": round(int(rules) / 1000, 1),
        "rp2_ttt_import_heap_bytes": int(heap),
    }


def sync(tmp, image, count=1000):
    """1,000 matches from the box's flash: `scorebox sync` into a new store, and mpremote
    `fs cp` of the same files; in the emulated Pico's seconds from the PC's first byte to the
    box's last (its cycles between them), in its seconds for the whole command, and in wall
    seconds."""
    from rp2help import wait_hello

    from scorebox.device import link

    flash, _ = fill(_Path(tmp), count)
    emu.fs_add(flash, image.fs)
    pico = emu.EmulatedPico(flash, uf2=image.uf2, flash_model=MODEL)
    out = {}
    try:
        wait_hello(pico.port)
        figures = sync_figures(pico, pico.port, os.path.join(tmp, "club.sqlite"), count)
        out.update(("rp2_sync%s_seconds_1000" % k, v) for k, v in figures.items())
        ser = link.open_port(pico.port)
        ser.close()
        names = [n for n in _mpremote(pico.port, "fs", "ls", ":").split() if n.endswith(".tbj")]
        dst = os.path.join(tmp, "cp")
        os.makedirs(dst)
        _, figures = on_the_wire(pico, lambda: _mpremote(pico.port, "fs", "cp", *[":" + n for n in names], dst + "/"))
        out.update(("rp2_mpremote_cp%s_seconds_1000" % k, v) for k, v in figures.items())
    finally:
        pico.close()
    return out


class _Path(str):
    """boxfill wants a pathlib-like folder (folder / name)."""

    def __truediv__(self, name):
        import pathlib

        return pathlib.Path(self) / name


def run():
    if skipped(emu, "rp2"):
        return {}
    images = [emu.Image("stock")]
    try:
        images.insert(0, emu.Image("frozen"))
    except emu.Missing as e:
        print("# rp2: the stock image only: %s" % e, file=sys.stderr)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for image in images:
            image.fs = image.files(os.path.join(tmp, "build-" + image.kind))
            main = image is images[0]
            parts = (rules, app, heap, commit, idle, ttt_import, sync, flash_max, keys_lost)
            for part in parts if main else (app, heap):
                d = os.path.join(tmp, image.kind + "-" + part.__name__)
                os.makedirs(d)
                got = part(d, image)
                got.pop("frames", None)
                out.update(got if main else {k.replace("rp2_", "rp2_stock_", 1): v for k, v in got.items()})
    out["rp2_image"] = images[0].kind
    return out
