"""`scorebox sync`: bring the box's new matches into the store, then tidy the box.

Order matters for "nothing lost, nothing doubled": a match is acknowledged to the box
(which may then free its space) only after the store has committed it, and the store
refuses a second copy of (device, number). A cable pulled at any point leaves either the
match on the box, or in the store and on the box (acknowledged at the next sync).
"""

import contextlib
import queue
import re
import sys
import threading
import time

from scorebox.device import link, space
from scorebox.device.link import DeviceError
from scorebox.store import roster
from scorebox.store.checks import KEPT_EXTRAS, check, match_digest
from scorebox.store.errors import StoreError
from scorebox.sync import workers
from scorebox.sync.decode import decode_file
from scorebox.text import plural, some, told
from scorebox_core import frames, games, records
from scorebox_core.journal import QUARANTINE_FILE


class Progress:
    """A one-line progress bar on a terminal; silent elsewhere."""

    def __init__(self, total, stream=None):
        self.total = total
        self.stream = stream or sys.stderr
        self.on = total > 30 and self.stream.isatty()

    def show(self, done):
        if self.on:
            width = 30
            full = width * done // max(self.total, 1)
            self.stream.write("\r[%s%s] %d/%d matches" % ("#" * full, "." * (width - full), done, self.total))
            self.stream.flush()

    def end(self):
        if self.on:
            self.stream.write("\n")


class Summary:
    def __init__(self):
        self.device = None
        self.new = []  # (number, result text)
        self.refused = []  # (number, why): left on the box
        self.damaged = []  # (number, why, bytes): kept in the quarantine table, acknowledged
        self.differ = []  # (number, why): the store holds another match by that number: both kept, not acknowledged
        self.acked = 0
        self.quarantined = 0  # pieces of set-aside bytes imported (rescue)
        self.space = None
        self.battery_mv = None  # the box's battery (VSYS) as HELLO said it: the desk's Sync page shows it
        self.firmware = None  # the box's firmware version, as HELLO said it
        self.seconds = 0.0
        self.roster = []  # what became of the roster (push_roster)
        self.foreign = None  # the other store the box belongs to: nothing acknowledged
        self.taken_from = None  # the store the box belonged to before --take-over
        self.restarted = None  # (box's number, base): its journal started again (journal_run)
        self.base = 0  # the store numbers the box's match n base + n (journal_run)
        self.open = False  # a match is still open on the box: it comes with a later sync
        self.restart = None  # the line saying whether the box's app runs again (rescue)
        self.notes = []  # lines of what could not be checked (rescue)

    def add_new(self, number, extras, events):
        """A match newly stored, with its result as the box recorded it."""
        r = (extras or {}).get("result") or {}
        lost = (extras or {}).get("lost")
        if lost and "result" in lost:
            text = "result replayed from its events (%s)" % plural(events, "event")
        elif r.get("abandoned"):  # opened by mistake, nothing in effect: no result (docs/journal.md)
            text = "abandoned (%s)" % plural(events, "event")
        else:
            text = "%s (%s)" % (told(r), plural(events, "event"))
        if lost:
            text += ", stored as damaged: its %s record lost" % " and ".join(lost)
        elif (extras or {}).get("damaged"):
            text += ", with damaged records"
        self.new.append((number, text))

    def lines(self):
        out = ["box %s: %s stored" % (self.device, plural(len(self.new), "new match", "new matches"))]
        if self.restarted:
            n, base = self.restarted
            out.append(
                "  the box's journal was started again (its files wiped, its id kept): its match %d is not the "
                "store's match %d, so its matches are stored as its journal %d, numbered from %d on"
                % (n, n, base // RUN + 1, base + 1)
            )
        for n, text in self.new[:20]:  # `scorebox show` opens the store's number
            stored = " (stored as %d)" % (self.base + n) if self.base else ""
            out.append("  match %d%s: %s" % (n, stored, text))
        if len(self.new) > 20:
            out.append("  ... and %d more" % (len(self.new) - 20))
        for n, why in self.refused:
            out.append("  match %d NOT stored, left on the box: %s" % (n, why))
        for n, why in self.differ:
            out.append("  match %d NOT acknowledged, left on the box: %s" % (n, why))
        for n, why, size in self.damaged:
            out.append(
                "  match %d damaged (%s): its %s kept in the store's quarantine" % (n, why, plural(size, "byte"))
            )
        if self.quarantined:
            out.append(
                "%s of damaged or torn records kept in the store's quarantine" % plural(self.quarantined, "piece")
            )
        if self.open:
            out.append("a match is still open on the box: finish it (or abandon it), then sync again to store it")
        if self.foreign is not None:
            copied = len(self.new) + len(self.damaged)
            out.append(
                "%s: the box belongs to %s; `scorebox sync --take-over` makes this store its own"
                % (
                    "%s copied but NOT acknowledged" % plural(copied, "match", "matches")
                    if copied
                    else "no new match to copy, none acknowledged",
                    "another store (%s)" % self.foreign,
                )
            )
        if self.taken_from is not None:
            out.append("this store took the box over from store %s" % self.taken_from)
        out += self.roster
        if self.space:
            out.append("space on the box: %s" % space.text(self.space))
        out += self.notes
        if self.restart:
            out.append(self.restart)
        return out


# What the PC takes from a box's replies: a box is hostile input too.
MAX_MATCHES = 100000  # match numbers listed by one box (its flash holds a few thousand)
MAX_FILE = 1 << 24  # bytes of one journal file (the Pico's flash is 1.4 MB)
GROUP_FILE = re.compile(r"^g[0-9]{6}\.tbj$")  # docs/journal.md


def _bad(kind, why):
    return DeviceError("the box's reply to %s is not valid (%s): is it a Scorebox?" % (kind, why))


def _whole(v, lo, hi):
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def check_hello(h):
    """HELLO's reply, its protocol, device id, firmware and reads checked: a box whose
    protocol is not this scorebox's is one line (link.firmware), nothing asked after."""
    if not isinstance(h, dict):
        raise _bad("HELLO", "not an object")
    other = link.firmware(h)
    if other:
        raise DeviceError(other)
    uid = h.get("device")
    if not isinstance(uid, str) or not 0 < len(uid) <= 64 or not uid.isprintable():
        raise _bad("HELLO", "device id %.40r" % (uid,))
    if h.get("firmware") is not None and (not isinstance(h["firmware"], str) or len(h["firmware"]) > 64):
        raise _bad("HELLO", "firmware %.40r" % (h["firmware"],))
    if not _whole(h.get("reads"), 1, 2**31):
        raise _bad("HELLO", "reads %.20r" % (h.get("reads"),))
    return h


def check_list(got, after, listed):
    """LIST's reply: runs [first, last] each after the one before (at most MAX_RUNS, and
    MAX_MATCHES numbers in all, so that `more` ends), journal files by their names and
    sane sizes; "matches" is added: the runs' numbers."""
    if not isinstance(got, dict) or not isinstance(got.get("ranges"), list) or not isinstance(got.get("files"), list):
        raise _bad("LIST", "not an object with ranges and files")
    last, count = after, 0
    for r in got["ranges"]:
        if (
            not isinstance(r, list)
            or len(r) != 2
            or not _whole(r[0], last + 1, RUN - 1)
            or not _whole(r[1], r[0], RUN - 1)
        ):
            raise _bad("LIST", "run %.40r after %d" % (r, last))
        count += r[1] - r[0] + 1
        last = r[1]
        if len(got["ranges"]) > frames.MAX_RUNS or listed + count > MAX_MATCHES:
            raise _bad("LIST", "too many matches")
    got["matches"] = [n for a, b in got["ranges"] for n in range(a, b + 1)]
    for f in got["files"]:
        if not isinstance(f, list) or len(f) != 2 or not _whole(f[1], 0, MAX_FILE):
            raise _bad("LIST", "file %.60r" % (f,))
        if not isinstance(f[0], str) or not (GROUP_FILE.match(f[0]) or f[0] == QUARANTINE_FILE):
            raise _bad("LIST", "file name %.40r" % (f[0],))
    if not isinstance(got.get("more"), bool):
        raise _bad("LIST", "more is %.20r" % (got.get("more"),))
    return got


def _space(reply):
    """The box's space report from a reply, when it is one the summary can show."""
    sp = reply.get("space") if isinstance(reply, dict) else None
    if isinstance(sp, dict) and all(_whole(sp.get(k, 0), 0, 2**40) for k in ("percent_full", "matches_left")):
        return sp
    return None


def read_file(client, name, size, have=b""):
    """A journal file's bytes (after the bytes `have` already read), from the box whole in
    one READ as a rule, a damaged chunk read again from where it begins."""
    data = bytearray(have)
    while len(data) < size:
        body = {"file": name, "offset": len(data), "length": min(frames.MAX_STREAM, size - len(data))}
        got = client.request("READ", body)
        if not isinstance(got, bytes) or not got or len(got) > body["length"]:
            raise DeviceError("the box sent no data for %s at %d" % (name, len(data)))
        data += got
    return bytes(data)


PIPELINE = 32  # files asked for together: the box streams them one after the other


def read_files(client, files, each=None):
    """The bytes of each (name, size) of files, asked for together (client.read_many: a READ
    of several files), a file that did not come whole read on from where it broke off.
    each(i, bytes), if given, is called for each file in order as soon as it and those
    before it are whole, while the box streams the next (the PC's work
    on a file overlaps the box's on the next, and only the last waits for the PC)."""
    out = [None] * len(files)
    done = [0]  # files handed to each so far

    def whole(i, data):
        out[i] = data
        while done[0] < len(files) and out[done[0]] is not None:
            if each is not None:
                each(done[0], out[done[0]])
            done[0] += 1

    asked = [i for i, (_, size) in enumerate(files) if size > 0]
    part = {}  # what came of a file that did not come whole

    def came(j, data):
        i = asked[j]
        name, size = files[i]
        if not isinstance(data, bytes) or len(data) > size:
            raise DeviceError("the box sent no data for %s at 0" % name)
        if len(data) == size:
            whole(i, data)
        else:
            part[i] = data

    for i, (_, size) in enumerate(files):
        if size <= 0:
            whole(i, b"")
    bodies = [{"file": files[i][0], "offset": 0, "length": min(frames.MAX_STREAM, files[i][1])} for i in asked]
    for k in range(0, len(bodies), client.reads):  # all in one request (PIPELINE files at most: prefetch)
        client.read_many(bodies[k : k + client.reads], lambda j, data, k=k: came(k + j, data))
    for i in asked:
        if out[i] is None:
            name, size = files[i]
            whole(i, read_file(client, name, size, part.get(i, b"")))
    return out


class _Stopped(Exception):
    """The caller of prefetch stopped: the files still streaming are not waited for."""


def prefetch(client, files, then):
    """then(first, name, bytes) of each (first, name, size) in files, the bytes read from
    the box by a thread ahead of the caller, each file handed on as it arrives, so that the
    box and the PC work at the same time. The thread stops when the caller does, whatever
    the reason."""
    # Never full: a put that waited for the caller would leave the box's stream unread
    # mid-file (the files are held by the worker's queue anyway).
    q = queue.Queue()
    stop = threading.Event()

    def put(item):
        """False when the caller has stopped."""
        if stop.is_set():
            return False
        q.put(item)
        return True

    def fetch():
        try:
            for i in range(0, len(files), PIPELINE):
                some = files[i : i + PIPELINE]

                def hand(k, data, some=some):
                    if not put(then(some[k][0], some[k][1], data)):
                        raise _Stopped()

                read_files(client, [(name, size) for _, name, size in some], hand)
            put(None)
        except BaseException as e:  # handed to the caller, raised there
            put(e)

    t = threading.Thread(target=fetch, daemon=True)
    t.start()
    try:
        while True:
            item = q.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        t.join()


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


def sync(client, store, roster=True, clock=True, progress_stream=None, take_over=False):
    """Pull every match the store lacks, store it, acknowledge it; import the quarantine
    file; set the clock and push the roster. Returns a Summary. A box that belongs to
    another store (HELLO's store), unless take_over, gives every match it holds,
    acknowledged by its store or not (LIST's "all"): copied, none acknowledged, its roster
    read and left as it is."""
    t0 = time.monotonic()
    s = Summary()
    # The space is read once, at the end (SPACE); the box's clock is set now.
    hello = check_hello(
        client.request("HELLO", dict({"space": False}, **({"time": int(time.time())} if clock else {})))
    )
    client.reads = min(hello["reads"], PIPELINE)  # files a READ asks for
    uid = hello["device"]
    s.device, s.firmware = uid, hello.get("firmware")
    s.battery_mv = hello["battery_mv"] if _whole(hello.get("battery_mv"), 0, 100000) else None
    store.device(uid, s.firmware)
    sid = store.identity()
    mine = hello.get("store")
    owner = {"store": sid}
    if mine is not None and mine != sid:
        if take_over:
            owner["take_over"] = True
            s.taken_from = str(mine)[:32]
        else:
            owner = None
            s.foreign = str(mine)[:32]
    claim = None
    if owner is not None and mine != sid:
        # The box learns its store before it lists (an ACK without a run): taken over, it
        # lists again what the store before acknowledged and it has kept (box/link.py).
        claim = owner
    s.open = hello.get("open") is True
    numbers, files, after = [], [], 0
    asked = {"all": True} if owner is None else {}
    listed, names = first_list(client, claim, roster, asked)
    while True:
        if listed is not None:
            got = check_list(listed, after, len(numbers))
            listed = None
        else:
            got = check_list(client.request("LIST", dict(asked, after=after)), after, len(numbers))
        numbers += got["matches"]
        files = got["files"]
        if not got["more"] or not got["matches"]:
            break
        after = got["matches"][-1]
    groups = {}
    for name, size in files:
        if name.startswith("g"):
            groups[int(name[1:7])] = (name, size)
    firsts = sorted(groups)
    ends = file_ends(firsts, numbers)

    read = {}  # the group file read last: journal_run asks for its held numbers in order

    def box_digest(n):  # the box's copy of match n, hashed as the store's are
        first = group_of(n, firsts)
        if first is None:
            return None
        name, size = groups[first]
        if first not in read:
            read.clear()
            read[first] = read_file(client, name, size)
        return prepare(first, name, read[first], (), {n}, ends[first])[3].get(n)

    base, held = journal_run(store, uid, numbers, firsts[0] if firsts else None, box_digest, s)
    held = set(held)
    new = set(numbers) - held
    wanted = {}  # first match number of a group file -> its new matches
    for n in new:
        wanted.setdefault(group_of(n, firsts), set()).add(n)
    wanted.pop(None, None)
    again = {}  # ... -> the matches the store holds already: compared before acknowledged
    for n in held:
        again.setdefault(group_of(n, firsts), set()).add(n)
    again.pop(None, None)
    todo = sorted(set(wanted) | set(again))
    bar = Progress(len(new), progress_stream)
    # The PC side makes many objects and no cycles among them: collecting is wasted time.
    # The worker process is forked before any thread starts (workers.executor).
    acks = Acker(s, owner)
    with workers.gc_paused(), workers.executor(len(todo)) as pool:
        submitted = []  # in file order, as they will be done (one worker)

        def submit(first, name, data):
            # held: stored by an earlier sync whose acknowledgement never reached the box (or
            # another match by that number): acknowledged only when the same match
            submitted.append(
                pool.submit(prepare, first, name, data, wanted.get(first, ()), again.get(first, ()), ends[first], base)
            )
            return submitted[-1]

        batch = []  # prepared files not yet stored: one transaction for several
        with contextlib.closing(prefetch(client, [(f,) + groups[f] for f in todo], submit)) as jobs:
            for i, job in enumerate(jobs):
                batch.append(job.result())
                submitted[i] = None  # its rows are in batch now
                ready = i + 1 < len(submitted) and submitted[i + 1].done()
                if not ready or sum(len(job[0]) + len(job[1]) for job in batch) >= BATCH:
                    acks.add(store_batch(store, uid, batch, s, bar, base))  # store while the worker works
        acks.add(store_batch(store, uid, batch, s, bar, base))
        s.roster, s.space = finish(client, store, acks, roster, names, owner is not None)
    bar.end()
    stored = {n for n, _ in s.new} | {d[0] for d in s.damaged}
    for n in sorted(new - stored):
        s.refused.append((n, "not found whole in the box's journal (a damaged record?)"))
    compared = stored | {n for n, _ in s.differ} | acks.given
    for n in sorted(held - compared):
        s.differ.append((n, "held in the store, but not found whole on the box to compare"))
    for name, size in files:
        if name == QUARANTINE_FILE and size:
            s.quarantined += store.add_quarantine(uid, quarantined(read_file(client, name, size)))
    if s.space is None:
        s.space = _space(hello)
    if s.space:  # the Boxes page's capacity
        store.keep_space(uid, *space.kept(s.space))
    s.seconds = time.monotonic() - t0
    return s


def first_list(client, claim, roster, body):
    """The sync's first LIST (its reply; body: what it asks, from 0) and the box's first
    NAMES (its reply, None when not asked or not answered: push_roster asks again), in one
    write with the empty ACK that claims the box (claim; before the LIST, which then lists
    for the new store): a round trip each before. A request not answered
    is asked again alone, as request() would; a LIST after an ACK that was not."""
    body = dict(body, after=0)
    asked = ([("ACK", claim)] if claim else []) + [("LIST", body)]
    asked += [("NAMES", {"from": 0})] if roster else []
    got = client.pipeline([k for k, _ in asked], [b for _, b in asked])
    if claim:
        if got[0] is None:
            client.request("ACK", claim)  # what the box said, raised
            got[1] = None
        got = got[1:]
    listed = got[0] if got[0] is not None else client.request("LIST", body)
    return listed, got[1] if roster else None


def finish(client, store, acks, roster, names, send=True):
    """The sync's last requests in one write: the ACKs, the roster (merged first: the
    store's names, now that it holds the new matches; sent unless not send) and SPACE,
    answered by the box one after the other (three round trips before).
    What was not answered is asked again alone, in the same order: an ACK's failure ends
    the sync, the roster's is a line of the summary. (the roster's lines, the space)."""
    sent = acks.requests()
    out, parts, said = roster_parts(client, store, names, send) if roster else ([], [], None)
    asked = sent + parts + [("SPACE", {})]
    got = client.pipeline([k for k, _ in asked], [b for _, b in asked])
    again = None in got[:-1]  # then SPACE is asked again after them: it counts what they wrote
    for i, (kind, body) in enumerate(sent):
        if got[i] is None:
            client.request(kind, body)
    acks.sent_runs(sent)
    if parts:
        if None in got[len(sent) : len(sent) + len(parts)]:
            send_roster(client, parts, out, said)  # all again: part 0 starts the box's list anew
        else:
            out.append(roster_line(*said))
    # after the ACKs: the box walks its file system once
    return out, _space(client.request("SPACE") if again or got[-1] is None else got[-1])


ROSTER_PART = 50  # names per ROSTER and NAMES frame (the box takes 100): about 1 KB for its heap


def push_roster(client, store, send=True):
    """Merge the box's roster into the store's (names the store lacks are added, never
    dropped), then send the store's, in pieces (unless not send). Lines for the summary: a
    roster problem is said, never a failed sync."""
    out, parts, said = roster_parts(client, store, send=send)
    return send_roster(client, parts, out, said)


def roster_line(names, added, kept=False):
    """The summary's one roster line: the box's list as the sync left it, then the names
    the box brought to the store. Both names, never the added alone: read alone, a list
    of the new names read as the whole roster. kept: the box's own list, left as it is."""
    line = "roster on the box%s: %s" % (" (its store's, left as it is)" if kept else "", plural(len(names), "archer"))
    return line + (": %s" % some(names) if names else "") + _added(added)


def not_sent(e, added):
    """The line of a roster not sent: the names the merge added to the store are still said."""
    return "roster not sent (the matches are synced): %s" % e + _added(added)


def _added(added):
    return "; added to the store from the box: %s" % some(added) if added else ""


def send_roster(client, parts, out, said):
    """Send the ROSTER requests parts, one at a time; out, with the line that says how it
    went. said: (the names sent, the names added to the store), as roster_parts made them."""
    try:
        for kind, body in parts:
            client.request(kind, body)
        if parts:
            out.append(roster_line(*said))
    except (DeviceError, StoreError, KeyError, TypeError) as e:
        out.append(not_sent(e, said[1]))
    return out


def roster_parts(client, store, got=None, send=True):
    """Merge the box's roster into the store's: (lines for the summary, the ROSTER
    requests that send the store's, (the names they send, the names added to the store)).
    got: the box's reply to NAMES from 0, asked already (None: asked here). A roster
    problem is a line and no request. Not send (the box belongs to another store): no
    request, and a line says the box's roster is left as it is."""
    out, added = [], []
    try:
        box = []
        while True:
            if got is None:
                got = client.request("NAMES", {"from": len(box)})
            box += [n for n in got["names"] if isinstance(n, str)]
            if not got["names"] or len(box) >= min(got["total"], 2 * roster.BOX_MAX):  # a box that never ends
                break
            got = None
        added, left = store.merge_from_box(box)
        if left:  # a box holds BOX_MAX names: one that lists more is not a box's list
            out.append(
                "%s from the box NOT added (a sync adds %d at most): %s; `scorebox archers add` adds one"
                % (plural(len(left), "more name"), roster.BOX_MAX, some(left))
            )
        if not send:
            out.append(roster_line(box, added, kept=True))
            return out, [], (None, added)
        names = store.box_names()
        parts = []
        for i in range(0, max(len(names), 1), ROSTER_PART):
            part = names[i : i + ROSTER_PART]
            parts.append(("ROSTER", {"names": part, "part": i // ROSTER_PART, "last": i + ROSTER_PART >= len(names)}))
        return out, parts, (names, added)
    except (DeviceError, StoreError, KeyError, TypeError) as e:
        out.append(not_sent(e, added))
    return out, [], (None, added)


def quarantined(data):
    """(file, offset, bytes) pieces of a quarantine file's records."""
    out = []
    for _, _, rtype, value in records.scan_bytes(data):
        if rtype == records.QUARANTINE:
            off, name, raw = value
            out.append((name, off, raw))
    return out
