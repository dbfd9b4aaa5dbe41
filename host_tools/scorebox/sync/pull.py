"""`scorebox sync`: bring the box's new matches into the store, then tidy the box.

Order matters for "nothing lost, nothing doubled": a match is acknowledged to the box
(which may then free its space) only after the store has committed it, and the store
refuses a second copy of (device, number). A cable pulled at any point leaves either the
match on the box, or in the store and on the box (acknowledged at the next sync).
"""

import contextlib
import queue
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from scorebox.device.link import DeviceError
from scorebox.store.db import KEPT_EXTRAS, StoreError, check
from scorebox.sync import workers
from scorebox.sync.decode import decode_file
from scorebox_core import frames, records
from scorebox_core.journal import QUARANTINE_FILE
from scorebox_core.match import result_text


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
        self.acked = 0
        self.quarantined = 0  # pieces of set-aside bytes imported (rescue)
        self.space = None
        self.seconds = 0.0

    def add_new(self, number, extras, events):
        """A match newly stored, with its result as the box recorded it."""
        r = (extras or {}).get("result") or {}
        text = "%s (%d events)" % (result_text(r.get("winner"), r.get("wins") or (0, 0)), events)
        if (extras or {}).get("damaged"):
            text += ", with damaged records"
        self.new.append((number, text))

    def lines(self):
        out = ["box %s: %d new match%s stored" % (self.device, len(self.new), "" if len(self.new) == 1 else "es")]
        for n, text in self.new[:20]:
            out.append("  match %d: %s" % (n, text))
        if len(self.new) > 20:
            out.append("  ... and %d more" % (len(self.new) - 20))
        for n, why in self.refused:
            out.append("  match %d NOT stored, left on the box: %s" % (n, why))
        for n, why, size in self.damaged:
            out.append("  match %d damaged (%s): its %d bytes kept in the store's quarantine" % (n, why, size))
        if self.quarantined:
            out.append("%d pieces of damaged or torn records kept in the store's quarantine" % self.quarantined)
        if self.space:
            out.append(
                "space on the box: %d%% full, about %d more matches fit"
                % (self.space.get("percent_full", 0), self.space.get("matches_left", 0))
            )
        return out


def read_file(client, name, size):
    """A journal file's bytes, read from the box in large pieces."""
    data = bytearray()
    while len(data) < size:
        got = client.request(
            "READ", {"file": name, "offset": len(data), "length": min(frames.MAX_READ, size - len(data))}
        )
        if not isinstance(got, bytes) or not got:
            raise DeviceError("the box sent no data for %s at %d" % (name, len(data)))
        data += got
    return bytes(data)


def prefetch(client, files, then):
    """then(first, name, bytes) of each (first, name, size) in files, the bytes read from
    the box by a thread a few files ahead of the caller, so that the box and the PC work
    at the same time. The thread stops when the caller does, whatever the reason."""
    q = queue.Queue(maxsize=4)
    stop = threading.Event()

    def put(item):
        while not stop.is_set():
            try:
                q.put(item, timeout=0.1)
                return
            except queue.Full:
                pass

    def fetch():
        try:
            for first, name, size in files:
                if stop.is_set():
                    return
                put(then(first, name, read_file(client, name, size)))
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


def prepare(first, name, data, wanted):
    """What a sync does with one journal file before the store: decode it and replay
    each wanted match. Returns (checked matches, damaged ones as (number, why, quarantine
    piece), quarantine pieces of unreadable stretches). Pure, for a worker process."""
    decoded = decode_file(data, first)
    damage = [(name, off, data[off : off + n]) for off, n in decoded["damage"]]
    checked, broken = [], []
    for n, header, log, extras in decoded["matches"]:
        if n not in wanted:
            continue
        a, b = extras["offset"], extras["end"]
        if extras.get("result") is None or extras.get("header_lost"):
            why = "its %s record is damaged" % ("header" if extras.get("header_lost") else "result")
        else:
            c = check(n, header, log, {k: extras[k] for k in KEPT_EXTRAS if k in extras}, from_box=True)
            if not isinstance(c, StoreError):
                checked.append(c)
                continue
            why = str(c)
        broken.append((n, why, (name, a, data[a:b])))
    return checked, broken, damage


BATCH = 250  # matches per store transaction, at most
ACK_SOME = 250  # stored matches acknowledged together (an ACK costs the box a file write)
ACK_MAX = 1000  # match numbers per ACK request: a frame of about 6 KB for the box to read


def store_batch(store, uid, batch, s, bar):
    """Store prepared files in one transaction; empties batch and returns the numbers
    the store now holds, for acknowledging. A match the store cannot take whole keeps
    its bytes in the quarantine table, so that acknowledging it (the box needs the space
    back) loses nothing. Unreadable stretches go to quarantine in the same transaction:
    once acknowledged, the box may delete the file."""
    checked = [c for job in batch for c in job[0]]
    broken = [b for job in batch for b in job[1]]
    pieces = [p for job in batch for p in job[2]]
    del batch[:]
    if not checked and not broken and not pieces:
        return []
    results, added = store.add_checked(uid, checked, pieces, [piece for _, _, piece in broken])
    s.quarantined += added
    done = [n for n, _, _ in broken]
    for c, r in zip(checked, results):
        if r is True:
            s.add_new(c.number, c.extras, c.log_len)
        done.append(c.number)
    for n, why, (_, _, data) in broken:
        s.damaged.append((n, why, len(data)))
    bar.show(len(s.new) + len(s.damaged))
    return done


class Acker:
    """Acknowledges stored matches (the box may then free their space), a few hundred at
    a time from a thread, so that the box deletes files while the PC goes on storing.
    Leaving its `with` stops the thread; what was not acknowledged then, the next sync
    acknowledges (the store holds it)."""

    def __init__(self, client, s):
        self.client, self.s = client, s
        self.numbers = []
        self.thread = ThreadPoolExecutor(1)
        self.sent = []

    def add(self, numbers):
        self.numbers += numbers
        if len(self.numbers) >= ACK_SOME:
            self.sent.append(self.thread.submit(self._send, self.numbers))
            self.numbers = []

    def _send(self, numbers):
        for i in range(0, len(numbers), ACK_MAX):
            part = numbers[i : i + ACK_MAX]
            self.s.space = self.client.request("ACK", {"n": part})["space"]
            self.s.acked += len(part)

    def finish(self):
        """Send the rest and wait for every answer; raises what went wrong."""
        for f in self.sent:
            f.result()
        self._send(self.numbers)
        self.numbers = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.thread.shutdown(cancel_futures=True)


def group_of(n, firsts):
    """The first match number of the group file that holds match n."""
    best = None
    for f in firsts:
        if f <= n:
            best = f
    return best


def sync(client, store, roster=True, clock=True, progress_stream=None):
    """Pull every match the store lacks, store it, acknowledge it; import the quarantine
    file; set the clock and push the roster. Returns a Summary."""
    t0 = time.monotonic()
    s = Summary()
    hello = client.request("HELLO")
    uid = hello["device"]
    s.device = uid
    store.device(uid, hello.get("firmware"))
    numbers, files, after = [], [], 0
    while True:
        got = client.request("LIST", {"after": after})
        numbers += got["matches"]
        files = got["files"]
        if not got["more"] or not got["matches"]:
            break
        after = got["matches"][-1]
    held = [n for n in numbers if store.has_match(uid, n)]
    new = set(numbers) - set(held)
    groups = {}
    for name, size in files:
        if name.startswith("g"):
            groups[int(name[1:7])] = (name, size)
    firsts = sorted(groups)
    wanted = {}  # first match number of a group file -> its new matches
    for n in new:
        wanted.setdefault(group_of(n, firsts), set()).add(n)
    wanted.pop(None, None)
    todo = sorted(wanted)
    bar = Progress(len(new), progress_stream)
    # The PC side makes many objects and no cycles among them: collecting is wasted time.
    # The worker process is forked before any thread starts (workers.executor).
    with workers.gc_paused(), workers.executor(len(todo)) as pool, Acker(client, s) as acks:
        acks.add(held)  # stored by an earlier sync whose acknowledgement never reached the box
        submitted = []  # in file order, as they will be done (one worker)

        def submit(first, name, data):
            submitted.append(pool.submit(prepare, first, name, data, wanted[first]))
            return submitted[-1]

        batch = []  # prepared files not yet stored: one transaction for several
        with contextlib.closing(prefetch(client, [(f,) + groups[f] for f in todo], submit)) as jobs:
            for i, job in enumerate(jobs):
                batch.append(job.result())
                submitted[i] = None  # its rows are in batch now
                ready = i + 1 < len(submitted) and submitted[i + 1].done()
                if not ready or sum(len(checked) + len(broken) for checked, broken, _ in batch) >= BATCH:
                    acks.add(store_batch(store, uid, batch, s, bar))  # store while the worker works
        acks.add(store_batch(store, uid, batch, s, bar))
        acks.finish()
    bar.end()
    stored = {n for n, _ in s.new} | set(held) | {d[0] for d in s.damaged}
    for n in sorted(new - stored):
        s.refused.append((n, "not found whole in the box's journal (a damaged record?)"))
    for name, size in files:
        if name == QUARANTINE_FILE and size:
            s.quarantined += store.add_quarantine(uid, quarantined(read_file(client, name, size)))
    if clock:
        client.request("CLOCK", {"time": int(time.time())})
    if roster:
        names = store.roster_names()
        if names:
            client.request("ROSTER", {"names": names})
    if s.space is None:
        s.space = hello.get("space")
    s.seconds = time.monotonic() - t0
    return s


def quarantined(data):
    """(file, offset, bytes) pieces of a quarantine file's records."""
    out = []
    for _, _, rtype, value in records.scan_bytes(data):
        if rtype == records.QUARANTINE:
            off, name, raw = value
            out.append((name, off, raw))
    return out
