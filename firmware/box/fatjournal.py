"""box/journal.py's group files on CircuitPython's FAT drive (docs/journal.md, "On FAT"): the
newest group as the file the journal appends to (Group: a slot of the ring, box/ring.py, or on
a drive too full for one two copies of its own, box/twin.py), the room a new group's copies
take (need, matches_left) and a group's second copy going with the first (remove).
"""

import os

from box.fatlayout import COPY, MIRROR, PAD, SPARE
from box.twin import Twin, file_size
from scorebox_core.journal import JournalError, group_first


class Group:
    """box/journal.py's newest group file on CircuitPython's FAT drive, as the file it
    appends to. With a ring (Ring: the journal's space allocated once) a slot's two copies,
    a new group taking the slot after the newest's (its first write wipes it: Twin.reset);
    else (a drive from before without room for a ring) its copies are name and tbjb/name in
    the journal's folder. A record past a copy's room is refused (JournalError), nothing
    written. A group file that is no copy (written before the journal was kept on FAT, or by
    a PC) is appended to as it is, as before."""

    def __init__(self, j, name):
        self.j = j
        self.f = None
        self.fresh = False
        r = j._slots
        first = group_first(name)
        if r is not None and (first in r.firsts or file_size(j._path(name)) < 0):
            self.first = first
            self.slot = r.firsts.index(first) if first in r.firsts else r.next()
            self.twin = r.twin(self.slot)
            self.fresh = first not in r.firsts
            if self.fresh:
                self.twin.files = list(self.twin.paths)
                self.end = PAD
            else:
                self.end = PAD + self.twin.open()
            return
        self.twin = Twin(j._path(name), j._path(MIRROR + "/" + name))
        try:
            self.end = PAD + self.twin.open()  # the offset the next record goes to
        except ValueError:
            self.f = open(j._path(name), "ab")
            self.end = self.f.seek(0, 2)

    def write(self, rec):
        if self.f is not None:
            self.f.write(rec)
        elif self.fresh:
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
        if old and not j._ring_from and [g for g in j._groups if g < old and g not in r.firsts]:
            # The ring's first group goes, group files from before it stay: where their
            # matches end is kept with the acknowledgements (Reader._stop), before the wipe
            j._ring_from = old
            j._save_acks()
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
        if self.f is not None:
            self.f.flush()  # else write() committed it

    def close(self):
        self.twin.close()
        if self.f is not None:
            self.f.close()


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
