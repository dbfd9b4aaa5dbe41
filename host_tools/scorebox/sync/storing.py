"""A sync's storing: each journal file decoded and its matches replayed (prepare, in the
worker process), stored several files to a transaction (store_batch), then acknowledged
(Acker), only once the store holds them; the box's quarantine file (quarantined)."""

import contextlib

from scorebox.store.checks import KEPT_EXTRAS, check, match_digest
from scorebox.store.errors import StoreError
from scorebox.sync import workers
from scorebox.sync.decode import decode_file
from scorebox.sync.plan import group_of, held_digests
from scorebox.sync.protocol import prefetch
from scorebox_core import frames, games, records


def prepare(first, name, data, wanted, held=(), upto=None, base=0):
    """What a sync does with one journal file before the store: decode it (upto: the
    last match number it holds, from file_ends) and replay each wanted match; hash each
    match the store already holds (held), to be compared with the store's copy before it
    is acknowledged. Returns (checked matches, numbered base + the box's number as the
    store keeps them (journal_run), damaged ones as (number, why, quarantine piece),
    quarantine pieces of unreadable stretches, {held number: match_digest}).
    Pure, for a worker process."""
    decoded = decode_file(data, first, upto)
    damage = [(name, off, data[off : off + n]) for off, n in decoded["damage"]]
    checked, broken, digests = [], [], {}
    for n, header, log, extras in decoded["matches"]:
        if n not in wanted and n not in held:
            continue
        a, b = extras["offset"], extras["end"]
        lost = [r for r, gone in (("header", extras.get("header_lost")), ("result", extras["result"] is None)) if gone]
        if n in held:
            if not lost:
                digests[n] = match_digest(header, log)
                continue
            why = "its %s record is damaged" % " and ".join(lost)
        else:
            # A lost result is redundant (the events replay to it); a lost header falls back
            # to the rules' defaults and names that say so. Either way the match is stored,
            # flagged, its arrows usable.
            kept = {k: extras[k] for k in KEPT_EXTRAS if k in extras}
            if lost:
                kept["lost"] = lost
            c = check(base + n, lost_header(extras["result"]) if "header" in lost else header, log, kept, from_box=True)
            if not isinstance(c, StoreError):
                checked.append(c)
                continue
            why = str(c)
        broken.append((n, why, (name, a, data[a:b])))
    # A listed match the file does not hold whole (its header went with the previous
    # match's result and no damaged stretch says where its arrows began): the whole file
    # is kept, so that it can be acknowledged and the box frees the file (else listed for
    # ever).
    seen = {m[0] for m in decoded["matches"]}
    for n in sorted((set(wanted) | set(held)) - seen):
        broken.append((n, "not found whole in its journal file: the file's bytes are kept", (name, 0, data)))
    return checked, broken, damage, digests


def lost_header(result):
    """The header a match lost to damage is stored with: its game's defaults, its sides named
    by their letters and '?' (A? and B?, X? and O?: report/show.py UNNAMED). Its game is the
    one whose result record the box kept (the first game whose SCORE key it holds, Tic Tac
    BOW's wins or Try-Tac-Toe's score), so that its moves are never replayed with another
    game's rules; the registry's first without one."""
    every = games.every()
    g = next((g for g in every if isinstance(result, dict) and g.SCORE in result), every[0])
    h = {"options": {}, "archers": [[g.SIDES[0] + "?"], [g.SIDES[1] + "?"]]}
    if g is not every[0]:
        h["game"] = g.ID  # the first game's headers never say theirs (match.header)
    return h


BATCH = 250  # matches per store transaction, at most


def store_batch(store, uid, batch, s, bar, base=0):
    """Store prepared files in one transaction; empties batch and returns the box's
    numbers of the matches the store now holds, for acknowledging (base: journal_run's).
    A match the store cannot take whole keeps its bytes in the quarantine table, so that
    acknowledging it (the box needs the space back) loses nothing. Unreadable stretches
    go to quarantine in the same transaction: once acknowledged, the box may delete the
    file."""
    checked = [c for job in batch for c in job[0]]
    broken = [b for job in batch for b in job[1]]
    pieces = [p for job in batch for p in job[2]]
    digests = {n: d for job in batch for n, d in job[3].items()}
    del batch[:]
    done = same_as_held(store, uid, digests, s, base)
    if not checked and not broken and not pieces:
        return done
    results, added = store.add_checked(uid, checked, pieces, [piece for _, _, piece in broken])
    s.quarantined += added
    done += [n for n, _, _ in broken]
    for c, r in zip(checked, results):
        if r is True:
            s.add_new(c.number - base, c.extras, c.log_len)
        done.append(c.number - base)
    for n, why, (_, _, data) in broken:
        s.damaged.append((n, why, len(data)))
    bar.show(len(s.new) + len(s.damaged))
    return done


def same_as_held(store, uid, digests, s, base=0):
    """The numbers of digests ({number: match_digest of the box's copy}) whose copy in the
    store is the same match: only these may be acknowledged. Another match under the same
    number (an imported fake, a hand-edited store) is kept in the store, left on the box
    and told in s.differ. (A journal wiped by hand, its numbers started again at 1, is
    told by journal_run before: its matches are a new run of the box's.)"""
    mine = held_digests(store, uid, base, list(digests))
    same = []
    for n in sorted(digests):
        if mine.get(n) == digests[n]:
            same.append(n)
        else:
            s.differ.append((n, "the store holds a different match %d from this box: both kept" % n))
    return same


class Acker:
    """The stored matches to acknowledge (the box may then free their space): an ACK per run
    of their numbers (one, as a rule: the box writes its ack file once), sent with the
    sync's last requests (finish). What is not acknowledged, the next sync acknowledges
    (the store holds it)."""

    def __init__(self, s, owner=None):
        """owner: what each ACK says of the store ({"store": id, ...}); None: acknowledge nothing."""
        self.s, self.owner = s, owner
        self.numbers = []
        self.given = set()  # every number to acknowledge

    def add(self, numbers):
        self.given.update(numbers)
        self.numbers += numbers

    def requests(self):
        """The ACK of each run of what is left to acknowledge, to be sent (finish()) with the
        sync's last requests; counted as sent by sent_runs()."""
        if self.owner is None:
            return []
        return [("ACK", dict(self.owner, first=a, last=b)) for a, b in frames.runs(self.numbers)]

    def sent_runs(self, acks):
        """The ACKs of requests() were answered."""
        self.s.acked += sum(body["last"] - body["first"] + 1 for _, body in acks)
        self.numbers = []


def box_digests(p, read):
    """box_digest(n) for journal_run: the match_digest of the box's copy of match n (None:
    not found whole), its group file (of the Plan p) read by read(name, size), the last
    one kept (journal_run asks for the held numbers in order)."""
    last = {}

    def box_digest(n):
        first = group_of(n, p.firsts)
        if first is None:
            return None
        name, size = p.groups[first]
        if first not in last:
            last.clear()
            last[first] = read(name, size)
        return prepare(first, name, last[first], (), {n}, p.ends[first])[3].get(n)

    return box_digest


def store_files(client, store, uid, p, s, acks, bar):
    """Read the Plan p's files from the box (prefetch, a thread ahead), prepare them in the
    worker, store them (store_batch, several to a transaction as soon as the worker would
    otherwise wait) and give acks the numbers the store now holds."""
    # The PC side makes many objects and no cycles among them: collecting is wasted time.
    # The worker process is forked before any thread starts (workers.executor).
    todo = p.todo()
    with workers.gc_paused(), workers.executor(len(todo)) as pool:
        submitted = []  # in file order, as they will be done (one worker)

        def submit(first, name, data):
            # held: stored by an earlier sync whose acknowledgement never reached the box (or
            # another match by that number): acknowledged only when the same match
            wanted, again = p.wanted.get(first, ()), p.again.get(first, ())
            submitted.append(pool.submit(prepare, first, name, data, wanted, again, p.ends[first], p.base))
            return submitted[-1]

        batch = []  # prepared files not yet stored: one transaction for several
        with contextlib.closing(prefetch(client, todo, submit, store.compile_writes)) as jobs:
            for i, job in enumerate(jobs):
                batch.append(job.result())
                submitted[i] = None  # its rows are in batch now
                ready = i + 1 < len(submitted) and submitted[i + 1].done()
                if not ready or sum(len(job[0]) + len(job[1]) for job in batch) >= BATCH:
                    acks.add(store_batch(store, uid, batch, s, bar, p.base))  # store while the worker works
        acks.add(store_batch(store, uid, batch, s, bar, p.base))


def quarantined(data):
    """(file, offset, bytes) pieces of a quarantine file's records."""
    out = []
    for _, _, rtype, value in records.scan_bytes(data):
        if rtype == records.QUARANTINE:
            off, name, raw = value
            out.append((name, off, raw))
    return out
