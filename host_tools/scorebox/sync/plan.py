"""A sync's plan of the box's journal: which group file holds which match
(file_ends, group_of), which of the listed matches are new and which the store holds
already (to be compared before they are acknowledged), and the run of the box's journal
they are stored in (journal_run: a journal wiped by hand starts a new one)."""

# A box's journal wiped by hand (its files deleted, device.id kept) numbers its matches
# from 1 again, under numbers the store holds other matches by. The
# store keeps such a journal as another run of the box: its match n as base + n, base a
# multiple of RUN (0 for the box's first journal), so that nothing needs a new column and
# every report still sees one box, its runs in order. A box numbers its matches one by one
# for ever: a million is some 50 years of a club's matches.
RUN = 1000000


def held_digests(store, uid, base, numbers):
    """{box's number: match_digest} of the numbers the store holds in the run from base."""
    return {k - base: d for k, d in store.digests(uid, [base + n for n in numbers]).items()}


def journal_run(store, uid, numbers, oldest, box_digest, s):
    """(base, {number: the store's match_digest}) of the box's listed numbers: base + a
    box's number is the store's number for it (RUN, set in s.base). The run is the newest
    one the store has of the box, unless, some listed number being held, neither the box's
    oldest match (oldest: the first of its oldest journal file, acknowledged or not) nor
    any listed one the store holds is the same match on the box (box_digest(n): the box's
    copy's match_digest, None when it cannot be read whole; read in order until one is the
    same): then the box's journal was started again and its matches begin a new run, which
    s.restarted tells. One that differs among the same matches (an imported fake) is not a
    restart: same_as_held tells it."""
    last = store.last_number(uid)
    base = last // RUN * RUN
    held = held_digests(store, uid, base, numbers)
    ref = held_digests(store, uid, base, [oldest]) if held and oldest is not None else {}
    ref.update(held)
    differ = None  # the first number whose box copy is another match
    for n in sorted(ref, key=lambda k: (k != oldest, k)):
        mine = box_digest(n)
        if mine == ref[n]:
            differ = None
            break
        if mine is not None and differ is None:
            differ = n
    if differ is not None:
        base += RUN
        s.restarted = (differ, base)
        held = {}
    s.base = base
    return base, held


def file_ends(firsts, numbers):
    """{first: the last match number its group file holds}: one before the next file's
    first, and for the newest file the highest number listed in it (None: none is)."""
    ends = {}
    for i, f in enumerate(firsts):
        if i + 1 < len(firsts):
            ends[f] = firsts[i + 1] - 1
        else:
            ends[f] = max((n for n in numbers if n >= f), default=None)
    return ends


def group_of(n, firsts):
    """The first match number of the group file that holds match n."""
    best = None
    for f in firsts:
        if f <= n:
            best = f
    return best


class Plan:
    """What a sync does with the matches a box listed (numbers) and its journal files
    (files: [name, size]): groups {first match number: (name, size)} of its group files,
    firsts, ends (file_ends); once settled (settle()), base and held (journal_run), new,
    and the files to read with the matches each holds, new (wanted) or held (again)."""

    def __init__(self, files, numbers):
        self.numbers = numbers
        self.groups = {int(name[1:7]): (name, size) for name, size in files if name.startswith("g")}
        self.firsts = sorted(self.groups)
        self.ends = file_ends(self.firsts, numbers)
        self.base, self.held, self.new = 0, set(), set(numbers)
        self.wanted, self.again = {}, {}

    def settle(self, store, uid, box_digest, s):
        """The run the box's matches are stored in, and which are new (journal_run)."""
        oldest = self.firsts[0] if self.firsts else None
        self.base, held = journal_run(store, uid, self.numbers, oldest, box_digest, s)
        self.held = set(held)
        self.new = set(self.numbers) - self.held
        self.wanted = self._by_file(self.new)  # first match number of a group file -> its new matches
        self.again = self._by_file(self.held)  # ... -> those the store holds: compared before acknowledged

    def _by_file(self, numbers):
        out = {}
        for n in numbers:
            out.setdefault(group_of(n, self.firsts), set()).add(n)
        out.pop(None, None)
        return out

    def todo(self):
        """(first, name, size) of each group file to read, in order."""
        return [(f,) + self.groups[f] for f in sorted(set(self.wanted) | set(self.again))]
