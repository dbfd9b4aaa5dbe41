"""The app's settings and roster (box/store.py's state) on CircuitPython's FAT drive beside the
journal's ring, kept in place in two copies (docs/journal.md, "On FAT"): Kept, and make_store,
which makes its two files with the ring or at the first save.
"""

import os

from box.fat.twin import Twin, file_size, fill, is_blank
from scorebox_core import records as R
from scorebox_core.fatlayout import FIRST, MIRROR, PAD, RING, STORE, STORE_COPY, STORE_ROOM

_HEAD = b"TBST"  # then the state's number (4 bytes), its length (2) and CRC-16 (2), big-endian


def _store_paths(root):
    r = root.rstrip("/")
    return (r + "/" + FIRST + "/" + STORE, r + "/" + MIRROR + "/" + STORE)


def _state(f):
    """(number, bytes) of the state a copy holds, None when it holds no whole one."""
    f.seek(PAD)
    h = f.read(12)
    if len(h) < 12 or h[:4] != _HEAD:
        return None
    n = h[8] << 8 | h[9]
    if n > STORE_ROOM - 12:
        return None
    data = f.read(n)
    if len(data) != n or R.crc16(data, R.crc16(h[4:10])) != h[10] << 8 | h[11]:
        return None
    return int.from_bytes(h[4:8], "big"), data


class Kept:
    """box/store.py's state (bytes) on FAT beside a ring, kept in place: each save wipes and
    writes one copy, then the other (Twin.reset with each), the copy that does not hold the
    newest state first, so that one copy always holds a whole state, the one before or the
    new; read() takes the newest whole one (its number). The files stay open once written:
    closing a file written rewrites its directory entry."""

    def __init__(self, root):
        self.root = root
        self.paths = _store_paths(root)
        self.files = []
        self.num = 0  # the newest state's number
        self.good = 0  # the copy it was read from
        self.there = False  # read() found a copy

    def read(self):
        """The newest whole state's bytes, None when no copy holds one (or there is none)."""
        best = None
        for i in (0, 1):
            try:
                with open(self.paths[i], "rb") as f:  # read only: its close writes nothing
                    got = _state(f)
            except OSError:
                continue
            self.there = True
            if got is not None and (best is None or got[0] > best[0]):
                best = got
                self.good = i
        if best is None:
            return None
        self.num = best[0]
        return best[1]

    def ready(self):
        """True when the copies are there to write in place: made now when missing (one lost,
        or a ring made without them: a FAT change, once) if the ring is there and the drive
        has the room; False otherwise (box/store.py then keeps its files)."""
        if self.files:
            return True
        if file_size(self.root.rstrip("/") + "/" + FIRST + "/" + RING) <= 0:
            return False
        if not make_store(self.root):
            return False
        self.files = [open(p, "r+b") for p in self.paths]
        return True

    def write(self, data):
        """data as the new state, in place: ValueError (nothing written) past the room."""
        if 12 + len(data) > STORE_ROOM:
            raise ValueError("%d bytes, %d at most" % (len(data), STORE_ROOM - 12))
        n = self.num + 1
        h = _HEAD + n.to_bytes(4, "big") + len(data).to_bytes(2, "big")
        c = R.crc16(data, R.crc16(h[4:]))
        first = 1 - self.good  # the copy not holding the newest state first
        t = Twin(self.files[first], self.files[self.good], STORE_ROOM)
        t.files = list(t.paths)
        t.reset(h + bytes((c >> 8, c & 255)) + data, True)
        self.num = n
        self.good = first  # both hold it: the first surely in flash (the second's may wait in RAM)


def make_store(root):
    """Make the store's two files (of 0xFF) where missing or cut short while made (only 0xFF):
    False when one holds anything else (left as it is) or the drive has no room."""
    paths = _store_paths(root)
    todo = []
    for p in paths:
        n = file_size(p)
        if n != STORE_COPY:
            if n > 0 and not is_blank(p):
                return False
            todo.append(p)
    if todo:
        st = os.statvfs(root)
        if st[0] * st[3] < len(todo) * STORE_COPY:
            return False
        try:
            for p in todo:
                fill(p, STORE_COPY)
        except OSError:
            return False
    return True
