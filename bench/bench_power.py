"""CPU time of the box's idle loop on the unix port, for the battery model in docs/power.md.

The key-to-frame time is bench_app's `app_key_to_frame_us_mpy`; this adds what the loop
costs between keys (bench/mpy/power_loop.py): App.poll() and Link.poll() with no key down
and nothing from the PC, the .mpy firmware on the MicroPython unix port.
"""

import json
import os
import subprocess
import tempfile

import mpy

from scorebox.device import mpy_build


def run():
    built = mpy_build.build()
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.devnull, "rb") as null:
            r = subprocess.run(
                [mpy.micropython(), "bench/mpy/power_loop.py", os.path.join(tmp, "flash.img")],
                stdin=null,
                capture_output=True,
                text=True,
                timeout=300,
                env=mpy.env(built),
                cwd=mpy.ROOT,
            )
    if r.returncode:
        raise RuntimeError("power bench failed: %s" % (r.stdout[-1000:] + r.stderr[-2000:]))
    s = json.loads(r.stdout.strip().splitlines()[-1])
    return {"power_idle_loop_us_mpy": round(s["idle_loop_us"], 1)}
