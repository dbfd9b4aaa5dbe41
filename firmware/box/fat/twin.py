"""A file kept as two copies on CircuitPython's FAT drive, safe from power cuts (docs/journal.md,
"On FAT").

CircuitPython keeps the drive's writes to one 4 KiB flash sector in RAM and writes it back
whole, erase then program, when a write goes to another one (or a file is flushed); a cut
between the two loses all 4 KiB, whoever's bytes they are. FAT rewrites its table, its
directory entries and a file's last sector in place. So here a file of records is kept in two
copies made at full size once, of 0xFF bytes (the only moment the table and directories
change), and a record is written in place into the first copy, then into the second: a cut
can tear one copy's sector only, and open() puts back the copy that reads further, record by
record (records.scan), over the other.

    t = Twin("/g000001.tbj", "/tbjb/g000001.tbj")   # the copies (made when missing)
    size = t.open()          # bytes of whole records, after the copies are made equal
    t.write(rec)             # in both copies: in the first one's flash when it returns
    t.read()                 # the records' bytes

A record is committed without FAT's directory entry: after the write the file is sought to
its first sector, away from the record's, so FatFs hands the record's sector to CircuitPython
(to load that one). The second copy's write makes CircuitPython write the first copy's flash
sector: when write() returns the record is in the first copy's flash, and in the second's
once the next write goes elsewhere (the next record's first copy). At every moment one copy's
flash holds every record written, and at most the other's sector is being rewritten. The
entry (the size never changes) is written only when the file is closed (f_sync). PAD bytes
before and after the records are never written again: the 4 KiB flash sector of a record
then holds only this copy's bytes, as long as the file's clusters follow each other (a file
made on a drive that is not fragmented).

The file helpers here (file_size, is_blank, fill) serve box/fat/group.py, box/fat/recovery.py
and box/fat/kept.py too.
"""

import os

from scorebox_core import records as R
from scorebox_core.fatlayout import PAD, ROOM

CHUNK = 512  # FAT's sector


def file_size(path):
    """Bytes of the file at path, -1 when there is none."""
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def is_blank(path):
    """True when the file holds only 0xFF (a copy whose making a cut stopped)."""
    with open(path, "rb") as f:
        while True:
            b = f.read(CHUNK)
            if not b:
                return True
            if b.count(b"\xff") != len(b):
                return False


def fill(path, size):
    """Make file path of size bytes of 0xFF (its folder too)."""
    d = path.rsplit("/", 1)[0]
    if d and file_size(d) < 0:
        os.mkdir(d)
    blank = b"\xff" * CHUNK
    with open(path, "wb") as f:
        for _ in range(size // CHUNK):
            f.write(blank)


def _end(f, room, base=0):
    """(end of the whole records read from the start, True when only 0xFF follows). Records
    begin right after the pad or not at all: a copy wiped from its start (Twin.reset) that a
    cut stopped reads as none, whatever is left after the 0xFF."""
    f.seek(base + PAD)
    end = 0
    left = [room]

    def read(n):
        n = min(n, left[0])
        left[0] -= n
        return f.read(n) if n else b""

    for off, stop, t, _ in R.scan(read, 0):
        if t == R.DAMAGE or off != end:
            break
        end = stop
    f.seek(base + PAD + end)
    n = room - end
    while n > 0:
        b = f.read(min(n, CHUNK))
        if not b or b.count(b"\xff") != len(b):
            return end, False
        n -= len(b)
    return end, True


class Twin:
    """a, b: the copies' paths (files of their own, made when missing), or two files open
    (r+b) that hold the copies at offset base (the slotted journal's, Ring): close() leaves
    those open."""

    def __init__(self, a, b, room=ROOM, base=0):
        self.paths = (a, b)
        self.room = room
        self.base = base
        self.own = isinstance(a, str)
        self.files = []
        self.size = 0

    def open(self):
        """Open both copies (made when missing, or when only 0xFF and short: a cut while
        they were made), make them equal and return the bytes of whole records. ValueError
        for a file of another size that holds anything else: it is left as it is."""
        self.close()
        if self.own:
            full = 2 * PAD + self.room
            for p in self.paths:
                n = file_size(p)
                if n != full:
                    if n > 0 and not is_blank(p):
                        raise ValueError("%s is not a journal copy" % p)
                    fill(p, full)
            self.files = [open(p, "r+b") for p in self.paths]
        else:
            self.files = list(self.paths)
        ends = [_end(f, self.room, self.base) for f in self.files]
        good = 0 if ends[0] >= ends[1] else 1
        end = ends[good][0]
        self._copy(self.files[good], self.files[1 - good], end)
        if not ends[good][1]:  # a record torn after the whole ones: 0xFF there too, after the other copy
            self._copy(self.files[good], self.files[good], end)
        self.size = end
        return self.size

    def _copy(self, src, dst, end):
        """Make dst's records src's (end bytes of them) and 0xFF after them, a changed sector
        at a time."""
        off = self.base + PAD
        stop = off + end
        while off < self.base + PAD + self.room:
            src.seek(off)
            a = src.read(CHUNK)
            if off + len(a) > stop:
                keep = max(0, stop - off)
                a = a[:keep] + b"\xff" * (len(a) - keep)
            dst.seek(off)
            if dst.read(CHUNK) != a:
                dst.seek(off)
                dst.write(a)
                dst.seek(1)  # to CircuitPython (the module's docstring)
            off += CHUNK

    def write(self, rec):
        """Append rec in both copies: committed when it returns. ValueError when it does not fit."""
        if self.size + len(rec) > self.room:
            raise ValueError("journal file full")
        for f in self.files:
            f.seek(self.base + PAD + self.size)
            f.write(rec)
            f.seek(1)  # FatFs hands the record's sector to CircuitPython to load this one
        self.size += len(rec)

    def reset(self, rec, each=False):
        """Wipe the copies to 0xFF, in place, each from its start, the first then the second,
        and write rec at their start: the first record of a slot's new group (both wiped
        before rec goes into either: the copy that reads further at open() holds the old
        group, nothing, or rec), or with each the acknowledgements anew (rec into each copy
        once it is wiped: one copy always holds a whole state, the old or rec)."""
        if len(rec) > self.room:
            raise ValueError("journal file full")
        for f in self.files:
            self._wipe(f)
            if each:
                self._put(f, rec)
        if not each:
            for f in self.files:
                self._put(f, rec)
        self.size = len(rec)

    def _wipe(self, f):
        """0xFF over the copy's records, in place, from their start: the sectors that are not
        0xFF found first, then written with no read between (CircuitPython writes its 4 KiB
        buffer to flash before any read: a read after each would rewrite a flash sector eight
        times), each flash sector once, in order; the last when the file is sought away."""
        blank = b"\xff" * CHUNK
        start = self.base + PAD
        dirty = []
        for off in range(start, start + self.room, CHUNK):
            f.seek(off)
            if f.read(CHUNK) != blank:  # a sector already erased is left as it is
                dirty.append(off)
        for off in dirty:
            f.seek(off)
            f.write(blank)
        f.seek(1)

    def _put(self, f, rec):
        f.seek(self.base + PAD)
        f.write(rec)
        f.seek(1)

    def read(self):
        f = self.files[0]
        f.seek(self.base + PAD)
        return f.read(self.size)

    def close(self):
        if self.own:
            for f in self.files:
                f.close()
        self.files = []
