"""The emulated CircuitPython Pico: CircuitPython's raspberry_pi_pico image on rp2040js
(harness.mjs, Node), beside the MicroPython one of sim/rp2 (docs/circuitpython.md). Its
console is on a pseudo-terminal, `port`; its CIRCUITPY drive, a FAT file system at flash
offset 0x100000, lives in a host file built here with pyfatfs and saved when it stops.

The driver is sim/rp2's (EmulatedPico: the USB relay, the control channel, play()); this
one starts its own harness with the pieces CircuitPython needs of a model on top.
"""

import glob
import os
import pty
import re
import shutil
import socket
import tempfile
import time
import tty

from scorebox.sim.ptybox import PtyBox
from scorebox.sim.rp2 import emu as rp2

HERE = os.path.dirname(os.path.abspath(__file__))
# CIRCUITPY on a Pico: 1 MiB of FAT at flash offset 0x100000 (rp2040js's flash answers its
# JEDEC id with 0, so CircuitPython keeps the 2 MiB layout).
FS_OFFSET = 0x100000
FS_SIZE = 0x100000
NEED = (
    "the emulated CircuitPython Pico needs CircuitPython 10.2.1's raspberry_pi_pico UF2 (circuitpython.org) "
    "and the RP2040 B1 boot ROM: set SCOREBOX_CP_UF2 to the one (or SCOREBOX_CP_DIR to its folder) and "
    "SCOREBOX_RP2040_BOOTROM to the other (or SCOREBOX_RP2_DIR to its folder) (docs/circuitpython.md)"
)
# The end of a run of code.py, and CircuitPython's status-bar title (an OSC sequence).
DONE = b"Press any key to enter the REPL"
_TITLE = re.compile(rb"\x1b\][^\x1b\x07]*(?:\x1b\\|\x07)")


class Missing(rp2.Missing):
    """The image, the boot ROM, node or rp2040js are not there: str() says what to get."""


def _first(env, folder_env, pattern):
    path = os.environ.get(env)
    folder = os.environ.get(folder_env)
    if not path and folder:
        path = next(iter(sorted(glob.glob(os.path.join(folder, pattern)))), None)
    return path if path and os.path.isfile(path) else None


def images():
    """(uf2, bootrom) paths from the environment; Missing when either is absent."""
    uf2 = _first("SCOREBOX_CP_UF2", "SCOREBOX_CP_DIR", "circuitpython-*raspberry_pi_pico*.uf2")
    rom = _first("SCOREBOX_RP2040_BOOTROM", "SCOREBOX_RP2_DIR", "rp2040-bootrom*.bin")
    if not (uf2 and rom):
        raise Missing(NEED)
    if not shutil.which("node") or not os.path.isdir(os.path.join(rp2.HERE, "node_modules", "rp2040js")):
        raise Missing(rp2.NEED_NODE)
    return uf2, rom


def fs_image(files):
    """CIRCUITPY as a PC leaves it: a FAT12 drive holding files, [(path on the box, bytes)]."""
    from pyfatfs.PyFat import PyFat
    from pyfatfs.PyFatFS import PyFatFS

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fat.img")
        with open(path, "wb") as f:
            f.write(bytes(FS_SIZE))  # pyfatfs's mkfs takes a zeroed root directory as empty
        fat = PyFat()
        fat.mkfs(path, PyFat.FAT_TYPE_FAT12, size=FS_SIZE, label="CIRCUITPY")
        fat.close()
        drive = PyFatFS(path)
        for name, data in files:
            if "/" in name:
                drive.makedirs(name.rsplit("/", 1)[0], recreate=True)
            drive.writebytes("/" + name, data)
        drive.close()
        with open(path, "rb") as f:
            return f.read()


def fs_files(image):
    """{path on the box: bytes} of every file on a CIRCUITPY image (a saved flash file).
    RuntimeError when its two FATs differ (pyfatfs would only warn and read the first): the
    power went before CircuitPython wrote both."""
    import warnings

    from pyfatfs.PyFatFS import PyFatFS

    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        try:
            drive = PyFatFS(image, read_only=True)
        except UserWarning as e:
            raise RuntimeError("%s: %s" % (image, e)) from None
    try:
        return {p.lstrip("/"): drive.readbytes(p) for p in drive.walk.files()}
    finally:
        drive.close()


def console_text(raw):
    """What the console printed, without CircuitPython's status-bar titles, lines in \\n."""
    return _TITLE.sub(b"", raw).replace(b"\r\n", b"\n").decode(errors="replace")


class EmulatedCircuitPython(rp2.EmulatedPico):
    """One emulated CircuitPython Pico. flash: the file holding CIRCUITPY (fs_image(); blank
    when absent, and CircuitPython formats it at first boot). The console's pty is `port`.
    paused: power on at the first play() (or run()) and run only while keys play, so that a
    run's cycles repeat exactly (EmulatedPico's)."""

    HARNESS = os.path.join(HERE, "harness.mjs")

    def __init__(self, flash, vbus=True, vsys_mv=4500, log=None, fw=None, paused=False):
        self.uf2, self.rom = images()
        PtyBox.__init__(self, flash, log)  # not EmulatedPico's: its images are MicroPython's
        # usb_cdc.data's pty, `data_port` (usbdata.mjs): silent until boot.py enables it.
        self.data_master, self.data_slave = pty.openpty()
        tty.setraw(self.data_slave)
        self.data_port = os.ttyname(self.data_slave)
        self.ptys.append((self.data_master, self.data_slave))
        self.pins = rp2.pin_map(fw)
        self.vbus = vbus
        self.vsys_mv = vsys_mv
        self.paused = paused
        self.flash_model = None  # CircuitPython's harness models no flash time
        self.boot()

    def config(self):
        """EmulatedPico's, with CIRCUITPY's place and the I2C pins (CircuitPython's probe is
        read on them)."""
        p = self.pins
        return dict(
            super().config(),
            fs_offset=FS_OFFSET,
            fs_size=FS_SIZE,
            i2c_sda=p["I2C_SDA"],
            i2c_scl=p["I2C_SCL"],
            usb_data_fd=self.data_wire.fileno(),
        )

    def boot(self):
        """EmulatedPico's, with a second USB wire relayed to and from `data_port`."""
        here, self.data_wire = socket.socketpair()
        super().boot()
        self.data_wire.close()
        self.relay(here, self.data_master)

    def pass_fds(self):
        return (*super().pass_fds(), self.data_wire.fileno())

    def read_until(self, marker, timeout=300):
        """What the console sent, as the PC reads it on `port`, up to and including marker
        (bytes); RuntimeError on a timeout."""
        import select

        got = b""
        deadline = time.monotonic() + timeout
        while marker not in got:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                raise RuntimeError("the console did not say %r: %r %s" % (marker, got[-800:], self.tail()))
            if select.select([self.slave], [], [], min(left, 0.5))[0]:
                got += os.read(self.slave, 65536)
        return got

    def run_code(self):
        """Run code.py to its end from power-on, then pull the power (the drive saved) and let
        the box go: what the console printed (console_text())."""
        try:
            self.wait_usb()
            out = console_text(self.read_until(DONE))
            self.power_off()
        finally:
            self.close()
        return out

    def write(self, data):
        """Type data on the console, as the PC writes to `port`."""
        os.write(self.slave, data)
