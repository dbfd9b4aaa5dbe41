# The first module at every boot of the frozen image (`make uf2`; firmware/manifest.py freezes
# it in place of MicroPython's ports/rp2/modules/_boot.py, whose work it does first): mount the
# flash's file system, formatting a blank one. Then a box fresh from the UF2 gets main.py and
# pins.py, the texts the image was built with (boards/defaults.py, written by tools/uf2.py
# into the tree it freezes): written when absent, never over a file (a maker's edited pins.py
# stays). Without them MicroPython would stop at its REPL.
import machine  # noqa: F401  (the stock _boot.py imports it: the same modules loaded)
import rp2
import vfs

bdev = rp2.Flash()
try:
    fs = vfs.VfsLfs2(bdev, progsize=256)
except:  # noqa: E722  (as the stock _boot.py: whatever the mount raises, the flash is blank)
    vfs.VfsLfs2.mkfs(bdev, progsize=256)
    fs = vfs.VfsLfs2(bdev, progsize=256)
vfs.mount(fs, "/")
del vfs, bdev, fs


def _first_boot():  # its names stay inside: _boot.py runs in the REPL's globals
    import os

    missing = []
    for name in ("main.py", "pins.py"):
        try:
            os.stat(name)
        except OSError:
            missing.append(name)
    if not missing:
        return
    import sys

    try:
        from boards.defaults import FILES
    except ImportError:  # an image built from firmware/manifest.py alone: put them there yourself
        return
    for name, text in FILES:
        if name in missing:
            with open(name, "w") as f:
                f.write(text)
    for m in ("boards.defaults", "boards"):  # main.py imports the board afresh, wherever it is found
        sys.modules.pop(m, None)


_first_boot()
del _first_boot
