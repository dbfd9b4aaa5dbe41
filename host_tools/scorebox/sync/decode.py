"""A journal file's bytes into matches, on the PC.

The box's own Fold (scorebox_core/journal.py) makes matches of the records, so box and PC read a
file alike. decode_records() feeds it record by record, as the box reads; decode_file()
gives the same answer faster (a property test holds the two equal on clean, damaged and
arbitrary bytes): most of a file is runs of 3-byte arrow records (docs/journal.md), and
a run is taken apart and its CRC-8s checked with a few slices and one bytes.translate,
in C, instead of a Python step per arrow.
"""

from scorebox_core import records as R
from scorebox_core.journal import EVENTS, EXTRAS, Fold

ARROW = R.ARROW_HEAD  # the head of every arrow record
HEAD = bytes([ARROW])
CRC = R.ARROW_CRC  # each arrow record's CRC-8, by its event byte
WINDOW = 256  # records looked at per slice: a run is rarely longer than a match


def arrow_run(data, pos, end):
    """How many whole, valid arrow records follow one another from data[pos]."""
    count = 0
    while True:
        m = min(WINDOW, (end - pos) // 3)
        heads = data[pos : pos + 3 * m : 3]
        k = m - len(heads.lstrip(HEAD))
        events = data[pos + 1 : pos + 3 * k : 3]
        crcs = data[pos + 2 : pos + 3 * k : 3]
        if events.translate(CRC) != crcs:  # damage inside the run: it ends there
            k = next(i for i in range(k) if CRC[events[i]] != crcs[i])
            return count + k
        count += k
        if k < WINDOW:
            return count
        pos += 3 * k


class RunFold(Fold):
    def feed_run(self, off, events):
        """feed() for consecutive arrow records from off: the first goes through feed(),
        which knows where it belongs; the rest follow it into the same match."""
        done = self.feed(off, off + 3, R.EVENT, events[0])
        end = off + 3 * len(events)
        self.end = end
        self.spans[-1][1] = end
        rest = len(events) - 1
        c = self.cur
        if c is None:
            self.stray += rest
            return done
        x = c[EXTRAS]
        x["end"] = end
        if x["result"] is None:
            c[EVENTS].extend(events[1:])
        else:
            x["stray"] += rest
        return done


def decode_records(data, first=None, upto=None):
    """A journal file's bytes (as pulled to the PC) -> dict: first (match number), matches
    (list of [number, header, events, extras]), damage ([(offset, length)]), gaps (damage
    set aside by the box: [(offset, length)]), face, stray. first: the number in the
    file's name, in case its GROUP record is damaged; upto: the last number the file
    holds, when known (a match whose header went with damage at its end is found then)."""
    fold = Fold(first, upto)
    out = []
    for off, end, t, v in R.scan_bytes(data):
        taken(fold, fold.feed(off, end, t, v), out)
    taken(fold, fold.close(), out)
    return decoded(fold, out)


def taken(fold, m, out):
    """Append m, and the parts the fold split from it, to out."""
    while m is not None:
        out.append(m)
        m = fold.more()


def decoded(fold, matches):
    """What the decoders return, once a Fold has seen a whole file."""
    return {
        "first": fold.first,
        "matches": matches,
        "damage": fold.damage,
        "gaps": fold.gaps,
        "face": fold.face,
        "stray": fold.stray,
    }


def decode_file(data, first=None, upto=None):
    """decode_records(data, first, upto), with arrow runs read in bulk."""
    data = bytes(data)
    fold = RunFold(first, upto)
    out = []
    pos, end, bad = 0, len(data), -1
    erased = True  # the stretch in bad is all 0xFF: a FAT file's pad at the start or the end is no damage

    def add(m):
        taken(fold, m, out)

    while pos < end:
        if data[pos] == ARROW:
            k = arrow_run(data, pos, end)
            if k:
                if bad >= 0 and not (erased and bad == 0 and pos - bad >= R.ERASED_PAD):
                    add(fold.feed(bad, pos, R.DAMAGE, None))
                bad = -1
                add(fold.feed_run(pos, data[pos + 1 : pos + 3 * k : 3]))
                pos += 3 * k
                continue
        r = R.parse(data, pos, end)
        if r is None:  # as records.scan: unreadable bytes into one stretch
            if bad < 0:
                bad = pos
                erased = True
            if data[pos] != 0xFF:
                erased = False
            pos += 1
            continue
        if bad >= 0 and not (erased and bad == 0 and pos - bad >= R.ERASED_PAD):
            add(fold.feed(bad, pos, R.DAMAGE, None))
        bad = -1
        add(fold.feed(pos, r[2], r[0], r[1]))
        pos = r[2]
    if bad >= 0 and not (erased and pos - bad >= R.ERASED_PAD):
        add(fold.feed(bad, pos, R.DAMAGE, None))
    add(fold.close())
    return decoded(fold, out)
