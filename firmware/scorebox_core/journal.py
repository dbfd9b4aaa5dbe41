"""The match journal's files, read: what the box and the PC share (docs/journal.md).

    r = Reader("/flash")             # a journal directory (the box's, or a copy pulled to the PC)
    report = r.recover()             # its state as the box left it; changes nothing
    r.list_matches(); r.read_match(n); r.iter_matches(); r.verify()

Matches are appended, record by record (scorebox_core/records.py), to *group files* of
about 16 KiB (g000001.tbj holds matches 1, 2, ...); journal.ack says which matches the PC
holds. Fold makes matches of one file's records, in the box's reader and on the PC
(scorebox/sync/decode.py). The box writes with box/journal.py (a Reader too), recovers at
boot with box/recovery.py and frees acknowledged matches with box/acks.py.

A folded match is a list [number, header, events, extras]: index it with NUMBER, HEADER,
EVENTS and EXTRAS (a list is the smallest thing on the box's heap). extras is a dict:
result (None while open), confirmed ([A, B]), notes, face (a FACE record inside the
match), damaged (unreadable or set-aside stretches inside it), stray (records that made
no sense where they were), header_lost, offset, end (its bytes in the file).

Pure MicroPython code (os): it runs unchanged under CPython.
"""

import os

from scorebox_core import records as R

try:
    from micropython import const
except ImportError:  # CPython
    from scorebox_core.compat import const

NUMBER = const(0)
HEADER = const(1)
EVENTS = const(2)
EXTRAS = const(3)

ACK_FILE = "journal.ack"
QUARANTINE_FILE = "journal.qtn"
RESERVE_FILE = "journal.rsv"


class JournalError(Exception):
    """The journal cannot do what was asked; str() says why, for the screen."""


def group_name(first):
    return "g%06d.tbj" % first


def group_first(name):
    """The first match number a group file's name carries, or None if it is not one."""
    if len(name) >= 11 and name[0] == "g" and name.endswith(".tbj") and name[1:-4].isdigit():
        return int(name[1:-4])
    return None


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
    ([number, header, events, extras]) when the next one begins; close() returns the last one.

    When damage has eaten a match header, the events that follow cannot be the finished
    match's before it: they are kept as match (number before + 1), header {} and
    header_lost True. Numbers are consecutive within a file, so that is its number. When
    the damage took the result before too, the events run on into the match before; a
    number missing before the next header (or before upto, the file's last number, at
    close) says so, and the match is split again where the damage was (_split). Then
    feed() and close() return the first part, more() each of the others."""

    def __init__(self, first=None, upto=None):
        self.cur = None
        self.first = first  # the file's first match number (its GROUP record says)
        self.upto = upto  # the file's last match number, when the reader knows it
        self._cuts = []  # (event index, offset, bytes) of the damage inside the open match
        self._gone = False  # damage after its result: a whole match may have gone there
        self._more = []  # parts of a split match not handed out yet
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
        self.found = None  # the match Reader._fold_file was asked for

    def feed(self, off, end, t, v):
        self.end = end
        if t == R.DAMAGE or t == R.GAP:
            (self.damage if t == R.DAMAGE else self.gaps).append((off, end - off) if t == R.DAMAGE else v)
            self._hurt = True
            c = self.cur
            if c is not None:
                c[EXTRAS]["damaged"] += 1
                if c[EXTRAS]["result"] is None:
                    self._cuts.append((len(c[EVENTS]), off, end - off if t == R.DAMAGE else v[1]))
                else:
                    self._gone = True
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
            if done is not None and done[EXTRAS]["header_lost"] and done[NUMBER] == n:
                done = None  # a guess the real header proves wrong: its records were strays
                self.stray += 1
            if done is not None and n > done[NUMBER] + 1:
                done = self._split(done, n - 1 - done[NUMBER])
            self._cuts = []
            self._gone = False
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
        if self._hurt and t in (R.EVENT, R.RESULT) and (c is None or c[EXTRAS]["result"] is not None):
            done = c
            n = c[NUMBER] + 1 if c is not None else (self.first or 0)
            c = self.cur = [n, {}, [], _extras(off, end)]
            c[EXTRAS]["header_lost"] = True
            c[EXTRAS]["damaged"] = 1
            self._hurt = False
            self._cuts = []
            self._gone = False
            if n > self.last:
                self.last = n
        if t == R.FACE:
            self.face = (v, c[NUMBER] if c else 0, False)
        if c is None:
            if t != R.FACE:
                self.stray += 1
            return done
        x = c[EXTRAS]
        x["end"] = end
        if t == R.EVENT:
            if x["result"] is None:
                c[EVENTS].append(v)
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
        self._more = []
        if done is not None and self.upto is not None and self.upto > done[NUMBER]:
            done = self._split(done, self.upto - done[NUMBER])
        return done

    def more(self):
        """The next part of a match split by feed() or close(), or None."""
        return self._more.pop(0) if self._more else None

    def _split(self, m, lost):
        """Match m ran on over damage into the next `lost` matches, whose headers went
        with m's result (less one when damage came after m's result: a match lost whole
        there): cut its events where the longest damaged stretches with events
        after them were (a header and a result are tens of bytes, an arrow 3). m keeps
        the events before the first cut, its result lost; each part after is a match of
        its own, header lost; the result read belongs to the last. Returns m."""
        if self._gone:  # damage after m's result took a whole match: one number is that one
            lost -= 1
        ev = m[EVENTS]
        cuts = [c for c in self._cuts if c[0] < len(ev)]
        if not cuts or lost < 1:
            return m
        cuts = sorted(sorted(cuts, key=lambda c: (c[2], c[0]))[-lost:])
        x = m[EXTRAS]
        self._more = []
        ends = [c[1] for c in cuts[1:]] + [x["end"]]
        for k in range(len(cuts)):
            i, off, _ = cuts[k]
            j = cuts[k + 1][0] if k + 1 < len(cuts) else len(ev)
            p = [m[NUMBER] + k + 1, {}, ev[i:j], _extras(off, ends[k])]
            p[EXTRAS]["header_lost"] = True
            p[EXTRAS]["damaged"] = 1 + self._inside(cuts, off, ends[k])
            self._more.append(p)
        last = self._more[-1][EXTRAS]
        last["result"], last["confirmed"] = x["result"], x["confirmed"]
        x["result"], x["confirmed"], x["end"] = None, [False, False], cuts[0][1]
        x["damaged"] = 1 + self._inside(cuts, x["offset"], x["end"])
        m[EVENTS] = ev[: cuts[0][0]]
        self.last = max(self.last, self._more[-1][NUMBER])
        return m

    def _inside(self, cuts, a, b):
        """Damaged stretches between offsets a and b that are not where a match was cut."""
        return len([c for c in self._cuts if a < c[1] < b and c not in cuts])


class Reader:
    """A journal directory, read. recover() reads its state (every other call does it
    first if not done): journal.ack and the newest group file, where the open match is;
    older group files are read when asked for."""

    def __init__(self, root):
        self.root = root[:-1] if len(root) > 1 and root.endswith("/") else root
        self._ready = False
        self._reset()

    def _reset(self):
        self._groups = []  # first match number of each group file, oldest first
        self._next = 1  # number of the next match
        self._open = None  # type: list | None  # [number, header, events] of the match in progress
        self._last = None  # [number, result, confirmed] of the newest finished match
        self._face = None
        self._floor = 0  # every match <= floor is acknowledged ...
        self._ranges = []  # ... and so is every [a, b] (inclusive) in here
        # (first, [(number, offset)]) of the group read last
        self._index = None  # type: tuple[int, list[tuple[int, int]]] | None

    def _path(self, name):
        return self.root + "/" + name if self.root != "/" else "/" + name

    def _file(self, name):
        """Journal file name, open to read (box/journal.py's on FAT may be a stretch of a file)."""
        return open(self._path(name), "rb")

    def _fsize(self, name):
        try:
            return os.stat(self._path(name))[6]
        except OSError:
            return -1

    def _ensure(self):
        if not self._ready:
            self.recover()

    # --- the state ------------------------------------------------------------------------
    def recover(self):
        """Read the journal's state; returns a report dict (see box/journal.py's recover:
        here nothing is removed, set aside or freed)."""
        rep = self._begin()
        self._find_groups(os.listdir(self.root))
        self._load_ack(rep)
        if self._groups:
            name = group_name(self._groups[-1])
            fold = self._fold_file(name)
            _damage(rep, name, fold.damage)
            self._load_newest(fold, name, rep)
        return self._end(rep)

    def _begin(self):
        self._reset()
        return {
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

    def _end(self, rep):
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

    def _find_groups(self, names):
        groups = []
        for nm in names:
            first = group_first(nm)
            if first is not None:
                groups.append(first)
        groups.sort()
        self._groups = groups

    def _load_newest(self, fold, name, rep):
        """The state the newest group's fold leaves: the open match, the newest finished
        one, the face, the next number."""
        self._face = fold.face
        m = fold.close()
        p = fold.more()
        while p is not None:  # the match was split: its last part is the newest
            m, p = p, fold.more()
        if fold.last >= self._next:
            self._next = fold.last + 1
        if m is not None:
            n, h, events, x = m
            if x["header_lost"]:
                rep["notes"].append("match %d lost its header: its %d events are kept, not resumed" % (n, len(events)))
            elif x["result"] is None:
                self._open = [n, h, events]
                if x["damaged"]:
                    rep["notes"].append("match %d: %d damaged stretch(es): check its arrows" % (n, x["damaged"]))
            else:
                self._last = [n, x["result"], x["confirmed"]]
        if fold.stray:
            rep["notes"].append("%s: %d record(s) outside any match" % (name, fold.stray))
        self._next = max(self._next, self._groups[-1])
        return m

    def _fold_file(self, name, start=0, want=None):
        """Fold a group file (from offset start); with want, stop after match want."""
        first = group_first(name)
        fold = Fold(first, self._upto(first))
        found = None
        with self._file(name) as f:
            if start:
                f.seek(start)
            for off, end, t, v in R.scan(f.read, start):
                m = fold.feed(off, end, t, v)
                if want is not None:
                    found = _pick(fold, m, want)
                    if found is not None:
                        break
        if want is not None:
            if found is None:
                found = _pick(fold, fold.close(), want)
            fold.found = found
        return fold

    def _stop(self, i):
        """One past the last match number group i (of _groups) holds: the next group's first,
        or the next match."""
        g = self._groups
        return g[i + 1] if i + 1 < len(g) else self._next

    def _upto(self, first):
        """The last match number the group file that begins with first holds, as far as
        the journal knows (the next group's first, or the next match, says): None if not."""
        g = self._groups
        for i in range(len(g)):
            if g[i] == first:
                last = self._stop(i) - 1
                return last if last >= first else None
        return None

    def _load_ack(self, rep):
        """Read journal.ack; True when it is there but unreadable (nothing counts as
        acknowledged then, and the report says so)."""
        try:
            with self._file(ACK_FILE) as f:
                state = None
                bad = 0
                for _, _, t, v in R.scan(f.read):
                    if t == R.ACK and isinstance(v, dict):
                        state = v
                    elif t == R.DAMAGE:
                        bad += 1
        except OSError:
            return False  # no acknowledgement yet
        if state is None or bad:
            rep["notes"].append("%s unreadable: nothing counts as acknowledged" % ACK_FILE)
            rep["damage"].append({"file": ACK_FILE, "offset": 0, "bytes": self._fsize(ACK_FILE)})
        if state is not None:
            try:
                self._floor = int(state.get("floor", 0))
                self._ranges = [[int(a), int(b)] for a, b in state.get("acked", [])]
                self._next = max(self._next, int(state.get("next", 1)))
            except (TypeError, ValueError):
                self._floor, self._ranges = 0, []
        return state is None or bad > 0

    def _count(self):
        g = self._groups
        total = 0
        for i in range(len(g)):
            total += self._stop(i) - g[i]
        return total

    # --- reading --------------------------------------------------------------------------
    def acked(self, n):
        """True when the host has acknowledged match n."""
        if n <= self._floor:
            return True
        for a, b in self._ranges:
            if a <= n <= b:
                return True
        return False

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
        return list(self.numbers(after))

    def numbers(self, after=0):
        """The numbers list_matches() gives, one at a time (the sync link's LIST: no list
        of every match on a box that holds thousands)."""
        self._ensure()
        g = self._groups
        opened = self._open[0] if self._open else None
        for i in range(len(g)):
            for n in range(max(g[i], after + 1), self._stop(i)):
                if n != opened:
                    yield n

    def _group_of(self, n):
        g = self._groups
        for i in range(len(g) - 1, -1, -1):
            if g[i] <= n:
                if n < self._stop(i):
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
        o = self._open
        x["open"] = o is not None and o[0] == n
        x["acked"] = self.acked(n)
        x["group"] = name
        return h, events, x

    def iter_matches(self, after=0):
        """Every kept match > after, oldest first, as (number, header, events, extras),
        reading each group file once (what a full sync wants)."""
        self._ensure()
        g = list(self._groups)
        for i in range(len(g)):
            if i + 1 < len(g) and self._stop(i) - 1 <= after:
                continue
            name = group_name(g[i])
            fold = Fold(g[i], self._upto(g[i]))
            with self._file(name) as f:
                for off, end, t, v in R.scan(f.read):
                    m = fold.feed(off, end, t, v)
                    while m is not None:
                        if m[NUMBER] > after:
                            yield (m[NUMBER],) + self._out(m, name)
                        m = fold.more()
            m = fold.close()
            while m is not None:
                if m[NUMBER] > after and not (self._open and self._open[0] == m[NUMBER]):
                    yield (m[NUMBER],) + self._out(m, name)
                m = fold.more()

    def verify(self):
        """Read every group file: {groups, matches, damage: [{file, offset, bytes}]}.
        Changes nothing."""
        self._ensure()
        rep = {"groups": len(self._groups), "matches": 0, "damage": []}  # type: dict
        for first in self._groups:
            name = group_name(first)
            fold = self._fold_file(name)
            fold.close()
            rep["matches"] += len(fold.index)
            _damage(rep, name, fold.damage)
            for off, n in fold.gaps:
                rep["damage"].append({"file": name, "offset": off, "bytes": n, "set_aside": True})
        return rep


def _pick(fold, m, want):
    """Match want among m and the parts of it the fold holds back, or None."""
    while m is not None and m[NUMBER] != want:
        m = fold.more()
    return m


def _damage(rep, name, stretches):
    for off, n in stretches:
        rep["damage"].append({"file": name, "offset": off, "bytes": n})
