"""`scorebox sync --raw`: rescue a box whose firmware cannot answer.

The journal files are copied with mpremote (the REPL still works when the app does not),
decoded with the box's own journal code, checked and stored like a normal sync. Nothing
is acknowledged or deleted on the box: a later normal sync sees the matches are held and
frees their space. The quarantine file (torn or damaged records the box set aside) is
imported too, into the store's quarantine table, so that no byte the box kept is lost.
"""

import os
import tempfile

from scorebox.device import mpremote_adapter as mp
from scorebox.store.db import KEPT_EXTRAS, StoreError
from scorebox.sync.pull import Summary, quarantined
from scorebox_core.journal import ACK_FILE, QUARANTINE_FILE, Reader

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
        uid = uid or "unknown-" + port.replace("/", "_")
        s.device = uid
        store.device(uid)
        j = Reader(folder)
        j.recover()
        for n in j.list_matches():
            header, log, extras = j.read_match(n)
            if extras.get("result") is None:
                continue  # unfinished (never closed): it stays on the box
            extras = {k: extras[k] for k in KEPT_EXTRAS if k in extras}
            try:
                (added,) = store.add_matches(uid, [(n, header, log, extras)], from_box=True)
                if isinstance(added, StoreError):
                    raise added
                if added:
                    s.add_new(n, extras, len(log))
            except StoreError as e:
                s.refused.append((n, str(e)))
        qpath = os.path.join(folder, QUARANTINE_FILE)
        if os.path.exists(qpath):
            with open(qpath, "rb") as f:
                s.quarantined = store.add_quarantine(uid, quarantined(f.read()))
    return s
