"""Power cuts at every flash write of a journal on the emulated CircuitPython Pico, replayed on
the PC (tests/cp/test_cp_powercut.py, bench/bench_cp_journal.py).

A run boots CircuitPython with the journal's firmware as source on CIRCUITPY and a code.py that
writes a match through it, marking each call's return in microcontroller.nvm (outside the drive,
so the marks never change it); the harness traces every flash write (sim/cp/flashtrace.mjs).
The drive as a cut leaves it is the start image plus the writes before the cut; a cut inside
a write is modelled too: a sector erase that stopped half way (its first half erased) and a
program that stopped half way (its first half written)."""

import json
import os
import shutil
import struct
import sys

from cphelp import core_sources

from scorebox.device.firmware import firmware_dir
from scorebox.sim.cp import emu

if firmware_dir() not in sys.path:
    sys.path.append(firmware_dir())  # box/fat/twin.py on the PC: it runs under CPython too

BOOT = b'import storage\nstorage.remount("/", readonly=False)\n'
HEADER = {"options": {"games": 3}, "archers": ["Ann", "Bob"], "distance": 18, "unit": "m"}
# A short match: arrows (kind << 6 | square << 2 | value), an undo (256), a new face (258).
EVENTS = [5, 70, 9, 137, 14, 256, 14, 200, 33, 258, 7, 96]
RESULT = {"winner": "A", "games": [2, 1]}
# code.py: after a boot the records the journal file holds, on the console; on a drive with none
# yet, the match's records written one by one, each one's return marked in nvm[0:2] (mark k:
# k records written). TWIN: box/fat/twin.py's copies; else the plain append and flush that
# box/journal.py does on LittleFS (all or nothing there), to show what a cut does to it on FAT.
CODE = """import json, microcontroller, os, supervisor, time
from scorebox_core import records as R
while not supervisor.runtime.serial_connected:
    time.sleep(0.01)
TWIN = %(twin)r
if TWIN:
    from box.fat.twin import Twin
    t = Twin("/g000001.tbj", "/tbjb/g000001.tbj")
    t.open()
    data = t.read()
else:
    try:
        data = open("/g000001.tbj", "rb").read()
    except OSError:
        data = b""
print("VIEW " + json.dumps([[o, e, ty] for o, e, ty, _ in R.scan_bytes(data)]))
if not data:
    recs = [R.group_record(1) + R.match_record(1, %(header)r)]
    recs += [R.event_record(e) for e in %(events)r]
    recs += [R.value_record(R.RESULT, %(result)r), R.confirm_record(0), R.confirm_record(1)]
    nvm = microcontroller.nvm
    nvm[0:2] = bytes(2)  # the file is made: the match's writes begin
    f = None if TWIN else open("/g000001.tbj", "ab")
    took = []
    for k, rec in enumerate(recs):
        t0 = supervisor.ticks_ms()
        if TWIN:
            t.write(rec)
        else:
            f.write(rec)
            f.flush()
        took.append(supervisor.ticks_ms() - t0)
        nvm[0:2] = bytes(((k + 1) >> 8, (k + 1) & 255))
    print("TOOK " + json.dumps(took))
"""


# code.py for box/journal.py itself (on FAT through box/fat/group.py and its parts): after a boot the
# journal's view; on a drive with no match yet, the match written call by call (start_match,
# each event, finish, both confirmations), each call's return marked in nvm[0:2].
CODE_JOURNAL = """import json, microcontroller, supervisor, time
while not supervisor.runtime.serial_connected:
    time.sleep(0.01)
from box.journal import Journal
j = Journal("/")
rep = j.recover()
o = j.open_match()
u = j.unconfirmed()
print("VIEW " + json.dumps([len(j.list_matches()), list(o[2]) if o else None, u[2] if u else None, rep["damage"]]))
if o is not None:  # after a cut the match goes on: one more event, read back from the drive
    j.append(%(more)d)
    r = Journal("/")  # read again from the drive (the shared Reader knows no ring)
    r.recover()
    print("MORE " + json.dumps(list(r.open_match()[2])))
if j.last() == 0:
    nvm = microcontroller.nvm
    calls = [lambda: j.start_match(%(header)r)]
    calls += [lambda e=e: j.append(e) for e in %(events)r]
    calls += [lambda: j.finish(%(result)r), lambda: j.confirm(0), lambda: j.confirm(1)]
    nvm[0:2] = bytes(2)
    took = []  # microseconds of each call, emulated
    for k, call in enumerate(calls):
        t0 = time.monotonic_ns()
        call()
        took.append((time.monotonic_ns() - t0) // 1000)
        nvm[0:2] = bytes(((k + 1) >> 8, (k + 1) & 255))
    print("TOOK " + json.dumps(took))
"""
CALLS = 1 + len(EVENTS) + 3
MORE = 40  # the event a box rebooted in the middle of the match appends


# The journal's modules on the box: box/journal.py, what it loads, and on FAT its groups, ring,
# recovery and the store's copies (made with the ring)
JOURNAL_MODULES = ("box/__init__.py", "box/journal.py", "box/recovery.py", "box/acks.py") + tuple(
    "box/fat/%s.py" % m for m in ("__init__", "group", "recovery", "kept", "ring", "twin")
)


def journal_files():
    """The firmware the journal needs, as source, with CODE_JOURNAL as code.py."""
    fw = firmware_dir()
    out = list(core_sources()) + [("boot.py", BOOT)]
    for rel in JOURNAL_MODULES:
        with open(os.path.join(fw, rel), "rb") as f:
            out.append((rel, f.read()))
    code = CODE_JOURNAL % {"header": HEADER, "events": EVENTS, "result": RESULT, "more": MORE}
    return out + [("code.py", code.encode())]


def view_calls(out):
    """The calls done that a CODE_JOURNAL run's view says (on the box, after its boot)."""
    done, events, unconfirmed, damage = view(out)
    if damage or (events is not None and events != EVENTS[: len(events)]):
        raise AssertionError("the box read %r" % view(out))
    if events is not None:
        return 1 + len(events)
    if not done:
        return 0
    return 2 + len(EVENTS) + (sum(unconfirmed) if unconfirmed else 2)


RING = ("tbja/journal.tbs", "tbjb/journal.tbs")  # box/fat/ring.py's Ring, made at the first boot
JOURNAL = RING + ("g000001.tbj", "tbjb/g000001.tbj")  # (or the group's copies, without one)


def calls_in(files, tmp):
    """How many of CODE_JOURNAL's calls the journal on a drive shows done ({path: bytes}, the
    ring's files or the group's copies), read on the PC as the box reads it: box/journal.py
    with its FAT flag, whose recovery repairs the newest group's two copies (the ring's
    slot, or the group's files); ValueError when it shows anything not written."""
    from box import journal

    if os.path.isdir(tmp):
        shutil.rmtree(tmp)
    for name in JOURNAL:
        if name in files:
            os.makedirs(os.path.join(tmp, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(files[name])
    os.makedirs(tmp, exist_ok=True)
    was, journal.FAT = journal.FAT, True
    r = journal.Journal(tmp)
    try:
        rep = r.recover()
        return _calls(r, rep)
    finally:
        r.close()
        journal.FAT = was


def _calls(r, rep):
    if rep["damage"] or r.verify()["damage"]:
        raise ValueError("damage: %s" % rep["damage"])
    done = r.list_matches()
    o = r.open_match()
    if o is not None:
        if done or list(o[2]) != EVENTS[: len(o[2])] or o[1].get("archers") != HEADER["archers"]:
            raise ValueError("open match %r after %r" % (o, done))
        return 1 + len(o[2])
    if not done:
        return 0
    h, events, x = r.read_match(done[0])
    if len(done) > 1 or list(events) != EVENTS or x["result"] != RESULT or h.get("archers") != HEADER["archers"]:
        raise ValueError("finished match %r %r %r" % (done, events, x))
    c = x["confirmed"]
    if c[1] and not c[0]:
        raise ValueError("B confirmed before A")
    return 2 + len(EVENTS) + c[0] + c[1]


def records():
    """The records code.py writes, in order (bytes each)."""
    from scorebox_core import records as R

    recs = [R.group_record(1) + R.match_record(1, HEADER)]
    recs += [R.event_record(e) for e in EVENTS]
    return recs + [R.value_record(R.RESULT, RESULT), R.confirm_record(0), R.confirm_record(1)]


def firmware_files(twin=True):
    """The firmware code.py needs, as source, [(path on the box, bytes)], and code.py."""
    fw = firmware_dir()
    out = list(core_sources()) + [("boot.py", BOOT)]
    for rel in ("box/__init__.py", "box/fat/__init__.py", "box/fat/twin.py"):
        with open(os.path.join(fw, rel), "rb") as f:
            out.append((rel, f.read()))
    code = CODE % {"twin": twin, "header": HEADER, "events": EVENTS, "result": RESULT}
    return out + [("code.py", code.encode())]


class TracedPico(emu.EmulatedCircuitPython):
    """An emulated CircuitPython Pico whose harness traces its flash writes into trace."""

    def __init__(self, flash, trace):
        self.trace = trace
        super().__init__(flash)

    def config(self):
        return dict(super().config(), flash_trace=self.trace)


def run(start, tmp, name):
    """Boot start (a drive image) once: (console text, trace file, the drive after)."""
    flash = os.path.join(tmp, name + ".img")
    trace = os.path.join(tmp, name + ".trace")
    shutil.copyfile(start, flash)
    return TracedPico(flash, trace).run_code(), trace, flash


def view(out):
    """The journal's view a run's code.py printed: [finished matches, open events, damage]."""
    line = [ln for ln in out.splitlines() if ln.startswith("VIEW ")]
    if not line:
        raise AssertionError("no journal view: %s" % out[-600:])
    return json.loads(line[0][5:])


def read_trace(path):
    """([(kind, offset, length, bytes or None, mark)], the number of the first write after
    code.py's first mark): mark is the records written before it."""
    ops = []
    first = None
    mark = 0
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        _, kind, off, n = struct.unpack_from("<dIII", data, pos)
        if kind not in (1, 2, 3):
            raise ValueError("%s: no flash write at byte %d (kind %d)" % (path, pos, kind))
        pos += 20
        if kind == 3:
            b = data[pos : pos + 4]
            pos += 4
            mark = b[0] << 8 | b[1]
            first = len(ops) if first is None else first
            continue
        body = None
        if kind == 2:
            body = data[pos : pos + n]
            pos += n
        ops.append((kind, off, n, body, mark))
    return ops, first


def states(start, ops):
    """Every drive a cut can leave, in order: (name, image bytes, calls returned before it):
    before each write, and inside it (half an erase, half a program)."""
    img = bytearray(start)
    for i, (kind, off, n, body, mark) in enumerate(ops):
        yield "before %d" % i, bytes(img), mark
        half = bytearray(img)
        if kind == 1:
            half[off : off + n // 2] = b"\xff" * (n // 2)
        else:
            for j in range(n // 2):
                half[off + j] &= body[j]
        yield "inside %d (%s)" % (i, "erase" if kind == 1 else "program"), bytes(half), mark
        if kind == 1:
            img[off : off + n] = b"\xff" * n
        else:
            for j in range(n):
                img[off + j] &= body[j]
    yield "after all", bytes(img), ops[-1][4] if ops else 0


def written(files, tmp, twin=True):
    """How many of code.py's records the journal file in files ({path: bytes}, a drive's)
    holds, read on the PC as the box reads it (twin: box/fat/twin.py's open(), which puts
    the better copy over the other); ValueError when it holds anything else (a record not
    written, a damaged stretch)."""
    from box.fat.twin import Twin
    from scorebox_core import records as R

    if os.path.isdir(tmp):
        shutil.rmtree(tmp)
    os.makedirs(os.path.join(tmp, "tbjb"))
    for name in ("g000001.tbj", "tbjb/g000001.tbj"):
        if name in files:
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(files[name])
    if twin:
        t = Twin(os.path.join(tmp, "g000001.tbj"), os.path.join(tmp, "tbjb", "g000001.tbj"))
        t.open()
        data = t.read()
        t.close()
    else:
        data = files.get("g000001.tbj", b"")
    got = [(t, v) for _, _, t, v in R.scan_bytes(data)]
    want = [(t, v) for _, _, t, v in R.scan_bytes(b"".join(records()))]
    if got != want[: len(got)]:
        raise ValueError("not the records written: %r" % [R.NAMES[t] for t, _ in got])
    return max(0, len(got) - 1)  # the first write is two records: GROUP and MATCH


def drive_files(image, tmp, paths=("g000001.tbj", "tbjb/g000001.tbj")):
    """{path: bytes} of those files a drive image holds (lower case), read with pyfatfs from its
    first FAT as CircuitPython's FatFs reads it; RuntimeError when it is no FAT drive
    (CircuitPython would format it again at boot: every file lost)."""
    import warnings

    from pyfatfs.PyFatFS import PyFatFS

    path = os.path.join(tmp, "state.img")
    with open(path, "wb") as f:
        f.write(image)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            drive = PyFatFS(path, read_only=True)
            try:
                have = {p.lstrip("/").lower(): p for p in drive.walk.files()}
                return {p: drive.readbytes(have[p]) for p in paths if p in have}
            finally:
                drive.close()
    except Exception as e:  # any damage pyfatfs trips on: the drive is lost to the box too
        raise RuntimeError("no readable FAT drive: %s: %s" % (type(e).__name__, e)) from None


def failures(start, ops, tmp, twin=True, first=0, last=None, count=None, paths=("g000001.tbj", "tbjb/g000001.tbj")):
    """The cuts from write number first on, up to the last record's (mark last), whose drive
    loses a record whose write had returned or shows one not written, read on the PC by
    count(files, tmp) (written()'s by default; files: paths' bytes on the drive): [(state,
    marked, what the drive shows)]."""
    bad = []
    for name, image, mark in states(start, ops):
        if name == "after all" or int(name.split()[1]) < first or (last is not None and mark >= last):
            continue
        try:
            files = drive_files(image, tmp, paths)
            got = count(files, os.path.join(tmp, "j")) if count else written(files, os.path.join(tmp, "j"), twin)
        except (RuntimeError, ValueError) as e:
            got = str(e)[:160]
        if got not in (mark, mark + 1):
            bad.append((name, mark, got))
    return bad


def clusters(image, path):
    """The byte offsets in a FAT12 drive image (fs_image's, CircuitPython's) of the clusters of
    file path (its 8.3 names), read from the boot sector, the first FAT and the directories."""
    le = int.from_bytes
    bps, spc, rsv, nfat = le(image[11:13], "little"), image[13], le(image[14:16], "little"), image[16]
    roots, fatsz = le(image[17:19], "little"), le(image[22:24], "little")
    fat = image[rsv * bps : (rsv + fatsz) * bps]
    root = (rsv + nfat * fatsz) * bps
    data = root + roots * 32
    size = bps * spc

    def chain(c):
        while 2 <= c < 0xFF8:
            yield data + (c - 2) * size
            v = fat[c + c // 2] | fat[c + c // 2 + 1] << 8
            c = v >> 4 if c & 1 else v & 0xFFF

    where = [root + 32 * i for i in range(roots)]
    for part in path.upper().split("/"):
        stem, _, ext = part.partition(".")
        want = (stem.ljust(8) + ext.ljust(3)).encode()
        found = None
        for off in where:
            for e in range(off, off + (size if off >= data else 32), 32):
                if image[e : e + 11] == want and image[e + 11] != 0x0F:
                    found = le(image[e + 26 : e + 28], "little")
        if found is None:
            raise ValueError("%s: no %s on the drive" % (path, part))
        where = list(chain(found))
    return where
