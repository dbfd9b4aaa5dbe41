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

Making files changes the FAT and directories, and a cut there can cost the whole drive. So the
journal's space is allocated once (Ring): two files made at install, or at the first boot,
holding the copies of a ring of group slots and of the acknowledgements at the same offsets.
A new group takes the slot after the newest's once the PC holds the matches in it, wiping it
in place (Twin.reset); after the ring is made no file is made, grown, renamed or deleted.
"""

import os

from scorebox_core import records as R
from scorebox_core.journal import ACK_FILE, JournalError, group_first, group_name

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
        b = f.read(min(n, _CHUNK))
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
                n = _size(p)
                if n != full:
                    if n > 0 and not _blank(p):
                        raise ValueError("%s is not a journal copy: left as it is" % p)
                    _fill(p, full)
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
            a = src.read(_CHUNK)
            if off + len(a) > stop:
                keep = max(0, stop - off)
                a = a[:keep] + b"\xff" * (len(a) - keep)
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
        blank = b"\xff" * _CHUNK
        start = self.base + PAD
        dirty = []
        for off in range(start, start + self.room, _CHUNK):
            f.seek(off)
            if f.read(_CHUNK) != blank:  # a sector already erased is left as it is
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


MIRROR = "tbjb"  # the folder of the second copies, in the journal's
# The slotted journal (Ring): its space allocated once, at install or at the first boot
FIRST = "tbja"  # the folder of its first copy (MIRROR holds the second)
RING = "journal.tbs"
ACK_ROOM = 4096  # bytes of acknowledgement records kept before they are written anew
ACK_COPY = 2 * PAD + ACK_ROOM
MAX_SLOTS = 10  # group slots made at most: what a Pico's 1 MiB CIRCUITPY holds beside the box's files


def slots_for(free):
    """How many group slots a ring made in free bytes has (two copies each, the
    acknowledgements' beside them and SPARE left): 0 when fewer than 2 fit."""
    n = min(MAX_SLOTS, (free - SPARE - 2 * ACK_COPY) // (2 * COPY))
    return n if n >= 2 else 0


def ring_size(n):
    """Bytes of each of a ring's two files, with n slots."""
    return ACK_COPY + n * COPY


def _fill(path, size):
    """Make file path of size bytes of 0xFF (its folder too)."""
    d = path.rsplit("/", 1)[0]
    if d and _size(d) < 0:
        os.mkdir(d)
    blank = b"\xff" * _CHUNK
    with open(path, "wb") as f:
        for _ in range(size // _CHUNK):
            f.write(blank)


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
        self.paths = paths  # the same path twice: one copy only (_ring could not make the other)
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


# The app's settings and roster (box/store.py) beside a ring: one small state kept in place
# in two files of their own, FIRST/STORE and MIRROR/STORE, made with the ring (at install or
# at the first boot), each a pad, STORE_ROOM bytes and a pad
STORE = "store.tbs"
STORE_ROOM = 4096
STORE_COPY = 2 * PAD + STORE_ROOM
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

    def read(self):
        """The newest whole state's bytes, None when no copy holds one (or there is none)."""
        best = None
        for i in (0, 1):
            try:
                with open(self.paths[i], "rb") as f:  # read only: its close writes nothing
                    got = _state(f)
            except OSError:
                continue
            if got is not None and (best is None or got[0] > best[0]):
                best = got
                self.good = i
        if best is None:
            return None
        self.num = best[0]
        return best[1]

    def ready(self):
        """True when the copies are there to write in place: made now when missing (a drive
        whose ring was made before them: a FAT change, once) if the ring is there and the
        drive has the room; False otherwise (box/store.py then keeps its files)."""
        if self.files:
            return True
        if _size(self.root.rstrip("/") + "/" + FIRST + "/" + RING) <= 0:
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
        n = _size(p)
        if n != STORE_COPY:
            if n > 0 and not _blank(p):
                return False
            todo.append(p)
    if todo:
        st = os.statvfs(root)
        if st[0] * st[3] < len(todo) * STORE_COPY:
            return False
        try:
            for p in todo:
                _fill(p, STORE_COPY)
        except OSError:
            return False
    return True


def _slots(size):
    """The slots of a ring file of size bytes: 0 when it is no whole ring file."""
    n = (size - ACK_COPY) // COPY
    return n if n >= 2 and size == ring_size(n) else 0


def _ring(j, rep):
    """Journal j's Ring, open: made when missing (or when its making was cut short: only
    0xFF) and the drive holds two slots at least; one copy lost or of another size made
    again from the other (_mend); None when there is none (no room, or files of another
    size holding anything else, left as they are)."""
    paths = (j._path(FIRST + "/" + RING), j._path(MIRROR + "/" + RING))
    have = [_size(p) for p in paths]
    n = _slots(have[0])
    if have[0] != have[1] or not n:
        whole = [_slots(x) for x in have]
        if bool(whole[0]) != bool(whole[1]):
            good = 0 if whole[0] else 1
            n = whole[good]
            paths = _mend(j, paths, good, have[good], rep)
        else:
            for p in paths:
                if _size(p) > 0 and not _blank(p):
                    return None
            n = _make(j, paths)
            if not n:
                return None
    r = Ring(paths, n)
    for k in range(n):
        r.firsts[k] = r.first(k)
    return r


def _mend(j, paths, good, size, rep):
    """One ring file whole, the other missing or of another size (a cut while the FAT or its
    folder's directory sector was written, e.g. as it was closed): the other made again, a
    copy of the whole one. Returns the paths to open: the whole one's twice (one copy, writes
    no longer safe from a cut) when the other holds anything but a ring copy (it is left as
    it is) or the drive has no room for it."""
    src, dst = paths[good], paths[1 - good]
    n = _size(dst)
    if n > 0:  # a ring file begins with the acknowledgements' pad: 0xFF
        try:
            with open(dst, "rb") as f:
                b = f.read(PAD)
        except OSError:  # a folder
            b = b""
        if not b or b.count(b"\xff") != len(b):
            rep["notes"].append("%s is no journal copy: left as it is; %s alone kept" % (dst, src))
            return (src, src)
    st = os.statvfs(j.root)
    if st[0] * st[3] + max(0, n) < size:
        rep["notes"].append("no room to make %s again: %s alone kept" % (dst, src))
        return (src, src)
    try:
        d = dst.rsplit("/", 1)[0]
        if d and _size(d) < 0:
            os.mkdir(d)
        with open(src, "rb") as a:
            with open(dst, "wb") as b:
                buf = bytearray(_CHUNK)
                while True:
                    got = a.readinto(buf)
                    if not got:
                        break
                    b.write(buf if got == _CHUNK else buf[:got])
    except OSError as e:  # the copy cut short is made again at the next boot
        rep["notes"].append("could not make %s again (%s): %s alone kept" % (dst, e, src))
        return (src, src)
    rep["notes"].append("%s made again from %s" % (dst, src))
    return paths


def _make(j, paths):
    """Make a ring's two files, as many slots as the drive holds: their number (0: none)."""
    for p in paths:
        try:
            os.remove(p)
        except OSError:
            pass
    st = os.statvfs(j.root)
    n = slots_for(st[0] * st[3] - 2 * STORE_COPY)  # the store's room kept beside it
    if n:
        try:
            for p in paths:
                _fill(p, ring_size(n))
        except OSError:  # the drive had less room than it said: no ring, the files as before
            for p in paths:
                try:
                    os.remove(p)
                except OSError:
                    pass
            return 0
        make_store(j.root)  # box/store.py's settings and roster, with the ring
    return n


def _migrate(j, r):
    """The acknowledgements of a drive from before (journal.ack, a file) into the ring's,
    once (the file is left where it is: deleting it would change the FAT)."""
    try:
        with open(j._path(ACK_FILE), "rb") as f:
            last = None
            for _, _, t, v in R.scan(f.read):
                if t == R.ACK:
                    last = v
    except OSError:
        return
    if last is not None:
        t = r.twin(-1)
        t.files = list(t.paths)
        t.reset(R.value_record(R.ACK, last), True)
        r.acks = t.size


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
    group's copy in the ring's first file, else the file itself."""
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
        if r is not None and (first in r.firsts or _size(j._path(name)) < 0):
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


def settle(j, sizes, rep=None):
    """At recovery (box/recovery.py): the ring opened (made when missing, a lost copy made
    again: _ring, rep's notes say so), its groups and acknowledgements put in sizes ({name:
    bytes}, the journal folder's listing) by the names the reader knows, the newest group's
    copies made equal, and its size the end of its records (0 when it has none: made, but
    cut before its first record)."""
    if j._slots is not None:
        j._slots.close()
    j._slots = r = _ring(j, rep if rep is not None else {"notes": []})
    if r is not None:
        t = r.twin(-1)
        r.acks = t.open()
        if not r.acks:
            _migrate(j, r)
        if r.acks:
            sizes[ACK_FILE] = ACK_COPY
        else:  # none yet (a journal.ack from before that had none is no damage of the ring's)
            sizes.pop(ACK_FILE, None)
        for f in r.firsts:
            if f:
                sizes[group_name(f)] = COPY
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
