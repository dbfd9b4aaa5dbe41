"""`scorebox sync --raw`: rescue a box whose firmware cannot answer.

The journal files are copied with mpremote (the REPL still works when the app does not),
decoded file by file as a normal sync decodes them (damage does not stop it: each
damaged match is reported and what follows is rescued), checked and stored. Nothing
is acknowledged or deleted on the box: a later normal sync compares the matches it holds
with the box's and frees their space. The quarantine file (torn or damaged records the box set aside) is
imported too, into the store's quarantine table, so that no byte the box kept is lost.
"""

import os
import tempfile

from scorebox.device import mpremote_adapter as mp
from scorebox.store.db import StoreError
from scorebox.sync.pull import GROUP_FILE, Progress, Summary, file_ends, prepare, quarantined, store_batch
from scorebox_core.journal import ACK_FILE, QUARANTINE_FILE, JournalError, Reader

ROOTS = ("/flash", "/")  # the virtual Pico mounts its flash at /flash, a Pico at /


def _journal_files(names):
    return [n for n in names if (n.startswith("g") and n.endswith(".tbj")) or n in (QUARANTINE_FILE, ACK_FILE)]


def pull(port, folder):
    """Copy the box's journal files into folder; returns (root on the box, device id)."""
    for root in ROOTS:
        try:
            names = mp.ls(port, root)
        except mp.MpremoteError:
            continue
        files = _journal_files(names)
        if files or "device.id" in names:
            want = files + (["device.id"] if "device.id" in names else [])
            mp.cp_from(port, [root.rstrip("/") + "/" + n for n in want], folder)
            uid = None
            if "device.id" in names:
                with open(os.path.join(folder, "device.id")) as f:
                    uid = f.read().strip() or None
            return root, uid
    raise mp.MpremoteError("no Scorebox journal found on the box (looked in %s)" % ", ".join(ROOTS))


def sync_raw(port, store):
    s = Summary()
    with tempfile.TemporaryDirectory(prefix="scorebox-rescue-") as folder:
        try:
            _, uid = pull(port, folder)
        except mp.MpremoteError as e:
            raise StoreError("rescue failed: %s" % e)
        rescue(folder, uid or "unknown-" + port.replace("/", "_"), store, s)
    return s


class _AllBut:
    """Every match number but one (the open match, which stays on the box)."""

    def __init__(self, number):
        self.number = number

    def __contains__(self, n):
        return n != self.number

    def __iter__(self):  # the numbers known to be in a file: none (the rescue reports the missing itself)
        return iter(())


def _numbers(folder):
    """(numbers of the matches kept, number of the match in progress or None) of the
    journal files in folder, as the box's reader sees them."""
    j = Reader(folder)
    try:
        j.recover()
        o = j.open_match()
        return j.list_matches(), o[0] if o else None
    except JournalError:  # damage the reader cannot place: decode_file below finds the rest
        return [], None


def rescue(folder, uid, store, s):
    """Store what the journal files copied into folder hold, as a normal sync does, damage
    and all: each group file is decoded on its own (sync/decode.py), a match that cannot
    be stored whole keeps its bytes in the quarantine table and is reported in s.damaged,
    and whatever follows it is rescued too; then the quarantine file."""
    s.device = uid
    store.device(uid)
    numbers, opened = _numbers(folder)
    wanted = _AllBut(opened)
    names = sorted(name for name in os.listdir(folder) if GROUP_FILE.match(name))
    ends = file_ends([int(name[1:7]) for name in names], numbers)
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        first = int(name[1:7])
        job = prepare(first, name, data, wanted, upto=ends[first])
        store_batch(store, uid, [job], s, Progress(0))
    found = {n for n, _ in s.new} | {d[0] for d in s.damaged} | {n for n in numbers if store.has_match(uid, n)}
    for n in numbers:
        if n not in found:
            s.refused.append((n, "not found whole in the box's journal (damaged records: their bytes are quarantined)"))
    qpath = os.path.join(folder, QUARANTINE_FILE)
    if os.path.exists(qpath):
        with open(qpath, "rb") as f:
            s.quarantined += store.add_quarantine(uid, quarantined(f.read()))
