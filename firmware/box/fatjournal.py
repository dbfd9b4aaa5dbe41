"""A journal file on CircuitPython's FAT drive, safe from power cuts (docs/journal.md, "On FAT").

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
"""

import os

from scorebox_core import records as R
from scorebox_core.journal import JournalError, group_first

PAD = R.ERASED_PAD  # 0xFF bytes before and after the records: never rewritten
ROOM = 32768  # bytes of records a copy holds
COPY = 2 * PAD + ROOM  # a copy's bytes on the drive
# Kept free beside a new group's copies (as LittleFS's 2 free blocks): journal.ack's
# replacement, the app's settings and roster
SPARE = 8192
_CHUNK = 512  # FAT's sector


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def _blank(path):
    """True when the file holds only 0xFF (a copy whose making a cut stopped)."""
    with open(path, "rb") as f:
        while True:
            b = f.read(_CHUNK)
            if not b:
                return True
            if b.count(b"\xff") != len(b):
                return False


def _end(f, room):
    """(end of the whole records read from the start, True when only 0xFF follows)."""
    f.seek(PAD)
    end = 0
    left = [room]

    def read(n):
        n = min(n, left[0])
        left[0] -= n
        return f.read(n) if n else b""

    for _, stop, t, _ in R.scan(read, 0):
        if t == R.DAMAGE:
            break
        end = stop
    f.seek(PAD + end)
    n = room - end
    while n > 0:
        b = f.read(min(n, _CHUNK))
        if not b or b.count(b"\xff") != len(b):
            return end, False
        n -= len(b)
    return end, True


class Twin:
    def __init__(self, a, b, room=ROOM):
        self.paths = (a, b)
        self.room = room
        self.files = []
        self.size = 0

    def _make(self, path):
        d = path.rsplit("/", 1)[0]
        if d and _size(d) < 0:
            os.mkdir(d)
        blank = b"\xff" * _CHUNK
        with open(path, "wb") as f:
            for _ in range((2 * PAD + self.room) // _CHUNK):
                f.write(blank)

    def open(self):
        """Open both copies (made when missing, or when only 0xFF and short: a cut while
        they were made), make them equal and return the bytes of whole records. ValueError
        for a file of another size that holds anything else: it is left as it is."""
        self.close()
        full = 2 * PAD + self.room
        for p in self.paths:
            n = _size(p)
            if n != full:
                if n > 0 and not _blank(p):
                    raise ValueError("%s is not a journal copy: left as it is" % p)
                self._make(p)
        self.files = [open(p, "r+b") for p in self.paths]
        ends = [_end(f, self.room) for f in self.files]
        good = 0 if ends[0] >= ends[1] else 1
        self._copy(self.files[good], self.files[1 - good])
        self.size = ends[good][0]
        return self.size

    def _copy(self, src, dst):
        """Make dst's records and what follows them src's, a changed sector at a time."""
        off = PAD
        while off < PAD + self.room:
            src.seek(off)
            a = src.read(_CHUNK)
            dst.seek(off)
            if dst.read(_CHUNK) != a:
                dst.seek(off)
                dst.write(a)
                dst.seek(1)  # to CircuitPython (the module's docstring)
            off += _CHUNK

    def write(self, rec):
        """Append rec in both copies: committed when it returns. ValueError when it does not fit."""
        if self.size + len(rec) > self.room:
            raise ValueError("journal file full")
        for f in self.files:
            f.seek(PAD + self.size)
            f.write(rec)
            f.seek(1)  # FatFs hands the record's sector to CircuitPython to load this one
        self.size += len(rec)

    def read(self):
        f = self.files[0]
        f.seek(PAD)
        return f.read(self.size)

    def close(self):
        for f in self.files:
            f.close()
        self.files = []


MIRROR = "tbjb"  # the folder of the second copies, in the journal's


class Group:
    """box/journal.py's newest group file on CircuitPython's FAT drive, as the file it
    appends to: its copies are name and tbjb/name in the journal's folder. A record past a
    copy's room is refused (JournalError), nothing written. A group file that is no copy
    (written before the journal was kept on FAT, or by a PC) is appended to as it is, as
    before."""

    def __init__(self, j, name):
        self.twin = Twin(j._path(name), j._path(MIRROR + "/" + name))
        self.f = None
        try:
            self.end = PAD + self.twin.open()  # the offset the next record goes to
        except ValueError:
            self.f = open(j._path(name), "ab")
            self.end = self.f.seek(0, 2)

    def write(self, rec):
        if self.f is not None:
            self.f.write(rec)
        else:
            try:
                self.twin.write(rec)
            except ValueError:  # a match of thousands of events: it can go no further
                raise JournalError("match too long: its file is full; the last entry was not saved") from None
        self.end += len(rec)

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


def settle(j, sizes):
    """At recovery (box/recovery.py): the newest group's copies made equal, and its size in
    sizes ({name: bytes}, the journal folder's listing) the end of its records (0 when it
    has none: made, but cut before its first record)."""
    names = sorted(n for n in sizes if group_first(n) is not None)
    if names:
        try:
            g = Group(j, names[-1])
        except OSError:  # a copy that cannot be made again (a full drive): the next write says so
            return
        g.close()
        if g.f is None:
            sizes[names[-1]] = g.end if g.end > PAD else 0


def remove(j, name):
    """The second copy of group file name goes with the first."""
    try:
        os.remove(j._path(MIRROR + "/" + name))
    except OSError:
        pass
