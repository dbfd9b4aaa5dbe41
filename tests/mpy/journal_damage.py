"""Damaged journals on LittleFS2 (run by tests/both/test_journal_damage.py).

    micropython -X heapsize=32M tests/mpy/journal_damage.py MODE TRIALS SEED

A journal of 30 matches in several group files, the last match open, is damaged TRIALS
times (each time from the same copy of the flash), then recovered and read whole:

- flip:     one random bit of one group file flipped (what a worn flash cell does);
- garbage:  1-64 random bytes overwritten in one group file;
- truncate: the newest group file cut at one of its last 40 bytes (a torn write on a
            file system less careful than LittleFS): a record cut in two must be reported
            and set aside, the open match kept up to the last whole record;
- seam:     random bytes over one finished match's result, confirmations and the next
            match's header: the two matches' arrows must still be told apart (the number
            missing before the next header says where; issue 13, item 6).

Every trial must: raise nothing; report the damage (recover() for the newest file,
verify() for the others); read every other match exactly as written; flag a match it
cannot read exactly (damaged/stray) or leave it out; set the bad bytes aside in the
quarantine file; and take new records afterwards. Prints `RESULT {json}`.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import os
import sys

import jt

from box.journal import Journal
from scorebox_core import records as R
from scorebox_core.journal import QUARANTINE_FILE, JournalError

MODE = sys.argv[1]
TRIALS = int(sys.argv[2])
SEED = int(sys.argv[3])
GROUP_BYTES = 2048


def build():
    j = Journal(jt.ROOT, group_bytes=GROUP_BYTES)
    j.recover()
    for i in range(30):
        h, evs, res = jt.typical(500 + i)
        if i == 29:  # the last one left open
            j.start_match(h)
            for ev in evs[:12]:
                j.append(ev)
            break
        jt.write(j, h, evs, res)
    j.close()
    want = {}
    for n, h, evs, x in j.iter_matches():
        want[n] = jt.canon([h, evs, x["result"], x["confirmed"]])
        WANT_EVENTS[n] = jt.canon(evs)
    o = j.open_match()
    return want, jt.canon(o)


WANT_EVENTS = {}  # match number -> its events as written


def groups():
    return sorted(n for n in os.listdir(jt.ROOT) if n.startswith("g") and n.endswith(".tbj"))


def damage(rnd, names):
    """Damage one file; returns (name, offset, what)."""
    if MODE == "truncate":
        name = names[-1]
    else:
        name = names[rnd.next() % len(names)]
    path = jt.ROOT + "/" + name
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if MODE == "flip":
        off = rnd.next() % len(data)
        data[off] ^= 1 << (rnd.next() % 8)
    elif MODE == "seam":  # a result .. the next header (not the open match's: see docs/journal.md)
        recs = [(o, e, t, v) for o, e, t, v in R.scan_bytes(bytes(data))]
        seams = []
        for i in range(len(recs)):
            if recs[i][2] == R.MATCH and recs[i][3][0] < 30:
                res = [r for r in recs[:i] if r[2] == R.RESULT]
                if res:
                    seams.append((res[-1][0], recs[i][1]))
        if not seams:
            return damage(rnd, names)
        a, b = seams[rnd.next() % len(seams)]
        off = a + rnd.next() % 4
        for i in range(off, b - rnd.next() % 4):
            data[i] = rnd.next() & 0xFF
    elif MODE == "garbage":
        off = rnd.next() % len(data)
        n = 1 + rnd.next() % 64
        for i in range(off, min(len(data), off + n)):
            data[i] = rnd.next() & 0xFF
    else:
        off = len(data) - 1 - rnd.next() % 40
        ends = []
        for _, end, t, v in R.scan_bytes(bytes(data)):
            if end <= off:
                ends.append((end, t, v[0] if t == R.MATCH else None))
        data = data[:off]
    with open(path, "wb") as f:  # the test damages the file; the journal never writes so
        f.write(data)
    if MODE == "truncate":
        return name, off, ends
    return name, off, None


def quarantined():
    """Bytes kept in the quarantine file."""
    try:
        with open(jt.ROOT + "/" + QUARANTINE_FILE, "rb") as f:
            n = 0
            for _, _, t, v in R.scan(f.read):
                if t == R.QUARANTINE:
                    n += len(v[2])
            return n
    except OSError:
        return 0


def trial(rnd, snap, dev, want, want_open):
    dev.data[:] = snap
    jt.mount(dev)
    out = {}
    try:
        names = groups()
        name, off, ends = damage(rnd, names)
        out["file"] = name
        out["offset"] = off
        if ends is not None:  # truncated: was the cut between two records, and how many
            out["boundary"] = bool(ends) and ends[-1][0] == off  # events of the open match
            k = -1  # did it keep (-1: its header was cut)?
            for _end, t, n in ends:
                if t == R.MATCH:
                    k = 0 if n == 30 else -1
                elif t == R.EVENT and k >= 0:
                    k += 1
            out["kept_events"] = k
        newest = name == names[-1]
        j = Journal(jt.ROOT, group_bytes=GROUP_BYTES)
        rep = j.recover()
        ver = j.verify()
        out["reported"] = len(rep["damage"]) + len(ver["damage"])
        out["quarantined"] = rep["quarantined"]
        out["in_quarantine"] = quarantined()
        out["newest"] = newest
        differ = []
        flagged = []
        seen = []
        out["events_differ"] = events_differ = []
        for n, h, evs, x in j.iter_matches():
            seen.append(n)
            if jt.canon(evs) != WANT_EVENTS.get(n):
                events_differ.append(n)
            same = want.get(n) == jt.canon([h, evs, x["result"], x["confirmed"]])
            if not same:
                differ.append(n)
            if x["damaged"] or x["stray"]:
                flagged.append(n)
        for n in j.list_matches():  # read_match must not crash either
            try:
                j.read_match(n)
            except JournalError:
                pass
        o = j.open_match()
        out["open_events"] = len(o[2]) if o else -1
        open_same = jt.canon(o) == want_open
        if not open_same and o is not None:
            differ.append(o[0])
            if rep["notes"] or rep["damage"]:
                flagged.append(o[0])
        out["differ"] = differ
        out["flagged"] = flagged
        out["missing"] = [n for n in want if n not in seen]
        out["open_same"] = open_same
        # the journal goes on after the damage
        if o is None:
            if j.unconfirmed():
                j.confirm(0)
                j.confirm(1)
            j.start_match(jt.header(1))
            o = j.open_match()
        j.append(4)
        j2 = Journal(jt.ROOT, group_bytes=GROUP_BYTES)
        rep2 = j2.recover()
        out["continued"] = j2.open_match()[2] == o[2] + [4]
        out["after_damage"] = len(rep2["damage"])
    except Exception as e:
        out["error"] = repr(e)
    jt.umount()
    return out


def main():
    dev = jt.fresh()
    want, want_open = build()
    jt.umount()
    snap = dev.snapshot()
    rnd = jt.Lcg(SEED)
    trials = [trial(rnd, snap, dev, want, want_open) for _ in range(TRIALS)]
    jt.emit({"matches": len(want), "trials": trials})


main()
