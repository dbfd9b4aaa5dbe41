"""Acknowledgements: the PC holds these matches, so their space may be freed (docs/journal.md).

Only the sync link acknowledges and lists (box/link.py, loaded on the PC's first byte): this
module is loaded by its first LIST or ACK (or Journal.ack()) and is never in a match's heap
on the range. journal.ack is read at boot by the shared reader (scorebox_core/journal.py),
and the writer deletes the group files whose matches are all acknowledged when a new match
needs their room (box/journal.py): until then forget() can still undo the acknowledgements.

Numbers are handled as runs [first, last]: a sync of 1,000 matches is one run, not 1,000
numbers to check and merge.
"""

import os

from scorebox_core import frames
from scorebox_core import records as R
from scorebox_core.journal import ACK_FILE


def ack(j, numbers):
    """Journal j's matches numbers (a number or a list of numbers) are held by the PC:
    record it in journal.ack; group files all acknowledged now are deleted only if the
    room is needed already. Returns the names of the group files deleted."""
    j._ensure()
    numbers = [numbers] if isinstance(numbers, int) else list(numbers)
    for n in numbers:
        if not isinstance(n, int) or not 1 <= n < j._next:
            raise ValueError("no match %r to acknowledge" % (n,))
        if j._open and n == j._open[0]:
            raise ValueError("match %d is still open" % n)
    add(j, frames.runs(numbers))
    rep = {"freed": []}  # type: dict[str, list[str]]
    j._free_acked(rep)
    return rep["freed"]


def add(j, new):
    """Record the runs new ([first, last], checked by the caller) as acknowledged and save
    journal.ack (one file written, whatever the count)."""
    j._ensure()
    rs = j._ranges + new
    rs.sort()
    merged = []  # type: list[list[int]]
    floor = j._floor
    for a, b in rs:
        if a <= floor + 1:
            floor = max(floor, b)
        elif merged and a <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    j._floor, j._ranges = floor, merged
    save(j)


def unacked(j, lo, hi):
    """The runs of the numbers lo..hi the PC has not acknowledged, oldest first."""
    j._ensure()
    out = []
    lo = max(lo, j._floor + 1)
    for a, b in j._ranges:  # sorted, apart
        if lo > hi:
            break
        if a > lo:
            out.append([lo, min(a - 1, hi)])
        lo = max(lo, b + 1)
    if lo <= hi:
        out.append([lo, hi])
    return out


def listed(j, lo, hi, every=False):
    """The runs of lo..hi that LIST gives: matches kept on the box, finished and confirmed
    by both sides (the unconfirmed one waits for its confirmations), not acknowledged; with
    every, acknowledged or not (LIST's "all": another store copies what the box holds)."""
    j._ensure()
    if not j._groups:
        return []
    lo, hi = max(lo, j._groups[0]), min(hi, j._next - 1)
    out = ([[lo, hi]] if lo <= hi else []) if every else unacked(j, lo, hi)
    u = j.unconfirmed()
    for skip in (j._open[0] if j._open else None, u[0] if u else None):
        if skip is None:
            continue
        for i in range(len(out)):
            a, b = out[i]
            if a <= skip <= b:
                out[i : i + 1] = [r for r in ([a, skip - 1], [skip + 1, b]) if r[0] <= r[1]]
                break
    return out


def refused(j, a, b):
    """The first number of a..b the PC may not acknowledge (one LIST does not give, or gave
    and that is not acknowledged since), or None: an ACK sent again is taken again."""
    if a < 1:
        return a
    ok = listed(j, a, b)
    for x, y in unacked(j, a, b):
        n = x
        for p, q in ok:
            if p <= n <= q:
                n = q + 1
        if n <= y:
            return n
    return None


def forget(j):
    """Another store takes the box over (box/link.py): the matches still on the box count
    as not acknowledged, so that its sync copies them all."""
    j._ensure()
    j._floor = (j._groups[0] if j._groups else j._next) - 1  # the freed ones are gone
    j._ranges = []
    save(j)


def save(j):
    """Replace journal.ack: written to journal.ack.tmp, then renamed over it; on FAT with a
    ring (box/fat/ring.py) written after the others in place, no file made or renamed."""
    state = {"floor": j._floor, "acked": j._ranges, "next": j._next}
    if j._slots is not None:
        from box.fat import ring

        ring.save_ack(j, R.value_record(R.ACK, state))
        return
    tmp = j._path(ACK_FILE + ".tmp")
    with open(tmp, "wb") as f:
        f.write(R.value_record(R.ACK, state))
        f.flush()
    os.rename(tmp, j._path(ACK_FILE))
