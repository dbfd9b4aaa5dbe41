"""The journal's recovery on CircuitPython's FAT drive (docs/journal.md, "On FAT"): settle(),
box/recovery.py's call at boot, finds the ring (box/fat/ring.py), makes it when it is missing on a
drive that holds no journal yet or makes a lost copy of it again, and makes the newest group's
copies equal. Loaded for that call and let go after it, with
box/recovery.py.
"""

import os

from box.fat import kept
from box.fat.group import Group
from box.fat.twin import CHUNK, file_size, fill, is_blank
from scorebox_core.fatlayout import ACK_COPY, COPY, FIRST, MIRROR, PAD, RING, STORE_COPY, ring_size, slots_for
from scorebox_core.journal import ACK_FILE, JournalError, group_first, group_name


def settle(j, sizes, rep):
    """At recovery (box/recovery.py): the ring opened (made when missing on a drive that holds
    no journal yet, a lost copy made again: _ring, rep's notes say so), its groups and
    acknowledgements put in sizes ({name: bytes}, the journal folder's listing) by the names
    the reader knows, in place of any file of those names, the newest group's copies made
    equal, and its size the end of its records (0 when it has none: made, but cut before its
    first record)."""
    if j._slots is not None:
        j._slots.close()
    j._slots = r = _ring(j, sizes, rep)
    if r is not None:
        r.acks = r.twin(-1).open()
        for n in [n for n in sizes if n == ACK_FILE or group_first(n) is not None]:
            del sizes[n]  # with a ring the journal is the ring's alone
        if r.acks:
            sizes[ACK_FILE] = ACK_COPY
        for f in r.firsts:
            if f:
                sizes[group_name(f)] = COPY
    names = sorted(n for n in sizes if group_first(n) is not None)
    if names:
        try:
            g = Group(j, names[-1])
        except OSError:  # a copy that cannot be made again (a full drive): the next write says so
            return
        except JournalError as e:  # a file that is no copy, left as it is: each write says so too
            rep["notes"].append(str(e))
            return
        g.close()
        sizes[names[-1]] = g.end if g.end > PAD else 0


def _slots(size):
    """The slots of a ring file of size bytes: 0 when it is no whole ring file."""
    n = (size - ACK_COPY) // COPY
    return n if n >= 2 and size == ring_size(n) else 0


def _ring(j, sizes, rep):
    """Journal j's Ring, open: made when missing (or when its making was cut short: only
    0xFF), the journal's folder (sizes) holds no group file nor journal.ack (a journal kept
    without a ring stays so) and the drive holds two slots at least; one copy lost or of
    another size made again from the other (_mend); None when there is none (no room, a
    journal kept without one, or files of another size holding anything else, left as they
    are)."""
    paths = (j._path(FIRST + "/" + RING), j._path(MIRROR + "/" + RING))
    have = [file_size(p) for p in paths]
    n = _slots(have[0])
    if have[0] != have[1] or not n:
        whole = [_slots(x) for x in have]
        if bool(whole[0]) != bool(whole[1]):
            good = 0 if whole[0] else 1
            n = whole[good]
            paths = _mend(j, paths, good, have[good], rep)
        else:
            for p in paths:
                if file_size(p) > 0 and not is_blank(p):
                    return None
            if [n for n in sizes if n == ACK_FILE or group_first(n) is not None]:
                return None
            n = _make(j, paths)
            if not n:
                return None
    from box.fat.ring import Ring  # only with a ring: a drive too full for one never loads it

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
    n = file_size(dst)
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
        if d and file_size(d) < 0:
            os.mkdir(d)
        with open(src, "rb") as a:
            with open(dst, "wb") as b:
                buf = bytearray(CHUNK)
                while True:
                    got = a.readinto(buf)
                    if not got:
                        break
                    b.write(buf if got == CHUNK else buf[:got])
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
                fill(p, ring_size(n))
        except OSError:  # the drive had less room than it said: no ring, the journal's groups as files
            for p in paths:
                try:
                    os.remove(p)
                except OSError:
                    pass
            return 0
        kept.make_store(j.root)  # box/store.py's settings and roster, with the ring
    return n
