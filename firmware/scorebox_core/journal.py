"""The match journal: every arrow in flash, safe from power cuts (docs/journal.md).

    j = Journal("/flash")            # a directory on the mounted file system
    report = j.recover()             # at boot: torn tails set aside, the open match found
    n = j.start_match(header)        # JournalFull (with a reason) when there is no room
    j.append(ev)                     # one rules-core event, flushed before it returns
    j.finish(result); j.confirm(0); j.confirm(1)
    j.open_match()                   # (n, header, events) to resume after a power cut
    j.ack(n)                         # the PC holds match n: its space may be freed
    j.space()                        # free bytes, matches_left, percent_full, warn

Matches are appended, record by record (box/records.py), to *group files* of about 16 KiB
(g000001.tbj holds matches 1, 2, ...): LittleFS spends at least a 4 KiB block per file,
so one file per match would cost 16 times what its records do. A group file is only
ever appended to, each record flushed (f.flush() commits it on LittleFS: all or nothing);
the newest group is the only one written. Small state (journal.ack) is replaced by writing
a temporary file and renaming it over the old one. A group file is deleted only once the
host has acknowledged every match in it, and never the newest one.

Pure MicroPython code (os, time): the PC reads the same files with the same code
(`Journal(dir, readonly=True)`, or Fold over a file's records: scorebox/decode.py).
"""

import os
import time

from scorebox_core import records as R

GROUP_BYTES = 16384  # a group file closes once the next match would take it past this
TYPICAL = 256  # bytes a match is assumed to take until the journal has measured its own
RESERVE_BLOCKS = 4  # ballast kept for the match in progress (journal.rsv)
MIN_FREE_BLOCKS = 2  # a new match needs this many free blocks besides the ballast
WARN_PERCENT = 90

ACK_FILE = "journal.ack"
QUARANTINE_FILE = "journal.qtn"
RESERVE_FILE = "journal.rsv"
_ENOSPC = 28


class JournalError(Exception):
    """The journal cannot do what was asked; str() says why, for the screen."""


class JournalFull(JournalError):
    """No room for a new match; str() says why and what to do."""


def group_name(first):
    return "g%06d.tbj" % first


def _group_first(name):
    """The first match number a group file's name carries, or None if it is not one."""
    if len(name) >= 11 and name[0] == "g" and name.endswith(".tbj") and name[1:-4].isdigit():
        return int(name[1:-4])
    return None


def _side(side):
    if side in (0, "A"):
        return 0
    if side in (1, "B"):
        return 1
    raise ValueError("side is 0/'A' or 1/'B', not %r" % (side,))


def _extras(off, end):
    return {
        "result": None,
        "confirmed": [False, False],
        "notes": [],
        "face": None,
        "damaged": 0,
        "stray": 0,
        "header_lost": False,
        "offset": off,
        "end": end,
    }


class Fold:
    """Folds the records of one journal file into matches, in file order.

    feed() takes each (offset, end, rtype, value) from records.scan() and returns a match
    when the next one begins; close() returns the last one. A match is [number, header,
    events, extras], extras a dict: result (None while open), confirmed ([A, B]), notes,
    face (a FACE record inside the match), damaged (unreadable or set-aside stretches
    inside it), stray (records that made no sense where they were), header_lost, offset,
    end (its bytes in the file).

    When damage has eaten a match header, the events that follow cannot be the finished
    match's before it: they are kept as match (number before + 1), header {} and
    header_lost True. Numbers are consecutive within a file, so that is its number."""

    def __init__(self, first=None):
        self.cur = None
        self.first = first  # the file's first match number (its GROUP record says)
        self.damage = []  # (offset, length) of every unreadable stretch
        self.gaps = []  # (offset, length) of the stretches set aside earlier (GAP records)
        self.face = None  # (face, match number or 0, from a match header)
        self.index = []  # (number, offset) of every match header read
        self.spans = []  # [start, end] of the stretches that read well
        self.stray = 0  # records outside any match
        self.finished = 0  # matches with a result, and the bytes they took
        self.finished_bytes = 0
        self.last = 0  # highest match number seen
        self.end = 0
        self._hurt = False  # damage since the last match header

    def feed(self, off, end, t, v):
        self.end = end
        if t == R.DAMAGE or t == R.GAP:
            (self.damage if t == R.DAMAGE else self.gaps).append((off, end - off) if t == R.DAMAGE else v)
            self._hurt = True
            if self.cur is not None:
                self.cur[3]["damaged"] += 1
            if t == R.DAMAGE:
                return None
        sp = self.spans
        if sp and sp[-1][1] == off:
            sp[-1][1] = end
        else:
            sp.append([off, end])
        if t == R.GAP:
            return None
        if t == R.GROUP:
            if self.first is None:
                self.first = v
            return None
        if t == R.MATCH:
            done = self.cur
            n, h = v
            if done is not None and done[3]["header_lost"] and done[0] == n:
                done = None  # a guess the real header proves wrong: its records were strays
                self.stray += 1
            self.cur = [n, h, [], _extras(off, end)]
            self.index.append((n, off))
            self._hurt = False
            if n > self.last:
                self.last = n
            if isinstance(h.get("face"), dict):
                self.face = (h["face"], n, True)
            return done
        done = None
        c = self.cur
        if self._hurt and t in (R.EVENT, R.RESULT) and (c is None or c[3]["result"] is not None):
            done = c
            n = c[0] + 1 if c is not None else (self.first or 0)
            c = self.cur = [n, {}, [], _extras(off, end)]
            c[3]["header_lost"] = True
            c[3]["damaged"] = 1
            self._hurt = False
            if n > self.last:
                self.last = n
        if t == R.FACE:
            self.face = (v, c[0] if c else 0, False)
        if c is None:
            if t != R.FACE:
                self.stray += 1
            return done
        x = c[3]
        x["end"] = end
        if t == R.EVENT:
            if x["result"] is None:
                c[2].append(v)
            else:
                x["stray"] += 1
        elif t == R.RESULT:
            if x["result"] is None:
                x["result"] = v
                self.finished += 1
                self.finished_bytes += end - x["offset"]
            else:
                x["stray"] += 1
        elif t == R.CONFIRM:
            if x["result"] is None:
                x["stray"] += 1
            else:
                x["confirmed"][v] = True
        elif t == R.NOTE:
            x["notes"].append(v)
        elif t == R.FACE:
            x["face"] = v
        else:
            x["stray"] += 1
        return done

    def close(self):
        done = self.cur
        self.cur = None
        return done


class Journal:
    def __init__(self, root, group_bytes=GROUP_BYTES, reserve_blocks=RESERVE_BLOCKS, readonly=False):
        self.root = root[:-1] if len(root) > 1 and root.endswith("/") else root
        self.group_bytes = group_bytes
        self.reserve_blocks = reserve_blocks
        self.readonly = readonly
        self._f = None
        self._ready = False
        self._reset()

    def _reset(self):
        self._groups = []  # first match number of each group file, oldest first
        self._size = 0  # bytes in the newest group file
        self._next = 1  # number of the next match
        self._open = None  # [number, header, events] of the match in progress
        self._last = None  # [number, result, confirmed] of the newest finished match
        self._cur_off = 0  # offset of the open match's header in the newest group
        self._face = None
        self._floor = 0  # every match <= floor is acknowledged ...
        self._ranges = []  # ... and so is every [a, b] (inclusive) in here
        self._fin = [0, 0]  # bytes and count of finished matches in the newest group
        self._ballast = False
        self._index = None  # (first, [(number, offset)]) of the group read last

    # --- paths and little file helpers ---------------------------------------------------
    def _path(self, name):
        return self.root + "/" + name if self.root != "/" else "/" + name

    def _fsize(self, name):
        try:
            return os.stat(self._path(name))[6]
        except OSError:
            return -1

    def _remove(self, name):
        try:
            os.remove(self._path(name))
        except OSError:
            pass

    def _close(self):
        f = self._f
        self._f = None
        if f is not None:
            try:
                f.close()
            except OSError:
                pass

    def _ensure(self):
        if not self._ready:
            self.recover()

    def _writable(self):
        self._ensure()
        if self.readonly:
            raise JournalError("the journal is open read-only")

    # --- boot -----------------------------------------------------------------------------
    def recover(self):
        """Find the journal's state after a (re)boot; returns a report dict:
        damage ([{file, offset, bytes}]), quarantined (bytes set aside), removed (leftover
        temporary files), freed (acknowledged group files deleted), groups, matches, open
        (number of the match in progress or None), arrows (its events), unconfirmed
        (number of a finished match not yet confirmed by both sides, or None), next,
        notes (sentences about anything unusual)."""
        self._close()
        self._reset()
        rep = {
            "damage": [],
            "quarantined": 0,
            "removed": [],
            "freed": [],
            "groups": 0,
            "matches": 0,
            "open": None,
            "arrows": 0,
            "unconfirmed": None,
            "next": 1,
            "notes": [],
        }
        if not self.readonly:
            try:
                os.mkdir(self.root)
            except OSError:
                pass  # it exists
        names = os.listdir(self.root)
        groups = []
        for nm in names:
            if nm.endswith(".tmp") and (_group_first(nm[:-4]) is not None or nm[:-4] in (ACK_FILE, RESERVE_FILE)):
                if not self.readonly:  # a replacement cut short: the original is intact
                    self._remove(nm)
                    rep["removed"].append(nm)
                continue
            first = _group_first(nm)
            if first is not None:
                groups.append(first)
        groups.sort()
        self._groups = groups
        self._load_ack(rep)
        while not self.readonly and groups and self._fsize(group_name(groups[-1])) == 0:
            nm = group_name(groups.pop())  # created, but a power cut came before its first record
            self._remove(nm)
            rep["removed"].append(nm)
        if groups:
            self._load_newest(rep)
            self._next = max(self._next, groups[-1])
        if not self.readonly:
            self._free_acked(rep)
            self._ballast = self._fsize(RESERVE_FILE) == self._ballast_bytes()
            if not self._ballast:
                self._make_ballast()
        else:
            self._ballast = True
        rep["groups"] = len(self._groups)
        rep["matches"] = self._count()
        rep["next"] = self._next
        if self._open:
            rep["open"] = self._open[0]
            rep["arrows"] = len(self._open[2])
        u = self.unconfirmed()
        if u:
            rep["unconfirmed"] = u[0]
        self._ready = True
        return rep

    def _load_newest(self, rep):
        first = self._groups[-1]
        name = group_name(first)
        fold = self._fold_file(name)
        if fold.damage:
            for off, n in fold.damage:
                rep["damage"].append({"file": name, "offset": off, "bytes": n})
            if not self.readonly:
                self._set_aside(name, fold, rep)
                fold = self._fold_file(name)
        self._size = self._fsize(name)
        self._fin = [fold.finished_bytes, fold.finished]
        self._face = fold.face
        m = fold.close()
        if fold.last >= self._next:
            self._next = fold.last + 1
        if m is not None:
            n, h, events, x = m
            if x["header_lost"]:
                rep["notes"].append("match %d lost its header: its %d events are kept, not resumed" % (n, len(events)))
            elif x["result"] is None:
                self._open = [n, h, events]
                self._cur_off = x["offset"]
                if x["damaged"]:
                    rep["notes"].append("match %d: %d damaged stretch(es): check its arrows" % (n, x["damaged"]))
            else:
                self._last = [n, x["result"], x["confirmed"]]
        if fold.stray:
            rep["notes"].append("%s: %d record(s) outside any match" % (name, fold.stray))

    def _fold_file(self, name, start=0, want=None):
        """Fold a group file (from offset start); with want, stop after match want."""
        fold = Fold(_group_first(name))
        found = None
        with open(self._path(name), "rb") as f:
            if start:
                f.seek(start)
            for off, end, t, v in R.scan(f.read, start):
                m = fold.feed(off, end, t, v)
                if want is not None and m is not None and m[0] == want:
                    found = m
                    break
        if want is not None:
            if found is None:
                m = fold.close()
                if m is not None and m[0] == want:
                    found = m
            fold.found = found
        return fold

    def _set_aside(self, name, fold, rep):
        """Copy the damaged stretches of the newest group to the quarantine file, then
        replace the group by its readable records (written to a temporary file and renamed
        over it), so that new records follow good ones. Nothing is lost: if the copy to
        quarantine fails, the group is left as it is."""
        path = self._path(name)
        try:
            with open(path, "rb") as src:
                for off, n in fold.damage:
                    src.seek(off)
                    self._quarantine(name, off, src.read(n))
                    rep["quarantined"] += n
        except OSError as e:
            rep["notes"].append("could not set damaged bytes aside (%s): left in place" % e)
            return
        tmp = path + ".tmp"
        try:
            with open(path, "rb") as src:
                with open(tmp, "wb") as dst:
                    pos = 0
                    for a, b in fold.spans:
                        for off, n in fold.damage:
                            if pos <= off < a:
                                dst.write(R.gap_record(off, n))  # the match keeps its mark
                        src.seek(a)
                        dst.write(src.read(b - a))
                        pos = b
                    for off, n in fold.damage:
                        if off >= pos:
                            dst.write(R.gap_record(off, n))
                    dst.flush()
            os.rename(tmp, path)
        except OSError as e:
            self._remove(name + ".tmp")
            rep["notes"].append("could not rewrite %s (%s): new records follow the damage" % (name, e))

    def _quarantine(self, name, off, data):
        """Append bytes read at offset off of file name to the quarantine file, flushed."""
        q = open(self._path(QUARANTINE_FILE), "ab")
        try:
            if self._fsize(QUARANTINE_FILE) <= 0:
                q.write(R.group_record(0))
            q.write(R.quarantine_records(name, off, data))
            q.flush()
        finally:
            q.close()

    # --- acknowledgements -----------------------------------------------------------------
    def _load_ack(self, rep):
        try:
            with open(self._path(ACK_FILE), "rb") as f:
                state = None
                bad = 0
                for _, _, t, v in R.scan(f.read):
                    if t == R.ACK and isinstance(v, dict):
                        state = v
                    elif t == R.DAMAGE:
                        bad += 1
        except OSError:
            return  # no acknowledgement yet
        if state is None or bad:
            size = self._fsize(ACK_FILE)
            rep["notes"].append("%s unreadable: nothing counts as acknowledged" % ACK_FILE)
            rep["damage"].append({"file": ACK_FILE, "offset": 0, "bytes": size})
            if not self.readonly:  # keep its bytes for the host before it is replaced
                try:
                    with open(self._path(ACK_FILE), "rb") as f:
                        self._quarantine(ACK_FILE, 0, f.read())
                    rep["quarantined"] += size
                except OSError:
                    pass
        if state is None:
            return
        try:
            self._floor = int(state.get("floor", 0))
            self._ranges = [[int(a), int(b)] for a, b in state.get("acked", [])]
            self._next = max(self._next, int(state.get("next", 1)))
        except (TypeError, ValueError):
            self._floor, self._ranges = 0, []

    def acked(self, n):
        """True when the host has acknowledged match n."""
        if n <= self._floor:
            return True
        for a, b in self._ranges:
            if a <= n <= b:
                return True
        return False

    def ack(self, numbers):
        """The host holds these matches (a number or a list of numbers): their space is
        freed once every match of their group file is acknowledged. Returns the names of
        the group files deleted."""
        self._writable()
        numbers = [numbers] if isinstance(numbers, int) else list(numbers)
        for n in numbers:
            if not isinstance(n, int) or not 1 <= n < self._next:
                raise ValueError("no match %r to acknowledge" % (n,))
            if self._open and n == self._open[0]:
                raise ValueError("match %d is still open" % n)
        runs = []  # the numbers as ranges first: one small list per run, not per number
        for n in sorted(numbers):
            if runs and n <= runs[-1][1] + 1:
                runs[-1][1] = n  # sorted: never below the run's end
            else:
                runs.append([n, n])
        rs = self._ranges + runs
        rs.sort()
        merged = []
        floor = self._floor
        for a, b in rs:
            if a <= floor + 1:
                floor = max(floor, b)
            elif merged and a <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        self._floor, self._ranges = floor, merged
        self._save_ack()
        rep = {"freed": []}
        self._free_acked(rep)
        return rep["freed"]

    def _save_ack(self):
        state = {"floor": self._floor, "acked": self._ranges, "next": self._next}
        tmp = self._path(ACK_FILE + ".tmp")
        with open(tmp, "wb") as f:
            f.write(R.value_record(R.ACK, state))
            f.flush()
        os.rename(tmp, self._path(ACK_FILE))

    def _free_acked(self, rep):
        g = self._groups
        keep = []
        for i in range(len(g)):
            if i < len(g) - 1 and self._all_acked(g[i], g[i + 1] - 1):
                self._remove(group_name(g[i]))
                rep["freed"].append(group_name(g[i]))
            else:
                keep.append(g[i])
        self._groups = keep
        if self._index and self._index[0] not in keep:
            self._index = None

    def _all_acked(self, a, b):
        for n in range(a, b + 1):
            if not self.acked(n):
                return False
        return True

    # --- space ----------------------------------------------------------------------------
    def _ballast_bytes(self):
        return self.reserve_blocks * 4000  # a little under reserve_blocks 4 KiB blocks

    def _make_ballast(self):
        """Write journal.rsv, the space kept for the match in progress, if there is room."""
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
            return TYPICAL
        per = b * 17 // (16 * n)  # plus about 1/16 for metadata and the end of the file
        return per if per > 128 else 128

    def _unacked(self):
        """Matches kept (the open one too) that the host has not acknowledged."""
        g = self._groups
        n = 0
        for i in range(len(g)):
            a, b = g[i], (g[i + 1] if i + 1 < len(g) else self._next) - 1
            n += b - a + 1
            for lo, hi in [[1, self._floor]] + self._ranges:
                lo, hi = max(lo, a), min(hi, b)
                if lo <= hi:
                    n -= hi - lo + 1
        return n

    def _count(self):
        g = self._groups
        total = 0
        for i in range(len(g)):
            total += (g[i + 1] if i + 1 < len(g) else self._next) - g[i]
        return total

    def space(self):
        """Flash space as the journal sees it: a dict with block_size, blocks, free_blocks,
        free (bytes), per_match (bytes a match takes here), matches_left, percent_full,
        warn (at WARN_PERCENT), full (no new match can start), stored and unacked (matches)."""
        self._ensure()
        st = os.statvfs(self.root)
        bs, total, free = st[0], st[2], st[3]
        usable = free - MIN_FREE_BLOCKS - (0 if self._ballast else self.reserve_blocks)
        per = self._per_match()
        left = usable * bs // per if usable > 0 else 0
        pct = (total - free) * 100 // (total - MIN_FREE_BLOCKS) if total > MIN_FREE_BLOCKS else 100
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
        free = os.statvfs(self.root)[3]
        if not self._ballast:
            self._make_ballast()
            free = os.statvfs(self.root)[3]
        need = MIN_FREE_BLOCKS + (1 if new_group else 0)
        if self._ballast and free >= need:
            return
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
                self._f = open(self._path(name), "ab")
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
                self._f = open(self._path(name), "ab")
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
        archers, distances, shafts, face ... ; "clock" (time.time()) is added if missing."""
        self._writable()
        if self._open:
            raise JournalError("match %d is still open: finish it first" % self._open[0])
        if not isinstance(header, dict):
            raise ValueError("a match header is a dict")
        h = dict(header)
        if "clock" not in h:
            h["clock"] = int(time.time())
        n = self._next
        rec = R.match_record(n, h)
        new_group = not self._groups or self._size + self._per_match() > self.group_bytes
        self._room(new_group)
        if new_group:
            self._close()
            was = self._size, self._fin
            self._groups.append(n)
            self._size = 0
            self._fin = [0, 0]
            grec = R.group_record(n)
            try:
                self._write(grec + rec)
            except JournalError:
                self._close()
                self._groups.pop()
                self._size, self._fin = was
                if self._fsize(group_name(n)) <= 0:
                    self._remove(group_name(n))
                raise
            self._cur_off = len(grec)
            self._free_acked({"freed": []})  # the group before may now go, as at boot
        else:
            self._cur_off = self._size
            self._write(rec)
        self._open = [n, h, []]
        self._last = None
        self._next = n + 1
        if isinstance(h.get("face"), dict):
            self._face = (h["face"], n, True)
        return n

    def append(self, ev):
        """Record one event (an int from the rules core) of the open match; it is in flash
        when this returns. JournalError if it could not be saved (say so on the screen)."""
        self._writable()
        if not self._open:
            raise JournalError("no match is open")
        self._write(R.event_record(ev))
        self._open[2].append(ev)

    def finish(self, result):
        """Close the open match with its result (a dict from the app)."""
        self._writable()
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
        self._writable()
        s = _side(side)
        if self._last is None:
            raise JournalError("no finished match to confirm")
        if not self._last[2][s]:
            self._write(R.confirm_record(s))
            self._last[2][s] = True

    def note(self, value):
        """Keep any value (a dict, a string ...) with the open or last match."""
        self._writable()
        if not self._groups:
            raise JournalError("no match yet")
        self._write(R.value_record(R.NOTE, value))

    def set_face(self, face):
        """Record the face on the boss (TTB-16), e.g. after a match or when it is changed
        between matches; face() gives the newest one back after a reboot."""
        self._writable()
        if not self._groups:
            self._room(True)
            self._groups.append(self._next)
            self._size = 0
            self._write(R.group_record(self._next) + R.value_record(R.FACE, face))
        else:
            self._write(R.value_record(R.FACE, face))
        n = self._open[0] if self._open else (self._last[0] if self._last else 0)
        self._face = (face, n, False)

    # --- reading --------------------------------------------------------------------------
    def open_match(self):
        """(number, header, events) of the match in progress, or None."""
        self._ensure()
        o = self._open
        if not o:
            return None
        return o[0], o[1], list(o[2])

    def unconfirmed(self):
        """(number, result, [A confirmed, B confirmed]) of the newest match when it is
        finished but not confirmed by both sides, else None."""
        s = self._last
        if s and not (s[2][0] and s[2][1]):
            return s[0], s[1], list(s[2])
        return None

    def face(self):
        """The newest face record: (face, match number, from_header) or None. When
        from_header is True it is the face as that match began: replay the match's events
        (Match.replay(..., face=...).face) to bring it up to date."""
        self._ensure()
        return self._face

    def last(self):
        """Number of the newest match (0 when there is none)."""
        self._ensure()
        return self._next - 1

    def list_matches(self, after=0):
        """Numbers of the matches kept (the open one excluded), oldest first, > after.
        (space()["stored"] counts them without making the list.)"""
        self._ensure()
        g = self._groups
        out = []
        for i in range(len(g)):
            end = g[i + 1] if i + 1 < len(g) else self._next
            for n in range(max(g[i], after + 1), end):
                out.append(n)
        if self._open and out and out[-1] == self._open[0]:
            out.pop()
        return out

    def _group_of(self, n):
        g = self._groups
        for i in range(len(g) - 1, -1, -1):
            if g[i] <= n:
                if n < (g[i + 1] if i + 1 < len(g) else self._next):
                    return g[i]
                break
        raise JournalError("no match %d on the box" % n)

    def read_match(self, n):
        """(header, events, extras) of match n. extras: number, result (None while open),
        confirmed [A, B], notes, face, damaged (unreadable stretches inside it), stray,
        open, acked, group (file name), offset and end (its bytes in the file)."""
        self._ensure()
        first = self._group_of(n)
        name = group_name(first)
        start = 0
        idx = self._index
        if idx and idx[0] == first:
            for k, off in idx[1]:
                if k <= n:
                    start = off  # the header of n, or of the last match known before it
        else:
            idx = self._index = (first, [])
        fold = self._fold_file(name, start, n)
        known = idx[1]
        for k, off in fold.index:
            if not known or k > known[-1][0]:
                known.append((k, off))
        m = fold.found
        if m is None:
            raise JournalError("match %d is damaged beyond reading" % n)
        return self._out(m, name)

    def _out(self, m, name):
        n, h, events, x = m
        x["number"] = n
        x["open"] = bool(self._open) and self._open[0] == n
        x["acked"] = self.acked(n)
        x["group"] = name
        return h, events, x

    def iter_matches(self, after=0):
        """Every kept match > after, oldest first, as (number, header, events, extras),
        reading each group file once (what a full sync wants)."""
        self._ensure()
        g = list(self._groups)
        for i in range(len(g)):
            if i + 1 < len(g) and g[i + 1] - 1 <= after:
                continue
            name = group_name(g[i])
            fold = Fold(g[i])
            with open(self._path(name), "rb") as f:
                for off, end, t, v in R.scan(f.read):
                    m = fold.feed(off, end, t, v)
                    if m is not None and m[0] > after:
                        yield (m[0],) + self._out(m, name)
            m = fold.close()
            if m is not None and m[0] > after and not (self._open and self._open[0] == m[0]):
                yield (m[0],) + self._out(m, name)

    def verify(self):
        """Read every group file: {groups, matches, damage: [{file, offset, bytes}]}.
        Changes nothing."""
        self._ensure()
        rep = {"groups": len(self._groups), "matches": 0, "damage": []}
        for first in self._groups:
            name = group_name(first)
            fold = self._fold_file(name)
            fold.close()
            rep["matches"] += len(fold.index)
            for off, n in fold.damage:
                rep["damage"].append({"file": name, "offset": off, "bytes": n})
            for off, n in fold.gaps:
                rep["damage"].append({"file": name, "offset": off, "bytes": n, "set_aside": True})
        return rep

    def close(self):
        """Close the open file (not needed for safety: every record is already flushed)."""
        self._close()
