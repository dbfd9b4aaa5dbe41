"""The virtual Pico booting from its own flash, as a Pico does after `scorebox deploy`.

    micropython host_tools/scorebox/sim/mpy/vpico/flashboot.py --flash FILE

Mounts the flash kept in FILE (LittleFS2) at /flash, puts /flash and /flash/lib first on
sys.path and runs /flash/main.py with the virtual board and the USB link on stdin/stdout:
the firmware that runs is the one on the flash (.mpy files, the drivers), not the one in
the repository. Only the virtual hardware (vpico/) comes from the repository, as a Pico's
hardware comes with the Pico. A blank flash (no main.py) leaves the REPL, as a fresh Pico
with MicroPython does: that is where `scorebox deploy` finds it. A Ctrl-C byte stops the
app and leaves the REPL; a soft reset there (Ctrl-D) mounts the flash again and runs its
main.py again, in the same process (vpico/softreset.py).
"""

import sys
import time

import vfs

from vpico.fileflash import FileBlockDev  # nothing of box/ is imported before sys.path is set
from vpico.softreset import live

ROOT = "/flash"
PATHS = [ROOT + "/lib", ROOT]  # first on sys.path: the deployed firmware wins over the repository's


class RealClock:
    def __init__(self):
        self.base = time.ticks_ms()

    @property
    def now(self):  # what vpico.board.Board.ms() reads
        return time.ticks_diff(time.ticks_ms(), self.base)


def _exists(path):
    import os

    try:
        os.stat(path)
        return True
    except OSError:
        return False


class Box:
    """The box for vpico.softreset.live: whatever firmware its flash holds."""

    def __init__(self, path):
        self.bdev = FileBlockDev(path)
        self.clock = RealClock()

    def mount(self):
        bdev = self.bdev
        try:
            fs = vfs.VfsLfs2(bdev, progsize=256)  # type: ignore[abstract,arg-type]  # rp2's _boot.py; stubs: abstract
        except OSError:  # blank flash: formatted, as MicroPython does on a new Pico
            vfs.VfsLfs2.mkfs(bdev, progsize=256)  # type: ignore[arg-type]  # any object with the block protocol
            fs = vfs.VfsLfs2(bdev, progsize=256)  # type: ignore[abstract,arg-type]
        vfs.mount(fs, ROOT)
        sys.path[:0] = PATHS

    def main(self):
        if not _exists(ROOT + "/main.py"):
            print("blank flash: MicroPython REPL (scorebox deploy installs the firmware)")
            return
        import main  # /flash/main.py

        from vpico import board as vboard  # the virtual hardware; its box.display is the flash's

        b = vboard.Board(root=ROOT, mount=False)  # box.display etc. come from /flash now
        b.bdev = self.bdev
        b.clock = self.clock
        main.main(b)

    def unmount(self):
        vfs.umount(ROOT)
        for p in PATHS:
            sys.path.remove(p)


def boot(argv):
    if "--flash" not in argv:
        sys.stderr.write("--flash FILE is needed\n")
        return
    live(Box(argv[argv.index("--flash") + 1]))


boot(sys.argv[1:])
