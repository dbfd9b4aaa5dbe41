"""The journal's ring of group slots on CircuitPython's FAT drive, in use (docs/journal.md,
"On FAT").

Making files changes the FAT and directories, and a cut there can cost the whole drive. So the
journal's space is allocated once (Ring): two files made at install, or at the first boot
(box/fat/recovery.py), holding the copies (box/fat/twin.py) of a ring of group slots and of the
acknowledgements at the same offsets. A new group takes the slot after the newest's once the
PC holds the matches in it, wiping it in place (Twin.reset, box/fat/group.py's Group); after
the ring is made no file is made, grown, renamed or deleted. Here: the ring's files read as
the reader's (region, listed), the acknowledgements written in place (save_ack), and which
slots may take a new group (usable, ring_space).
"""

from box.fat.twin import Twin
from scorebox_core import records as R
from scorebox_core.fatlayout import ACK_COPY, ACK_ROOM, COPY, PAD, ROOM
from scorebox_core.journal import ACK_FILE, group_first, group_name


class Region:
    """Bytes base .. base + length of an open file, read as a file of their own: a slot's
    group, the acknowledgements (what the reader, recovery and the sync's READ open).
    close() leaves the file open."""

    def __init__(self, f, base, length):
        self.f = f
        self.base = base
        self.length = length
        self.pos = 0

    def seek(self, off, whence=0):
        off += self.pos if whence == 1 else (self.length if whence == 2 else 0)
        self.pos = max(0, min(self.length, off))
        return self.pos

    def read(self, n=-1):
        n = self.length - self.pos if n < 0 else min(n, self.length - self.pos)
        if n <= 0:
            return b""
        self.f.seek(self.base + self.pos)
        b = self.f.read(n)
        self.pos += len(b)
        return b

    def readinto(self, buf):
        n = min(len(buf), self.length - self.pos)
        if n <= 0:
            return 0
        self.f.seek(self.base + self.pos)
        got = self.f.readinto(memoryview(buf)[:n])
        self.pos += got
        return got

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


class Ring:
    """The journal's space on FAT allocated once (docs/journal.md "On FAT"): two files of the
    same size, FIRST/RING and MIRROR/RING, each the acknowledgements' copy (ACK_COPY bytes)
    then a copy of each group slot (COPY bytes), at the same offsets. The journal keeps them
    open and writes them in place: after they are made no file is made, grown, renamed or
    deleted, and no directory entry written until they are closed. firsts[k]: the first
    match of the group slot k holds (its GROUP record), 0 for none."""

    def __init__(self, paths, n):
        self.paths = paths  # the same path twice: one copy only (box/fat/recovery.py could not make the other)
        self.files = []
        self.firsts = [0] * n
        self.src = [0] * n  # the copy each slot's group is read from (first())
        self.acks = 0  # bytes of acknowledgement records

    def open(self):
        if not self.files:
            f = open(self.paths[0], "r+b")
            self.files = [f, f if self.paths[1] == self.paths[0] else open(self.paths[1], "r+b")]
        return self.files

    def close(self):
        for f in self.files:
            f.close()
        self.files = []

    def twin(self, k):
        """Slot k's two copies (k -1: the acknowledgements')."""
        fa, fb = self.open()
        if k < 0:
            return Twin(fa, fb, ACK_ROOM)
        return Twin(fa, fb, ROOM, ACK_COPY + k * COPY)

    def first(self, k):
        """Slot k's group as its first record says, in the first copy, else in the second,
        which src[k] then names as the copy to read it from: a cut while the first copy was
        wiped (Twin.reset, from its start) leaves the old group whole in the second only, the
        first's tail still there after its 0xFF. A wipe of the second begins only once the
        first is 0xFF: its start gone, the slot holds no group."""
        for i in (0, 1):
            f = self.open()[i]
            f.seek(ACK_COPY + k * COPY + PAD)
            b = f.read(16)
            r = R.parse(b, 0, len(b))
            if r is not None and r[0] == R.GROUP:
                self.src[k] = i
                return r[1]
        return 0

    def next(self):
        """The slot the next new group goes into: the one after the newest group's, in turn."""
        s = self.firsts
        top = max(s)
        return (s.index(top) + 1) % len(s) if top else 0


def save_ack(j, rec):
    """box/acks.py's save() with a ring: rec (an ACK record) after the others in both copies,
    in place, or written anew alone when the room is full (Twin.reset)."""
    r = j._slots
    t = r.twin(-1)
    t.files = list(t.paths)
    t.size = r.acks
    if t.size + len(rec) > ACK_ROOM:
        t.reset(rec, True)
    else:
        t.write(rec)
    r.acks = t.size


def region(j, name):
    """Journal j's file name to read, when it has a ring: the acknowledgements' or a slot's
    group's copy in the ring's first file, else the file itself (the quarantine)."""
    r = j._slots
    if name == ACK_FILE:
        return Region(r.open()[0], 0, ACK_COPY)
    first = group_first(name)
    if first and first in r.firsts:
        k = r.firsts.index(first)
        return Region(r.open()[r.src[k]], ACK_COPY + k * COPY, COPY)
    return open(j._path(name), "rb")


def listed(j):
    """[(name, bytes)] of the groups j's ring holds, as the sync's LIST names files."""
    return [(group_name(f), COPY) for f in sorted(j._slots.firsts) if f]


def usable(j, k):
    """True when the ring's slot k may take a new group: it holds none, or one whose matches
    are all acknowledged (never the newest)."""
    first = j._slots.firsts[k]
    if not first:
        return True
    if j._groups and first == j._groups[-1]:
        return False
    last = j._upto(first)
    return last is None or j._all_acked(first, last)


def ring_space(j, per):
    """(matches left, percent full) with a ring: the matches the newest group still takes and
    a group's worth (as matches_left counts it) for each slot after it, in turn, that may
    take a new group; full: the slots that may not, the newest's by the bytes its group
    holds while a match still fits in it (100 only when none fits anywhere, as on LittleFS)."""
    s = j._slots.firsts
    g = j.group_bytes
    used = j._size - PAD if j._groups else 0
    left = max(0, (g - used) // per) if j._groups else 0
    k = j._slots.next()
    free = 0
    while free < len(s) and usable(j, k):
        free += 1
        k = (k + 1) % len(s)
    busy = (len(s) - free) * g
    if left and j._groups[-1] in s:  # the newest's slot counted by what it holds
        busy -= g - min(used, g)
    left += free * max(1, g // per - 1)
    return left, min(busy * 100 // (len(s) * g), 99 if left else 100)
