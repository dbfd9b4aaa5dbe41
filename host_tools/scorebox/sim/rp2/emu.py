"""The emulated Pico: MicroPython's RPI_PICO image on the rp2040js emulator (harness.mjs,
Node), with the box's display, keys, VSYS and VBUS modelled, and its USB CDC on a
pseudo-terminal that pyserial, `scorebox deploy`, `scorebox sync` and mpremote open as
they would a Pico's /dev/ttyACM0 (docs/rp2.md).

The flash's file system region (LittleFS2 at 0xA0000) lives in a host file: built here
with littlefs-python from what `scorebox deploy` puts on a box, saved when the emulator
stops or its power is cut, and loaded at the next boot. Time is the RP2040's: cycles at
125 MHz, deterministic from run to run.
"""

import functools
import glob
import json
import os
import queue
import shutil
import socket
import subprocess
import threading

from scorebox.device import deploy, firmware
from scorebox.device.firmware import firmware_dir
from scorebox.process import die_with_parent
from scorebox.sim.ptybox import PtyBox

HERE = os.path.dirname(os.path.abspath(__file__))
HZ = 125_000_000
# RPI_PICO's file system: LittleFS2, 352 blocks of 4096 at flash offset 0xA0000.
FS_OFFSET = 0xA0000
FS_SIZE = 0x160000
BLOCK = 4096
NEED = (
    "the emulated Pico needs MicroPython's RPI_PICO v1.28.0 UF2 (MicroPython's download page, board RPI_PICO) "
    "and the RP2040 B1 boot ROM (raspberrypi/pico-bootrom, 16 KiB): set SCOREBOX_PICO_UF2 and "
    "SCOREBOX_RP2040_BOOTROM to them, or SCOREBOX_RP2_DIR to one folder holding both (docs/rp2.md)"
)
NEED_NODE = (
    "the emulated Pico needs Node (18 or later) and rp2040js: `make test` or `make bench` installs"
    " rp2040js (npm ci --prefix host_tools/scorebox/sim/rp2)"
)
# The flash chip's timing models (harness.mjs FLASH_NS): None leaves it out.
FLASH_MODELS = (None, "typical", "max")
# Keypad key codes, row by row (box/keys.py): the matrix position of each.
PAD = "123A456B789C*0#D"


class Missing(RuntimeError):
    """The images, node or rp2040js are not there: str() says what to get."""


def images():
    """(uf2, bootrom) paths from the environment; Missing when either is absent."""
    uf2 = os.environ.get("SCOREBOX_PICO_UF2")
    rom = os.environ.get("SCOREBOX_RP2040_BOOTROM")
    folder = os.environ.get("SCOREBOX_RP2_DIR")
    if folder:
        uf2 = uf2 or next(iter(sorted(glob.glob(os.path.join(folder, "*RPI_PICO*.uf2")))), None)
        rom = rom or next(iter(sorted(glob.glob(os.path.join(folder, "rp2040-bootrom*.bin")))), None)
    if not (uf2 and rom and os.path.isfile(uf2) and os.path.isfile(rom)):
        raise Missing(NEED)
    if not shutil.which("node") or not os.path.isdir(os.path.join(HERE, "node_modules", "rp2040js")):
        raise Missing(NEED_NODE)
    return uf2, rom


def frozen_uf2():
    """The image with the box frozen in (`make uf2`): SCOREBOX_FROZEN_UF2, else the checkout's
    out/scorebox-<version>-RPI_PICO.uf2 when it was built from this firmware tree (its .inputs
    file says); Missing otherwise."""
    path = os.environ.get("SCOREBOX_FROZEN_UF2")
    if path:
        if not os.path.isfile(path):
            raise Missing("SCOREBOX_FROZEN_UF2=%s does not exist" % path)
        return path
    fw = firmware_dir()
    path = os.path.join(os.path.dirname(fw), "out", "scorebox-%s-RPI_PICO.uf2" % firmware.version(fw))
    try:
        with open(path + ".inputs") as f:
            built_from = json.load(f)["firmware"]
    except (OSError, ValueError, KeyError):
        raise Missing("no frozen image: `make uf2` builds %s (SCOREBOX_MICROPY_SRC: docs/rp2.md)" % path)
    if built_from != firmware.tree_hash(fw):
        raise Missing("%s was built from another firmware tree: `make uf2` builds it again" % path)
    return path


class Image:
    """What a box runs: "stock" is MicroPython's own image with the box deployed as .mpy files
    (`scorebox deploy`); "frozen" is the image of `make uf2`, with main.py and pins.py as
    files. uf2: its path (None: the stock one of images())."""

    KINDS = ("stock", "frozen")

    def __init__(self, kind):
        self.kind = kind
        self.uf2 = frozen_uf2() if kind == "frozen" else images()[0]

    def files(self, out):
        """[(path on the box, bytes)] that it needs on its file system (built in the folder out)."""
        if self.kind == "stock":
            return deployed_files(out)
        fw = firmware_dir()
        return [(n, open(os.path.join(fw, n), "rb").read()) for n in firmware.sources(fw)]

    def __repr__(self):
        return self.kind


def elf():
    """The ELF with symbols of the same build (SCOREBOX_PICO_ELF, or *RPI_PICO*.elf in
    SCOREBOX_RP2_DIR), for symbols(); None when there is none."""
    path = os.environ.get("SCOREBOX_PICO_ELF")
    folder = os.environ.get("SCOREBOX_RP2_DIR")
    if not path and folder:
        path = next(iter(sorted(glob.glob(os.path.join(folder, "*RPI_PICO*.elf")))), None)
    return path if path and os.path.isfile(path) else None


def pin_map(fw=None):
    """firmware/pins.py's constants (plain Python, no imports)."""
    d = {}
    with open(os.path.join(fw or firmware_dir(), "pins.py")) as f:
        exec(f.read(), d)
    return d


def _lfs(image=None):
    """littlefs-python on RPI_PICO's geometry: a new file system, or the one in the file image."""
    from littlefs import LittleFS

    lfs = LittleFS(
        block_size=BLOCK,
        block_count=FS_SIZE // BLOCK,
        prog_size=256,
        read_size=32,
        lookahead_size=32,
        name_max=255,
        mount=image is None,
    )
    if image is not None:
        with open(image, "rb") as f:
            lfs.context.buffer[:] = f.read()
        lfs.mount()
    return lfs


def fs_image(files):
    """The file system region as deploy leaves it: files is [(path on the box, bytes)]."""
    lfs = _lfs()
    for path, data in files:
        if "/" in path:
            lfs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
        with lfs.open(path, "wb") as f:
            f.write(data)
    return bytes(lfs.context.buffer)


def deployed_files(out):
    """What `scorebox deploy` puts on a box (its .mpy build, main.py, pins.py), built in out."""
    return [(rel, open(local, "rb").read()) for rel, local in deploy.build(out)]


def key_step(name, hold_ms, gap_ms, pins=None):
    """A harness step for a key name (box.keys names) held hold_ms, then gap_ms free."""
    if name is None:
        return [None, None, hold_ms, gap_ms]
    if name in PAD:
        return [PAD.index(name), None, hold_ms, gap_ms]
    gpio = dict((pins or pin_map())["BUTTONS"])[name]
    return [None, gpio, hold_ms, gap_ms]


# Key paces: (hold ms, or None for the key script's own, gap ms). The virtual Pico's, and a
# storm of 9 keys a second (faster than an archer keys a score); tests/rp2's deeper storm goes
# faster still (boards/keypad.py's DMA ring holds 32 keys through a stall).
PACES = {"demo": (None, 120), "storm": (55, 55)}


def paced(script, pace, pins=None):
    """Harness steps for a key script [(key name or None, ms)] at a pace of PACES."""
    hold, gap = PACES[pace]
    pins = pins or pin_map()
    return [key_step(n, ms, 0) if n is None else key_step(n, hold or ms, gap, pins) for n, ms in script]


def pictures_lost(want, got):
    """How many of the pictures in want (a play()'s "shown") got does not show in the same
    order: a key the box lost takes at least its own picture with it."""
    import difflib

    m = difflib.SequenceMatcher(None, want, got, autojunk=False)
    return len(want) - sum(b.size for b in m.get_matching_blocks())


class EmulatedPico(PtyBox):
    """One emulated Pico. flash: the file holding the file system region (made blank, and
    formatted by MicroPython at first boot, when absent). The pty's path is `port`. paused:
    power on at the first play() (or run()), so that a run's cycles repeat exactly. uf2: the
    image to run (Image.uf2), MicroPython's own by default. flash_model: "typical" or "max"
    stalls the CPU for the flash chip's erase and program times (docs/rp2.md); None: no time."""

    HARNESS = os.path.join(HERE, "harness.mjs")  # the Node side (sim/cp's for CircuitPython)

    def __init__(self, flash, vbus=True, vsys_mv=4500, log=None, fw=None, paused=False, uf2=None, flash_model=None):
        self.uf2, self.rom = images()
        self.uf2 = uf2 or self.uf2
        if flash_model not in FLASH_MODELS:
            raise ValueError("flash_model: one of %s" % (FLASH_MODELS,))
        self.flash_model = flash_model
        super().__init__(flash, log)
        self.pins = pin_map(fw)
        self.vbus = vbus
        self.vsys_mv = vsys_mv
        self.paused = paused
        self.boot()

    def config(self):
        p = self.pins
        return {
            "uf2": self.uf2,
            "bootrom": self.rom,
            "flash": self.flash,
            "usb_fd": self.wire.fileno(),
            "fs_offset": FS_OFFSET,
            "fs_size": FS_SIZE,
            "panel": p["DISPLAY"],
            "panel_addr": p["DISPLAY_ADDR"],
            "i2c_bus": p["I2C_BUS"],
            "i2c_hz": p["I2C_FREQ"],
            "rows": list(p["KEYPAD_ROWS"]),
            "cols": list(p["KEYPAD_COLS"]),
            "buttons": [g for _, g in p["BUTTONS"]],
            "vbus_gpio": p["VBUS_GPIO"],
            "vbus": self.vbus,
            "vsys_mv": self.vsys_mv,
            "paused": self.paused,
            "flash_model": self.flash_model,
        }

    def boot(self):
        """Power on (again), with the flash as it was left."""
        self.stop_relays()  # the last boot's: they would take the PC's bytes to a dead harness
        self.events = queue.Queue()
        self.usb = threading.Event()
        # The USB wire: a socket pair to the harness (Node cannot poll a pty master),
        # relayed to and from the pty by two threads.
        here, self.wire = socket.socketpair()
        main = threading.current_thread() is threading.main_thread()
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(
                ["node", self.HARNESS, json.dumps(self.config())],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                pass_fds=self.pass_fds(),
                preexec_fn=functools.partial(die_with_parent, os.getpid()) if main else None,
                cwd=os.path.dirname(self.HARNESS),
            )
        self.wire.close()
        self._thread(self._read, self.proc, self.events)
        self.relay(here, self.master)

    def relay(self, sock, master):
        """Copy between a USB wire and a pty master while this boot's harness runs."""
        self._thread(self._to_pc, sock, master)
        self._thread(self._to_box, sock, master)

    def _thread(self, target, *args):
        t = threading.Thread(target=target, args=args, name="emulated Pico " + target.__name__, daemon=True)
        t.start()
        self.relays.append(t)

    def pass_fds(self):
        """The fds the harness inherits: the USB wire's (sim/cp adds its data port's)."""
        return (self.wire.fileno(),)

    def _to_pc(self, sock, master):
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                os.write(master, data)
        except OSError:
            pass
        sock.close()

    def _to_box(self, sock, master):
        """The PC's bytes to the box, while this boot's harness runs."""
        import select

        proc = self.proc
        try:
            while proc.poll() is None:
                if select.select([master], [], [], 0.2)[0]:
                    sock.sendall(os.read(master, 65536))
        except OSError:
            pass

    def _read(self, proc, events):
        for line in proc.stdout:
            ev = json.loads(line)
            if ev.get("ev") == "usb":
                self.usb.set()
            else:
                events.put(ev)
        events.put({"ev": "exit"})

    def send(self, **msg):
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()

    def ask(self, want, timeout=300, **msg):
        """Send msg and wait for the event named want."""
        if msg:
            self.send(**msg)
        while True:
            try:
                ev = self.events.get(timeout=timeout)
            except queue.Empty:
                raise RuntimeError("the emulated Pico did not answer %r: %s" % (msg, self.tail()))
            if ev["ev"] == want:
                return ev
            if ev["ev"] == "exit":
                raise RuntimeError("the emulated Pico stopped: %s" % self.tail())

    def wait_usb(self, timeout=120):
        if not self.usb.wait(timeout):
            raise RuntimeError("the emulated Pico's USB did not come up: %s" % self.tail())

    def play(self, steps, timeout=600):
        """Run key steps (key_step()) in emulated time; the frames after each, and timings."""
        return self.ask("played", timeout=timeout, op="play", steps=steps)

    def run(self):
        """Power on a Pico made paused."""
        self.send(op="run")

    def stats(self):
        return self.ask("stats", op="stats")

    def frame(self):
        return bytes.fromhex(self.ask("frame", op="frame")["frame"])

    def flashlog(self):
        return self.ask("flashlog", op="flashlog")["log"]

    def profile(self, on):
        """Count the cycles spent at each program counter from on=True; on=False returns
        them as {pc: cycles} (map them to C functions with symbols())."""
        if on:
            self.send(op="profile", on=True)
            return None
        return {pc: n for pc, n in self.ask("profile", op="profile", on=False)["pcs"]}

    def power_off(self, at_cycles=None, timeout=600):
        """Pull the power now, or at a chosen cycle: the flash is kept as it was then."""
        if at_cycles is None:
            ev = self.ask("off", timeout=timeout, op="stop")
        else:
            ev = self.ask("off", timeout=timeout, op="cut_at", cycles=at_cycles)
        self.proc.wait(timeout=30)
        self.drain()
        return ev

    def snap_at(self, cycles):
        """Ask for the flash as a power cut at each of these cycles would leave it: written to
        the files snapshot(c) while the emulator runs past them (play() waits)."""
        self.send(op="snap_at", cycles=list(cycles))

    def snapshot(self, cycles):
        return "%s.at%d" % (self.flash, cycles)

    def reboot(self):
        if self.proc.poll() is None:
            self.power_off()
        self.boot()


def fs_extract(image, out):
    """Copy every file of a file system region (a flash file or a snapshot) into the folder out."""
    lfs = _lfs(image)
    for root, _, names in lfs.walk("/"):
        for name in names:
            src = root.rstrip("/") + "/" + name
            dst = os.path.join(out, src.lstrip("/"))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with lfs.open(src, "rb") as f, open(dst, "wb") as g:
                g.write(f.read())


def fs_add(image, files):
    """Write files ([(path on the box, bytes)]) into the file system region in the file image
    (a virtual Pico's flash file has the same LittleFS2 geometry: it is used as it is)."""
    lfs = _lfs(image)
    for path, blob in files:
        if "/" in path:
            lfs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
        with lfs.open(path, "wb") as f:
            f.write(blob)
    lfs.unmount()
    with open(image, "wb") as f:
        f.write(bytes(lfs.context.buffer))


def symbols(profile, elf):
    """[(function, cycles)] of a profile(), most first, named from the ELF's symbol table
    (the ELF of the same build as the UF2, with symbols; read with binutils' nm)."""
    import bisect

    out = subprocess.run(["nm", "-n", elf], capture_output=True, text=True, check=True).stdout
    addrs, names = [], []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW" and not parts[2].startswith("$"):  # $t, $d: ARM mapping symbols
            addrs.append(int(parts[0], 16) & ~1)
            names.append(parts[2])
    total = {}
    for pc, n in profile.items():
        i = bisect.bisect_right(addrs, pc) - 1
        name = names[i] if i >= 0 else "?"
        total[name] = total.get(name, 0) + n
    return sorted(total.items(), key=lambda kv: -kv[1])


def main(argv=None):
    """`python -m scorebox.sim.rp2.emu FLASH [--frozen]`: an emulated Pico on a pty until Ctrl-C
    (a new FLASH holds the firmware as `scorebox deploy` leaves it; --frozen: runs the image of
    `make uf2`, with main.py and pins.py as files); its flash is saved at the end."""
    import sys
    import tempfile
    import time

    args = sys.argv[1:] if argv is None else argv
    kind = "frozen" if "--frozen" in args else "stock"
    args = [a for a in args if a != "--frozen"]
    if len(args) != 1:
        print("usage: python -m scorebox.sim.rp2.emu FLASH [--frozen]", file=sys.stderr)
        return 2
    try:
        images()  # the stock image, the boot ROM and Node for every kind: before a flash file is made
        image = Image(kind)
    except Missing as e:
        print(e, file=sys.stderr)
        return 2
    if not os.path.exists(args[0]):
        with tempfile.TemporaryDirectory() as out, open(args[0], "wb") as f:
            f.write(fs_image(image.files(out)))
    pico = EmulatedPico(args[0], uf2=image.uf2)
    print("emulated Pico (%s) on %s (Ctrl-C: power off, flash kept in %s)" % (kind, pico.port, args[0]), flush=True)
    try:
        while pico.proc.poll() is None:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pico.power_off()
    pico.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
