"""The Adafruit libraries the box needs on CircuitPython, pinned here and taken from their
PyPI wheels: each wheel's modules as they are (CircuitPython compiles them on the box). The
wheels are fetched once with pip, without their dependencies (those are the Blinka layer that
stands for CircuitPython on a PC: on the box the modules are CircuitPython's own), into
${XDG_CACHE_HOME:-~/.cache}/scorebox/cp-lib/."""

import os
import subprocess
import sys
import tempfile
import zipfile

# (PyPI name, version): the displays' drivers for displayio (docs/circuitpython.md); an
# SSD1309 takes the SSD1306's (boards/circuitpy.py).
LIBS = (
    ("adafruit-circuitpython-displayio-ssd1306", "3.0.6"),
    ("adafruit-circuitpython-displayio-sh1106", "2.0.4"),
)


class FetchError(RuntimeError):
    """pip could not fetch a wheel: str() says which and why."""


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "scorebox", "cp-lib")


def wheel(name, version):
    """The path of the wheel name==version, fetched with pip when it is not cached."""
    folder = os.path.join(cache_dir(), "%s-%s" % (name, version))
    found = [n for n in os.listdir(folder) if n.endswith(".whl")] if os.path.isdir(folder) else []
    if not found:
        os.makedirs(cache_dir(), exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
            cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", tmp, "%s==%s" % (name, version)]
            r = subprocess.run(cmd, capture_output=True, text=True)
            got = [n for n in os.listdir(tmp) if n.endswith(".whl")]
            if r.returncode or len(got) != 1:
                raise FetchError("pip could not fetch %s==%s: %s" % (name, version, r.stderr.strip()[-500:]))
            os.replace(tmp, folder)
            os.makedirs(tmp)  # for TemporaryDirectory's cleanup
        found = got
    return os.path.join(folder, found[0])


def files():
    """[(path on the box, bytes)]: every library's modules in /lib."""
    out = []
    for name, version in LIBS:
        with zipfile.ZipFile(wheel(name, version)) as z:
            for n in sorted(z.namelist()):
                if n.endswith(".py") and ".dist-info/" not in n:
                    out.append(("lib/" + n, z.read(n)))
    return out
