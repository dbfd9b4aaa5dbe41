"""Acknowledgements: the PC holds these matches, so their space may be freed (docs/journal.md).

Only the sync link acknowledges (box/link.py, loaded on the PC's first byte): this module
is loaded by the first Journal.ack() and is never in a match's heap on the range.
journal.ack is read at boot by the shared reader (scorebox_core/journal.py), and the
writer deletes the group files whose matches are all acknowledged when a new match needs
their room (box/journal.py): until then forget() can still undo the acknowledgements.
"""

import os

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
    runs = []  # type: list[list[int]]  # the numbers as ranges first: one small list per run, not per number
    for n in sorted(numbers):
        if runs and n <= runs[-1][1] + 1:
            runs[-1][1] = n  # sorted: never below the run's end
        else:
            runs.append([n, n])
    rs = j._ranges + runs
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
    rep = {"freed": []}  # type: dict[str, list[str]]
    j._free_acked(rep)
    return rep["freed"]


def forget(j):
    """Another store takes the box over (box/link.py): the matches still on the box count
    as not acknowledged, so that its sync copies them all (issue 13, item 20)."""
    j._ensure()
    j._floor = (j._groups[0] if j._groups else j._next) - 1  # the freed ones are gone
    j._ranges = []
    save(j)


def save(j):
    """Replace journal.ack: written to journal.ack.tmp, then renamed over it."""
    state = {"floor": j._floor, "acked": j._ranges, "next": j._next}
    tmp = j._path(ACK_FILE + ".tmp")
    with open(tmp, "wb") as f:
        f.write(R.value_record(R.ACK, state))
        f.flush()
    os.rename(tmp, j._path(ACK_FILE))
