"""A sync's session with the box, over the sync link (device/link.py's Client): its HELLO
(start), its LISTs (listing), its journal files read ahead of the PC (read_files,
prefetch), its last requests (finish: the ACKs, the roster, SPACE) and the roster both ways
(roster_parts). The box's replies are hostile input: each is checked (check_hello,
check_list) and a bad one is one DeviceError."""

import queue
import re
import threading
import time

from scorebox.device import link
from scorebox.device.link import DeviceError
from scorebox.store import roster
from scorebox.store.errors import StoreError
from scorebox.sync.plan import RUN
from scorebox.sync.summary import not_sent, roster_line
from scorebox.text import plural, some
from scorebox_core import frames
from scorebox_core.journal import QUARANTINE_FILE

# What the PC takes from a box's replies: a box is hostile input too.
MAX_MATCHES = 100000  # match numbers listed by one box (its flash holds a few thousand)
MAX_FILE = 1 << 24  # bytes of one journal file (the Pico's flash is 1.4 MB)
GROUP_FILE = re.compile(r"^g[0-9]{6}\.tbj$")  # docs/journal.md


def bad(kind, why):
    """The error of a reply that is not a Scorebox's."""
    return DeviceError("the box's reply to %s is not valid (%s): is it a Scorebox?" % (kind, why))


def whole(v, lo, hi):
    """v is a whole number lo..hi (not a bool)."""
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def check_hello(h):
    """HELLO's reply, its protocol, device id, firmware and reads checked: a box whose
    protocol is not this scorebox's is one line (link.firmware), nothing asked after. A
    battery figure that is not one is left out (None)."""
    if not isinstance(h, dict):
        raise bad("HELLO", "not an object")
    other = link.firmware(h)
    if other:
        raise DeviceError(other)
    uid = h.get("device")
    if not isinstance(uid, str) or not 0 < len(uid) <= 64 or not uid.isprintable():
        raise bad("HELLO", "device id %.40r" % (uid,))
    if h.get("firmware") is not None and (not isinstance(h["firmware"], str) or len(h["firmware"]) > 64):
        raise bad("HELLO", "firmware %.40r" % (h["firmware"],))
    if not whole(h.get("reads"), 1, 2**31):
        raise bad("HELLO", "reads %.20r" % (h.get("reads"),))
    if not whole(h.get("battery_mv"), 0, 100000):
        h["battery_mv"] = None
    return h


def check_list(got, after, listed):
    """LIST's reply: runs [first, last] each after the one before (at most MAX_RUNS, and
    MAX_MATCHES numbers in all, so that `more` ends), journal files by their names and
    sane sizes; "matches" is added: the runs' numbers."""
    if not isinstance(got, dict) or not isinstance(got.get("ranges"), list) or not isinstance(got.get("files"), list):
        raise bad("LIST", "not an object with ranges and files")
    last, count = after, 0
    for r in got["ranges"]:
        if (
            not isinstance(r, list)
            or len(r) != 2
            or not whole(r[0], last + 1, RUN - 1)
            or not whole(r[1], r[0], RUN - 1)
        ):
            raise bad("LIST", "run %.40r after %d" % (r, last))
        count += r[1] - r[0] + 1
        last = r[1]
        if len(got["ranges"]) > frames.MAX_RUNS or listed + count > MAX_MATCHES:
            raise bad("LIST", "too many matches")
    got["matches"] = [n for a, b in got["ranges"] for n in range(a, b + 1)]
    for f in got["files"]:
        if not isinstance(f, list) or len(f) != 2 or not whole(f[1], 0, MAX_FILE):
            raise bad("LIST", "file %.60r" % (f,))
        if not isinstance(f[0], str) or not (GROUP_FILE.match(f[0]) or f[0] == QUARANTINE_FILE):
            raise bad("LIST", "file name %.40r" % (f[0],))
    if not isinstance(got.get("more"), bool):
        raise bad("LIST", "more is %.20r" % (got.get("more"),))
    return got


def space_of(reply):
    """The box's space report from a reply, when it is one the summary can show."""
    sp = reply.get("space") if isinstance(reply, dict) else None
    if isinstance(sp, dict) and all(whole(sp.get(k, 0), 0, 2**40) for k in ("percent_full", "matches_left")):
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


def prefetch(client, files, then, meanwhile=None):
    """then(first, name, bytes) of each (first, name, size) in files, the bytes read from
    the box by a thread ahead of the caller, each file handed on as it arrives, so that the
    box and the PC work at the same time; meanwhile(), when given, is the caller's work done
    while the first file is on its way (none: not done). The thread stops when the caller
    does, whatever the reason."""
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
        if meanwhile is not None and files:
            meanwhile()
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


def start(client, clock=True):
    """The session's HELLO, checked (check_hello); with clock, the box's clock is set by it.
    Its space is read once, at the end (finish's SPACE). The client asks for as many files
    a READ as the box takes (PIPELINE at most)."""
    body = {"space": False}
    if clock:
        body["time"] = int(time.time())
    hello = check_hello(client.request("HELLO", body))
    client.reads = min(hello["reads"], PIPELINE)
    return hello


def listing(client, claim, roster, every):
    """(the numbers of the matches the box lists, its journal files, its reply to the first
    NAMES or None): the LISTs from 0, the first with the claim and NAMES (first_list).
    every: LIST's "all" (a box of another store gives every match it holds)."""
    asked = {"all": True} if every else {}
    listed, names = first_list(client, claim, roster, asked)
    numbers, after = [], 0
    while True:
        if listed is None:
            listed = client.request("LIST", dict(asked, after=after))
        got, listed = check_list(listed, after, len(numbers)), None
        numbers += got["matches"]
        if not got["more"] or not got["matches"]:
            return numbers, got["files"], names
        after = got["matches"][-1]


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
    return out, space_of(client.request("SPACE") if again or got[-1] is None else got[-1])


ROSTER_PART = 50  # names per ROSTER and NAMES frame (the box takes 100): about 1 KB for its heap


def push_roster(client, store, send=True):
    """Merge the box's roster into the store's (names the store lacks are added, never
    dropped), then send the store's, in pieces (unless not send). Lines for the summary: a
    roster problem is said, never a failed sync."""
    out, parts, said = roster_parts(client, store, send=send)
    return send_roster(client, parts, out, said)


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
