"""The match journal, written: every arrow in flash, safe from power cuts (docs/journal.md).

    j = Journal("/flash")            # a directory on the mounted file system
    report = j.recover()             # at boot: torn tails set aside, the open match found
    n = j.start_match(header)        # JournalFull (with a reason) when there is no room
    j.append(ev)                     # one rules-core event, flushed before it returns
    j.finish(result); j.confirm(0); j.confirm(1)
    j.open_match()                   # (n, header, events) to resume after a power cut
    j.ack(n)                         # the PC holds match n: its space may be freed when needed
    j.space()                        # free bytes, matches_left, percent_full, warn

This module is what stays in the heap while a match is shot; its reading half is the
shared scorebox_core/journal.py. Recovery (box/recovery.py) is loaded for the call at boot
and let go after it; acknowledgements (box/acks.py) come with the sync link, the only
caller of ack().

A group file is only ever appended to, each record flushed (f.flush() commits it on
LittleFS: all or nothing); the newest group is the only one written. Small state
(journal.ack) is replaced by writing a temporary file and renaming it over the old one. A
group file is deleted only once the host has acknowledged every match in it, never the
newest one, and only when a new match needs the room: until then a sync that takes the
box over can still copy it.
"""

import gc
import os
import sys
import time
from array import array

from scorebox_core import records as R
from scorebox_core.games import drop
from scorebox_core.journal import RESERVE_FILE, JournalError, Reader, group_first, group_name

try:
    from micropython import const
except ImportError:  # CPython
    from scorebox_core.compat import const

GROUP_BYTES = const(16384)  # a group file closes once the next match would take it past this
RESERVE_BLOCKS = const(4)  # ballast kept for the match in progress (journal.rsv)
MIN_FREE_BLOCKS = const(2)  # a new match needs this many free blocks besides the ballast
WARN_PERCENT = const(90)
_TYPICAL = const(256)  # bytes a match is assumed to take until the journal has measured its own
_ENOSPC = const(28)
# A clock reading before this was never set: a Pico's clock starts at 2021-01-01 at power-on,
# CircuitPython's at 2000-01-01, and no battery keeps either; the PC sets it at each sync. A
# match started then gets no "clock" (no date on the PC) rather than a day in 2021.
CLOCK_SET_AFTER = 1767225600  # 2026-01-01 00:00 UTC, before this firmware was made
# CircuitPython's drive is FAT, rewritten in place: there a group file is two copies written
# in place (box/fat/group.py, box/fat/ring.py, docs/journal.md "On FAT")
FAT = sys.implementation.name == "circuitpython"
_CPYTHON = sys.implementation.name == "cpython"


class JournalFull(JournalError):
    """No room for a new match; str() says why and what to do."""


def _side(side):
    if side in (0, "A"):
        return 0
    if side in (1, "B"):
        return 1
    raise ValueError("side is 0/'A' or 1/'B', not %r" % (side,))


def _first():
    """A group's first record's offset in its file: on FAT after the copy's pad, as recovery
    finds it there (box/fat/group.py); group_bytes counts the records after it."""
    return R.ERASED_PAD if FAT else 0


def _unload(name):
    """Let a module go: on the box the code it took goes back to the heap at the next
    collection, made now. CPython (the PC's tools and tests) frees it by its reference count,
    and a full collection there costs tens of milliseconds at every recovery."""
    drop(name)
    if not _CPYTHON:
        gc.collect()


class Journal(Reader):
    def __init__(self, root, group_bytes=GROUP_BYTES, reserve_blocks=RESERVE_BLOCKS):
        self.group_bytes = group_bytes
        self.reserve_blocks = reserve_blocks
        self._f = None
        self._slots = None  # on FAT the journal's space allocated once (box/fat/ring.py's Ring)
        super().__init__(root)

    def _reset(self):
        super()._reset()
        self._size = 0  # bytes in the newest group file
        self._cur_off = 0  # offset of the open match's header in the newest group
        self._fin = [0, 0]  # bytes and count of finished matches in the newest group
        self._ballast = False

    def recover(self):
        """Find the journal's state after a (re)boot; returns a report dict:
        damage ([{file, offset, bytes}]), quarantined (bytes set aside), removed (leftover
        temporary files), freed (acknowledged group files deleted), groups, matches, open
        (number of the match in progress or None), arrows (its events), unconfirmed
        (number of a finished match not yet confirmed by both sides, or None), next,
        notes (sentences about anything unusual)."""
        from box import recovery

        try:
            return recovery.recover(self, FAT)
        finally:
            del recovery  # with the module's last reference gone, the collection frees it
            _unload("box.recovery")
            if FAT:
                _unload("box.fat.recovery")  # its part on FAT, loaded by recovery.recover

    def ack(self, numbers):
        """The host holds these matches (a number or a list of numbers): their space is
        freed once every match of their group file is acknowledged. Returns the names of
        the group files deleted."""
        from box import acks

        return acks.ack(self, numbers)

    # --- little file helpers --------------------------------------------------------------
    def _remove(self, name):
        try:
            os.remove(self._path(name))
        except OSError:
            pass
        if FAT and group_first(name) is not None:
            from box.fat import group

            group.remove(self, name)

    def _file(self, name):
        """A journal file to read; on FAT with a ring, a slot's group or the acknowledgements
        are a stretch of its file (box/fat/ring.py)."""
        if self._slots is not None:
            from box.fat import ring

            return ring.region(self, name)
        return super()._file(name)

    def _group(self, name):
        """The newest group file, open to append (on FAT its two copies: box/fat/group.py)."""
        if FAT:
            from box.fat import group

            return group.Group(self, name)
        return open(self._path(name), "ab")

    def _close(self):
        f = self._f
        self._f = None
        if f is not None:
            try:
                f.close()
            except OSError:
                pass

    def close(self):
        """Close the open file (not needed for safety: every record is already flushed). On
        FAT the ring's files stay open (box/fat/group.py): closing a file written writes its
        directory entry, a 4 KiB rewrite a cut could tear (the app closes at an empty battery)."""
        self._close()

    def _need(self, bs):
        """Free blocks (of bs bytes) a new group needs: on LittleFS its block, the writer's and
        the ballast's; on FAT its two copies and some to spare (box/fat/group.py)."""
        if FAT:
            from box.fat import group

            return group.need(bs)
        return MIN_FREE_BLOCKS + 1 + (0 if self._ballast else self.reserve_blocks)

    def _free_acked(self, rep):
        """Delete the group files whose matches are all acknowledged, oldest first and never
        the newest, only while fewer blocks are free than a new match needs."""
        if self._slots is not None:
            return  # a ring's slots are wiped in place when a new group takes one: no file goes
        g = self._groups
        keep = []
        need = 0  # set with free, from the same statvfs
        free = None  # statvfs walks the whole file system: once, and again after a delete
        for i in range(len(g)):
            if i < len(g) - 1 and self._all_acked(g[i], g[i + 1] - 1):
                if free is None:
                    st = os.statvfs(self.root)
                    free = st[3]
                    need = self._need(st[0])
                if free < need:
                    self._remove(group_name(g[i]))
                    rep["freed"].append(group_name(g[i]))
                    free = None
                    continue
            keep.append(g[i])
        self._groups = keep
        if self._index and self._index[0] not in keep:
            self._index = None

    def _all_acked(self, a, b):
        """True when every match a..b is acknowledged: a walk of the acknowledged runs,
        not of the numbers (the space figure asks it of every group file)."""
        n = max(a, self._floor + 1)
        for x, y in self._ranges:  # sorted, apart
            if x <= n <= y:
                n = y + 1
        return n > b

    # --- space ----------------------------------------------------------------------------
    def _ballast_bytes(self):
        return self.reserve_blocks * 4000  # a little under reserve_blocks 4 KiB blocks

    def _make_ballast(self):
        """Write journal.rsv, the space kept for the match in progress, if there is room. None
        on FAT: a match's records go into its group's copies, made at full size before it."""
        if FAT:
            return False
        st = os.statvfs(self.root)
        if st[3] < self.reserve_blocks + MIN_FREE_BLOCKS:
            return False
        tmp = self._path(RESERVE_FILE + ".tmp")
        chunk = b"\xff" * 500
        try:
            with open(tmp, "wb") as f:
                for _ in range(self._ballast_bytes() // 500):
                    f.write(chunk)
            os.rename(tmp, self._path(RESERVE_FILE))
        except OSError:
            self._remove(RESERVE_FILE + ".tmp")
            return False
        self._ballast = True
        return True

    def _per_match(self):
        b, n = self._fin
        if n < 4:
            return _TYPICAL
        per = b * 17 // (16 * n)  # plus about 1/16 for metadata and the end of the file
        return per if per > 128 else 128

    def _reclaimable(self, bs):
        """Blocks the acknowledged group files hold, which a new match may free."""
        if self._slots is not None:
            return 0  # a ring's slot is taken again, never freed
        g = self._groups
        n = 0
        names = [""]
        if FAT:  # its second copy goes with it
            from scorebox_core.fatlayout import MIRROR

            names.append(MIRROR + "/")
        for i in range(len(g) - 1):
            if self._all_acked(g[i], g[i + 1] - 1):
                for d in names:
                    n += (self._fsize(d + group_name(g[i])) + bs - 1) // bs
        return n

    def _unacked(self):
        """Matches kept (the open one too) that the host has not acknowledged."""
        g = self._groups
        n = 0
        for i in range(len(g)):
            a, b = g[i], self._stop(i) - 1
            n += b - a + 1
            for lo, hi in [[1, self._floor]] + self._ranges:
                lo, hi = max(lo, a), min(hi, b)
                if lo <= hi:
                    n -= hi - lo + 1
        return n

    def space(self):
        """Flash space as the journal sees it: a dict with block_size, blocks, free_blocks,
        free (bytes), per_match (bytes a match takes here), matches_left, percent_full,
        warn (at WARN_PERCENT), full (no new match can start), stored and unacked (matches)."""
        self._ensure()
        st = os.statvfs(self.root)
        bs, total, free = st[0], st[2], st[3]
        free += self._reclaimable(bs)  # acknowledged: as good as free
        usable = free - MIN_FREE_BLOCKS - (0 if self._ballast else self.reserve_blocks)
        # 256 bytes a match, or the measured average when larger (the PC's figure too:
        # scorebox/device/space.py): a few short matches never make the figure jump past
        # what the flash holds with typical ones
        per = max(self._per_match(), _TYPICAL)
        left = usable * bs // per if usable > 0 else 0
        pct = (total - free) * 100 // (total - MIN_FREE_BLOCKS) if total > MIN_FREE_BLOCKS else 100
        if FAT:  # the matches the newest group's copies hold, and new groups' room: the ring's
            if self._slots is not None:  # slots that may take one, or copies that fit
                from box.fat import ring

                left, pct = ring.ring_space(self, per)
            else:
                from box.fat import group

                left = group.matches_left(self, bs, free, per)
                pct = (total - free) * 100 // total
        pct = 100 if pct > 100 or left == 0 else pct
        stored = self._count()
        unacked = self._unacked()
        return {
            "block_size": bs,
            "blocks": total,
            "free_blocks": free,
            "free": free * bs,
            "per_match": per,
            "matches_left": left,
            "percent_full": pct,
            "warn": pct >= WARN_PERCENT,
            "full": left == 0,
            "stored": stored,
            "unacked": unacked,
        }

    def _room(self, new_group):
        """Raise JournalFull unless a new match can start."""
        st = os.statvfs(self.root)
        free = st[3]
        if FAT:  # a match goes into copies made at full size: only a new group's take room
            if not new_group:
                return
            if self._slots is not None:  # the ring's next slot, if its matches are all acknowledged
                from box.fat import ring

                if ring.usable(self, self._slots.next()):
                    return
                self._full()
            need = self._need(st[0])
            if free < need:
                self._free_acked({"freed": []})
                free = os.statvfs(self.root)[3]
            if free >= need:
                return
            self._full()
        if free < self._need(st[0]):
            self._free_acked({"freed": []})  # the room acknowledged groups hold, only now
            free = os.statvfs(self.root)[3]
        if not self._ballast:
            self._make_ballast()
            free = os.statvfs(self.root)[3]
        need = MIN_FREE_BLOCKS + (1 if new_group else 0)
        if self._ballast and free >= need:
            return
        self._full()

    def _full(self):
        """Raise JournalFull, with what the archers can do about it."""
        unacked = self._unacked()
        if unacked:
            raise JournalFull("storage full: %d matches wait for the PC; sync to make room" % unacked)
        raise JournalFull("storage full: no room for a new match")

    # --- writing --------------------------------------------------------------------------
    def _write(self, rec):
        """Append one record to the newest group and flush it: it is committed on return."""
        name = group_name(self._groups[-1])
        try:
            if self._f is None:
                self._f = self._group(name)
            self._f.write(rec)
            self._f.flush()
        except OSError as e:
            self._retry(name, rec, e)
        self._size += len(rec)

    def _retry(self, name, rec, err):
        # After a failed write LittleFS will not commit that file handle again: reopen.
        self._close()
        size = self._fsize(name)
        if size == self._size + len(rec):
            return  # it got there after all
        if size != self._size and not (size == -1 and self._size == 0):
            raise JournalError("%s is %d bytes, expected %d: entry not saved" % (name, size, self._size))
        if err.args and err.args[0] == _ENOSPC and self._ballast:
            self._remove(RESERVE_FILE)  # this is what the ballast is for
            self._ballast = False
            try:
                self._f = self._group(name)
                self._f.write(rec)
                self._f.flush()
                return
            except OSError as e:
                self._close()
                if self._fsize(name) == self._size + len(rec):
                    return
                err = e
        if err.args and err.args[0] == _ENOSPC:
            raise JournalError("storage full: the last entry was not saved")
        raise JournalError("flash write failed (%s): the last entry was not saved" % err)

    def start_match(self, header):
        """Open match number n (returned) with header, a dict from the app: options,
        archers, distances, shafts, face ... ; "clock" (time.time()) is added if missing
        and the box's clock has been set."""
        self._ensure()
        if self._open:
            raise JournalError("match %d is still open: finish it first" % self._open[0])
        if not isinstance(header, dict):
            raise ValueError("a match header is a dict")
        h = dict(header)
        now = int(time.time())
        if "clock" not in h and now >= CLOCK_SET_AFTER:
            h["clock"] = now
        n = self._next
        rec = R.match_record(n, h)
        new_group = not self._groups or self._size - _first() + self._per_match() > self.group_bytes
        self._room(new_group)
        if new_group:
            self._close()
            was = self._size, self._fin
            self._groups.append(n)
            self._size = _first()
            self._fin = [0, 0]
            try:
                self._write(R.group_record(n) + rec)
            except JournalError:
                self._close()
                self._groups.pop()
                self._size, self._fin = was
                if FAT or self._fsize(group_name(n)) <= 0:  # on FAT: its copies, no match in them
                    self._remove(group_name(n))
                raise
            self._cur_off = self._size - len(rec)
            self._free_acked({"freed": []})  # the group before may now go, if its room is needed
        else:
            self._cur_off = self._size
            self._write(rec)
        self._open = [n, h, array("H")]  # 2 bytes an event: a long match must not need a large block
        self._last = None
        self._next = n + 1
        if isinstance(h.get("face"), dict):
            self._face = (h["face"], n, True)
        return n

    def append(self, ev):
        """Record one event (an int from the rules core) of the open match; it is in flash
        when this returns. JournalError if it could not be saved (say so on the screen)."""
        self._ensure()
        if not self._open:
            raise JournalError("no match is open")
        self._write(R.event_record(ev))
        self._open[2].append(ev)

    def finish(self, result):
        """Close the open match with its result (a dict from the app)."""
        self._ensure()
        if not self._open:
            raise JournalError("no match is open")
        if not isinstance(result, dict):
            raise ValueError("a result is a dict")
        self._write(R.value_record(R.RESULT, result))
        n = self._open[0]
        self._fin[0] += self._size - self._cur_off
        self._fin[1] += 1
        self._last = [n, dict(result), [False, False]]
        self._open = None
        return n

    def confirm(self, side):
        """Side (0/"A" or 1/"B") confirms the result of the match just finished."""
        self._ensure()
        s = _side(side)
        if self._last is None:
            raise JournalError("no finished match to confirm")
        if not self._last[2][s]:
            self._write(R.confirm_record(s))
            self._last[2][s] = True

    def note(self, value):
        """Keep any value (a dict, a string ...) with the open or last match."""
        self._ensure()
        if not self._groups:
            raise JournalError("no match yet")
        self._write(R.value_record(R.NOTE, value))

    def set_face(self, face):
        """Record the face on the boss (TTB-16), e.g. after a match or when it is changed
        between matches; face() gives the newest one back after a reboot."""
        self._ensure()
        if not self._groups:
            self._room(True)
            self._groups.append(self._next)
            self._size = _first()
            self._write(R.group_record(self._next) + R.value_record(R.FACE, face))
        else:
            self._write(R.value_record(R.FACE, face))
        n = self._open[0] if self._open else (self._last[0] if self._last else 0)
        self._face = (face, n, False)
