"""What goes on the Pico, read from the firmware tree, which mirrors the Pico's file system.

Every list of what deploys is derived here: `scorebox deploy`, the virtual Pico's .mpy
build, mip's package.json and the freeze manifest (a test holds firmware/manifest.py and
package.json to these lists). The tree's rules:
- a top-level .py (main.py, pins.py) is copied as source: a Pico runs main.py, never
  main.mpy, and pins.py stays readable and editable on the box;
- every .py in a package folder (one with an __init__.py) and in lib/ is compiled to .mpy;
- manifest.py describes the tree for a frozen build and _boot.py is that build's first module
  at every boot: neither is deployed.
"""

import hashlib
import os
import re

NOT_DEPLOYED = ("manifest.py", "_boot.py")  # the frozen build's own (`make uf2`)
LIB = "lib"  # on sys.path on every MicroPython port: the display drivers
CIRCUITPYTHON = "circuitpython"  # what only a CircuitPython box gets (device/cpinstall.py)


def firmware_dir():
    """The firmware tree: the checkout's (an editable install), else the copy a wheel
    carries inside the scorebox package (pyproject.toml)."""
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for fw in (os.path.join(os.path.dirname(os.path.dirname(pkg)), "firmware"), os.path.join(pkg, "firmware")):
        if os.path.isfile(os.path.join(fw, "main.py")):
            return fw
    raise RuntimeError("the firmware tree is missing from this install of scorebox: reinstall it")


def _py(folder):
    return sorted(n for n in os.listdir(folder) if n.endswith(".py"))


def packages(fw=None):
    """The top-level packages, and lib/: the folders deploy owns on the box."""
    fw = fw or firmware_dir()
    names = [n for n in sorted(os.listdir(fw)) if os.path.isfile(os.path.join(fw, n, "__init__.py"))]
    return names + [LIB]


def compiled(fw=None):
    """Paths (relative, '/'-separated) of every module compiled to .mpy, packages recursively."""
    fw = fw or firmware_dir()
    out = []
    for top in packages(fw):
        for d, subdirs, _ in os.walk(os.path.join(fw, top)):
            subdirs[:] = sorted(s for s in subdirs if os.path.isfile(os.path.join(d, s, "__init__.py")))
            rel = os.path.relpath(d, fw).replace(os.sep, "/")
            out.extend(rel + "/" + n for n in _py(d))
    return out


def sources(fw=None):
    """The top-level modules copied as they are (main.py, pins.py)."""
    fw = fw or firmware_dir()
    return [n for n in _py(fw) if n not in NOT_DEPLOYED]


def circuitpython_lib(fw=None):
    """Paths (relative to circuitpython/) of the modules a CircuitPython box gets in its lib/
    beside the tree's: what MicroPython has built in and CircuitPython lacks (framebuf)."""
    d = os.path.join(fw or firmware_dir(), CIRCUITPYTHON, LIB)
    return [LIB + "/" + n for n in _py(d)]


def version(fw=None):
    """VERSION of the shared core, read as text: the tree deployed, not the one imported."""
    path = os.path.join(fw or firmware_dir(), "scorebox_core", "__init__.py")
    with open(path) as f:
        m = re.search(r'^VERSION = "([^"]+)"', f.read(), re.M)
    if not m:
        raise RuntimeError("no VERSION in %s" % path)
    return m.group(1)


def tree_hash(fw=None):
    """SHA-256 of the firmware tree (names and bytes): what a frozen image is made from
    (`make uf2`: its modules, _boot.py, and main.py and pins.py as the texts it writes at first
    boot), and how tests/rp2 tell an image built from another tree."""
    fw = fw or firmware_dir()
    h = hashlib.sha256()
    for d, subdirs, names in os.walk(fw):
        subdirs[:] = sorted(s for s in subdirs if s != "__pycache__")
        for n in sorted(names):
            if n.endswith(".pyc"):
                continue
            path = os.path.join(d, n)
            with open(path, "rb") as f:
                data = f.read()
            h.update(b"%s %d\n" % (os.path.relpath(path, fw).replace(os.sep, "/").encode(), len(data)))
            h.update(data)
    return h.hexdigest()
