"""The every-day boot's flash reads (issue 22, run by tests/both/test_boot_reads.py): the box
powered on again with a match kept in its journal, in both games, on the virtual Pico's
LittleFS2 searched first on sys.path as the Pico's flash is ('' there, /flash here; the
repository's modules stand for the frozen ones, /flash/lib for /lib).

MicroPython searches the file system for an extensible built-in (os, time, json ...) at
every import of it, and each LittleFS lookup reads the root directory's metadata, which the
journal's commits fill. Checks, counting the block device's reads (not time):
- once main.py has started, importing the built-ins the box uses reads nothing;
- the boot (main.py, the board, the app to its first frame) reads at most BOOT_READS_MAX
  blocks: the journal's recovery takes the sizes it needs from its one listing of the folder.
Prints `ALL OK`, or the checks that failed and exits with status 1 (tests/mpy/verdict.py)."""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

from verdict import done, want

from vpico.blockdev import RamBlockDev

ROOT = "/flash"
# Block reads of the boot with a match kept (Tic Tac BOW's finished demo match, Try-Tac-Toe's
# open one): 755 and 1,140 before main.py kept the built-ins; 371 and 492 with them but a stat
# a file in the recovery; 286 and 323 with neither.
BOOT_READS_MAX = 400
TTT_KEYS = "# 4 8 8 8 8 8 6 8 8 6 6 6 # # 5 1"  # Ann against Cat, two moves (app_key_latency.py)
# The extensible built-ins the firmware imports (machine too, on the Pico only).
BUILTINS = ("os", "time", "json", "array", "select", "binascii")
FIRMWARE = ("box", "boards", "scorebox_core", "main", "pins", "ssd1306", "sh1106", "vpico")


class Counted(RamBlockDev):
    """The Pico's flash geometry in RAM, its reads counted."""

    reads = 0
    read_bytes = 0

    def readblocks(self, block, buf, offset=0):
        self.reads += 1
        self.read_bytes += len(buf)
        RamBlockDev.readblocks(self, block, buf, offset)


def keep_a_match(bdev, game):
    """The first boot, and a match kept: the demo played to its end, or Try-Tac-Toe's started."""
    from box.app import App
    from box.keys import code
    from vpico.board import Board
    from vpico.drive import Driver
    from vpico.keyscript import play

    b = Board(bdev=bdev)
    app = App(b, strict=True)
    app.store.set_roster(["Ann", "Bob", "Cat", "Dan"])
    d = Driver(app, b)
    if game == "ttb":
        play("docs/demo.keys", d)
        return app.screen is app.history or app.screen is app.home
    for k in TTT_KEYS.split():
        d.press(code(k))
    return app.journal.open_match() is not None


def power_on_again(bdev):
    """Boot as the Pico does, on the same flash: every firmware module imported afresh, with
    the flash first on sys.path. Returns (reads of the boot, reads of the built-ins' imports
    after main.py started)."""
    import vfs

    from vpico import board as vboard

    vboard.unmount(ROOT)
    for name in list(sys.modules):
        if name.split(".")[0] in FIRMWARE:
            del sys.modules[name]
    fs = vfs.VfsLfs2(bdev, progsize=256)
    vfs.mount(fs, ROOT)
    path = sys.path[:]
    sys.path[:] = [ROOT] + [p for p in path if p not in ("", ".")] + [ROOT + "/lib"]
    try:
        bdev.reads = 0
        import main  # noqa: F401  (firmware/main.py, as the Pico starts it)

        again = bdev.reads
        for name in BUILTINS:
            __import__(name)
        again = bdev.reads - again
        from box.app import App
        from vpico.board import Board

        app = App(Board(root=ROOT, mount=False), strict=True)  # to its first frame
        boot = bdev.reads
        app.journal.close()
    finally:
        sys.path[:] = path
        vfs.umount(ROOT)
    return boot, again


def main():
    for game in ("ttb", "ttt"):
        bdev = Counted(blocks=352, block_size=4096)
        want(keep_a_match(bdev, game), "%s: a match kept" % game)
        boot, again = power_on_again(bdev)
        print("%s: the boot read %d blocks; the built-ins again %d" % (game, boot, again))
        want(again == 0, "%s: the built-ins imported again read %d blocks of the flash" % (game, again))
        want(boot <= BOOT_READS_MAX, "%s: the boot read %d blocks (at most %d)" % (game, boot, BOOT_READS_MAX))
    done()


main()
