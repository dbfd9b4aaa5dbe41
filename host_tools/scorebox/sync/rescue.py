"""`scorebox sync --raw`: rescue a box whose firmware cannot answer.

The journal files are copied with mpremote (the REPL still works when the app does not),
decoded file by file as a normal sync decodes them (damage does not stop it: each
damaged match is reported and what follows is rescued), checked and stored. Nothing
is acknowledged or deleted on the box: a later normal sync compares the matches it holds
with the box's and frees their space. The quarantine file (torn or damaged records the box set aside) is
imported too, into the store's quarantine table, so that no byte the box kept is lost.
mpremote's Ctrl-C stops the box's app and leaves it at the REPL: once the matches are
stored, the box is soft-reset, as `scorebox deploy` does, so that it runs its app again.

On CircuitPython's FAT drive the journal is a ring (docs/journal.md "On FAT"): its two files
are copied too and read by the box's own code (box/journal.py with its FAT flag), whose groups
are then decoded as the sync's READ gives them. `scorebox sync --drive FOLDER` rescues from a
CIRCUITPY drive mounted on the PC instead, copying from it and never writing to it.
"""

import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile

from scorebox.device import deploy
from scorebox.device import mpremote_adapter as mp
from scorebox.device.firmware import firmware_dir
from scorebox.device.link import DeviceError
from scorebox.errors import ScoreboxError
from scorebox.store.errors import StoreError
from scorebox.sync.plan import file_ends, group_of, journal_run
from scorebox.sync.protocol import GROUP_FILE
from scorebox.sync.storing import prepare, quarantined, store_batch
from scorebox.sync.summary import Progress, Summary
from scorebox_core import fatlayout
from scorebox_core.journal import ACK_FILE, QUARANTINE_FILE, JournalError, Reader

ROOTS = ("/flash", "/")  # the virtual Pico mounts its flash at /flash, a Pico at /


def _ring_files():
    """The ring's two files in the journal's folder (docs/journal.md "On FAT")."""
    return (fatlayout.FIRST + "/" + fatlayout.RING, fatlayout.MIRROR + "/" + fatlayout.RING)


# The journal's folder on the box as os.listdir sees it, and which of the ring's files it has:
# mpremote's `fs ls` needs os.ilistdir, which CircuitPython does not have.
_LIST = """import os
for r in %r:
    try:
        n = os.listdir(r)
    except OSError:
        continue
    p = r.rstrip('/') + '/'
    ring = []
    for f in %r:
        try:
            os.stat(p + f)
            ring.append(f)
        except OSError:
            pass
    print(repr((r, n, ring)))
"""


def _journal_files(names, rings):
    """The journal's files among names to copy: with a ring (rings, its files there) the
    quarantine alone, the ring holding the groups and acknowledgements."""
    if rings:
        return [n for n in names if n == QUARANTINE_FILE]
    return [n for n in names if (n.startswith("g") and n.endswith(".tbj")) or n in (QUARANTINE_FILE, ACK_FILE)]


def _uid(folder):
    try:
        with open(os.path.join(folder, "device.id")) as f:
            return f.read().strip() or None
    except OSError:
        return None


def pull(port, folder):
    """Copy the box's journal files (a ring's too) into folder; returns (root on the box, device id)."""
    listing = mp.exec_(port, _LIST % (ROOTS, _ring_files()))
    found = [ast.literal_eval(line) for line in listing.splitlines() if line.startswith("(")]
    for root, names, rings in found:
        files = _journal_files(names, rings)
        if files or rings or "device.id" in names:
            want = files + (["device.id"] if "device.id" in names else [])
            path = root.rstrip("/") + "/"
            mp.cp_from(port, [path + n for n in want], folder)
            for f in rings:  # one copy a session: both files are named journal.tbs
                d = os.path.join(folder, os.path.dirname(f))
                os.mkdir(d)
                mp.cp_from(port, [path + f], d)
            return root, _uid(folder)
    raise mp.MpremoteError("no Scorebox journal found on the box (looked in %s)" % ", ".join(ROOTS))


def copy_drive(drive, folder):
    """Copy the journal files of a CIRCUITPY drive mounted at drive (a folder) into folder,
    reading only; returns the device id. ScoreboxError when it holds no journal."""
    try:
        names = os.listdir(drive)
    except OSError as e:
        raise ScoreboxError("cannot read %s: %s" % (drive, e.strerror or e))
    rings = [f for f in _ring_files() if os.path.isfile(os.path.join(drive, f))]
    files = _journal_files(names, rings)
    if not files and not rings:
        raise ScoreboxError(
            "no Scorebox journal in %s (no g*.tbj file, no %s): give the box's CIRCUITPY drive"
            % (drive, _ring_files()[0])
        )
    for n in files + (["device.id"] if "device.id" in names else []):
        shutil.copyfile(os.path.join(drive, n), os.path.join(folder, n))
    for f in rings:
        os.mkdir(os.path.join(folder, os.path.dirname(f)))
        shutil.copyfile(os.path.join(drive, f), os.path.join(folder, f))
    return _uid(folder)


def sync_drive(drive, store):
    """Rescue the journal of the CIRCUITPY drive mounted at drive into store (nothing is
    written to the drive). Returns the Summary."""
    s = Summary()
    with tempfile.TemporaryDirectory(prefix="scorebox-rescue-") as folder:
        uid = copy_drive(drive, folder)
        rescue(folder, uid or "unknown-drive", store, s)
    return s


# unring's work, run by the box's own code (box/journal.py with its FAT flag set) in a
# Python of its own with only the firmware on its path, as the box's boot reads the ring
_UNRING = """
import json, os, sys
from box import journal
from scorebox_core.journal import ACK_FILE, JournalError, group_name
journal.FAT = True  # this process plays the box on its FAT drive
folder, data, out = sys.argv[1], {}, {}
j = journal.Journal(folder)
try:
    j.recover()
    r = j._slots
    names = [group_name(f) for f in r.firsts if f] + ([ACK_FILE] if r.acks else []) if r else []
    for name in names:
        with j._file(name) as f:
            data[name] = f.read()
except (JournalError, ValueError, OSError) as e:
    out["error"] = str(e)
finally:
    if j._slots is not None:
        j._slots.close()
for name, b in data.items():
    with open(os.path.join(folder, name), "wb") as f:
        f.write(b)
out.setdefault("names", sorted(data))
print(json.dumps(out))
"""


def unring(folder, s):
    """The ring copied into folder (_ring_files()) read by the box's own code, as its
    boot reads it (box/journal.py with its FAT flag: the copies made equal, each slot's
    group from the copy holding its first record): each slot's group written into folder as
    the group file the sync's READ gives (g000075.tbj, 40 KiB), and the acknowledgements as
    journal.ack. The copies are this folder's: the box's drive is not touched. Returns
    the names written; a ring the box's code cannot read is a note in s."""
    done = subprocess.run(
        [sys.executable, "-c", _UNRING, folder],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=firmware_dir()),
    )
    try:
        out = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):  # the box's code stopped on an error of its own
        out = {"error": (done.stderr.strip().splitlines() or ["no answer"])[-1]}
    if "error" in out:
        s.notes.append("the journal's ring could not be read (%s): its matches are not rescued" % out["error"])
        return []
    return out["names"]


RESTART_WAIT = 10.0  # seconds for the box's app to answer after its soft reset (a Pico's boot: under 1 s)


def sync_raw(port, store):
    """Rescue the journal of the box on port into store, then soft-reset the box, whether or
    not the copy and the store succeeded: mpremote's Ctrl-C has stopped its app either way.
    An error keeps the restart's line. Returns the Summary."""
    s = Summary()
    restart = True
    try:
        with tempfile.TemporaryDirectory(prefix="scorebox-rescue-") as folder:
            try:
                _, uid = pull(port, folder)
            except mp.MpremoteError as e:
                raise StoreError("rescue failed: %s" % e)
            rescue(folder, uid or "unknown-" + port.replace("/", "_"), store, s)
    except ScoreboxError as e:
        if restart:
            e.args = ("%s; %s" % (e, restart_app(port)),)
            restart = False
        raise
    finally:
        if restart:
            s.restart = restart_app(port)
    return s


def restart_app(port):
    """Soft-reset the box (mpremote left it at the REPL) and wait for its app to answer;
    the summary's line saying whether it does."""
    try:
        deploy.restart(port)
        deploy.hello(port, timeout=RESTART_WAIT)
    except deploy.DeployError:
        return (
            "the box's app did not start again (no answer %d s after a soft reset): unplug the box and plug it "
            "in again; if it still does not answer, `scorebox doctor` says what to do" % RESTART_WAIT
        )
    except DeviceError as e:
        return "the box's app was not restarted (%s): unplug the box and plug it in again" % e
    return "the box's app runs again (restarted after the copy)"


class _AllBut:
    """Every match number but one (the open match, which stays on the box)."""

    def __init__(self, number):
        self.number = number

    def __contains__(self, n):
        return n != self.number

    def __iter__(self):  # the numbers known to be in a file: none (the rescue reports the missing itself)
        return iter(())


def _numbers(folder, s):
    """(numbers of the matches kept, number of the match in progress or None) of the
    journal files in folder, as the box's reader sees them."""
    j = Reader(folder)
    try:
        j.recover()
        o = j.open_match()
        return j.list_matches(), o[0] if o else None
    except JournalError as e:  # damage the reader cannot place: decode_file below finds the rest
        s.notes.append(
            "the box's journal could not be read as a whole (%s): the matches found whole are stored, but a match "
            "missing from it is not reported and a journal started again is not spotted" % e
        )
        return [], None


def rescue(folder, uid, store, s):
    """Store what the journal files copied into folder hold, as a normal sync does, damage
    and all: each group file is decoded on its own (sync/decode.py), a match that cannot
    be stored whole keeps its bytes in the quarantine table and is reported in s.damaged,
    and whatever follows it is rescued too; then the quarantine file."""
    s.device = uid
    store.device(uid)
    if any(os.path.isfile(os.path.join(folder, f)) for f in _ring_files()):
        unring(folder, s)
    numbers, opened = _numbers(folder, s)
    s.open = opened is not None
    wanted = _AllBut(opened)
    names = sorted(name for name in os.listdir(folder) if GROUP_FILE.match(name))
    firsts = [int(name[1:7]) for name in names]
    ends = file_ends(firsts, numbers)

    def read(first):
        with open(os.path.join(folder, "g%06d.tbj" % first), "rb") as f:
            return f.read()

    def box_digest(n):  # the box's copy of match n, hashed as the store's are
        first = group_of(n, firsts)
        if first is None:
            return None
        return prepare(first, "g%06d.tbj" % first, read(first), (), {n}, ends[first])[3].get(n)

    # A journal wiped by hand: its matches are a new run of the box's (plan.journal_run).
    oldest = firsts[0] if firsts else None
    base, held = journal_run(store, uid, [n for n in numbers if n != opened], oldest, box_digest, s)
    for name, first in zip(names, firsts):
        again = [n for n in held if group_of(n, firsts) == first]  # compared before counted as held
        job = prepare(first, name, read(first), wanted, again, ends[first], base)
        store_batch(store, uid, [job], s, Progress(0), base)
    found = {n for n, _ in s.new} | {d[0] for d in s.damaged} | {n for n in numbers if store.has_match(uid, base + n)}
    for n in numbers:
        if n not in found:
            s.refused.append((n, "not found whole in the box's journal (damaged records: their bytes are quarantined)"))
    qpath = os.path.join(folder, QUARANTINE_FILE)
    if os.path.exists(qpath):
        with open(qpath, "rb") as f:
            s.quarantined += store.add_quarantine(uid, quarantined(f.read()))
