"""box/journal.py's group files on CircuitPython's FAT drive (docs/journal.md, "On FAT"): the
newest group as the file the journal appends to (Group: a slot of the ring, box/fat/ring.py, or on
a drive without one two copies of its own, box/fat/twin.py), the room a new group's copies
take (need, matches_left) and a group's second copy going with the first (remove).
"""

import os

from box.fat.twin import Twin
from scorebox_core.fatlayout import COPY, MIRROR, PAD, SPARE
from scorebox_core.journal import JournalError, group_first


class Group:
    """box/journal.py's newest group file on CircuitPython's FAT drive, as the file it
    appends to. With a ring (Ring: the journal's space allocated once) a slot's two copies,
    a new group taking the slot after the newest's (its first write wipes it: Twin.reset);
    else (a drive without room for a ring) its copies are name and tbjb/name in the journal's
    folder. A record past a copy's room is refused (JournalError), nothing written; so is a
    group file that is no copy, left as it is."""

    def __init__(self, j, name):
        self.j = j
        r = j._slots
        if r is None:
            self.fresh = False
            self.twin = Twin(j._path(name), j._path(MIRROR + "/" + name))
            try:
                self.end = PAD + self.twin.open()  # the offset the next record goes to
            except ValueError as e:
                raise JournalError("%s (left as it is): no entry is saved until it is moved away" % e) from None
            return
        self.first = group_first(name)
        self.fresh = self.first not in r.firsts
        self.slot = r.next() if self.fresh else r.firsts.index(self.first)
        self.twin = r.twin(self.slot)
        if self.fresh:
            self.twin.files = list(self.twin.paths)
            self.end = PAD
        else:
            self.end = PAD + self.twin.open()

    def write(self, rec):
        if self.fresh:
            self._take(rec)
        else:
            try:
                self.twin.write(rec)
            except ValueError:  # a match of thousands of events: it can go no further
                raise JournalError("match too long: its file is full; the last entry was not saved") from None
        self.end += len(rec)

    def _take(self, rec):
        """The new group's first records into its slot, wiped first; the group it held
        (every match acknowledged: Journal._room asked usable()) is forgotten."""
        j, r, k = self.j, self.j._slots, self.slot
        old = r.firsts[k]
        if old in j._groups:
            j._groups.remove(old)
            if j._index and j._index[0] == old:
                j._index = None
        r.firsts[k] = 0
        self.twin.reset(rec)
        r.firsts[k] = self.first
        r.src[k] = 0
        self.fresh = False

    def flush(self):
        pass  # write() committed it

    def close(self):
        self.twin.close()


def need(bs):
    """Free blocks (of bs bytes) a new group takes: its two copies, and SPARE."""
    return 2 * ((COPY + bs - 1) // bs) + (SPARE + bs - 1) // bs


def matches_left(j, bs, free, per):
    """About how many more matches box/journal.py's Journal j holds with free blocks (of bs
    bytes), a match taking per bytes of records: those the newest group's copies still take,
    and each new group's whose copies fit, low rather than high (less one a group, for its
    own record and the last match's overshoot)."""
    left = 0
    if j._groups:
        left = max(0, (j.group_bytes - (j._size - PAD)) // per)
    copies = 2 * ((COPY + bs - 1) // bs)
    if free >= need(bs):
        left += (free - need(bs) + copies) // copies * max(1, j.group_bytes // per - 1)
    return left


def remove(j, name):
    """The second copy of group file name goes with the first."""
    try:
        os.remove(j._path(MIRROR + "/" + name))
    except OSError:
        pass
