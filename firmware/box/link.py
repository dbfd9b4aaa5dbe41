"""The box's side of USB sync (docs/sync.md): answers the PC between key presses.

The app calls `poll()` from its loop (through box/usbport.py, which loads this module when
the PC first sends a byte); it reads what has arrived on the USB serial port without
blocking, and answers every complete frame. A malformed or unknown frame gets an ERR frame and changes
nothing; only ACK frees journal space, and only for matches the PC says it holds.

The protocol (docs/sync.md, HELLO's "protocol"): READ streams a file's bytes in chunks with a
CRC each, LIST gives runs of numbers, ACK takes a run (first..last), HELLO's "time" sets the
clock, and the journal's space is read once, by SPACE at the sync's end. A READ of several
files ("files", announced by HELLO's "reads") streams each as a READ of its own would, one a
poll.
"""

import binascii
import gc
import os

from box.store import ROSTER_MAX
from scorebox_core import frames
from scorebox_core.journal import QUARANTINE_FILE

PROTOCOL = 2  # the one protocol of Scorebox 1.0 (docs/sync.md); the PC's device/link.py PROTOCOL
SETTABLE = ("dim_s", "sleep_s", "contrast")  # settings the PC may write
# ... and only to what the Settings screen offers (box/home.py; tests/mpy/link_ack.py holds them equal)
CHOICES = {"dim_s": (10, 20, 30, 60, 120, 300), "sleep_s": (30, 60, 120, 300, 600, 0), "contrast": (32, 96, 160, 255)}
ROSTER_PART = 100  # names per ROSTER or NAMES frame: about 1.5 KB of JSON at most
NAME_MAX = 12  # characters of an archer's name (the PC's store/roster.py holds names to it)
STORE_ID_MAX = 32  # characters of a store's id (the PC's are 16: store/schema.py store_info)
READS = 32  # files one READ may ask for (HELLO's "reads"): about 1 KB of request
# Bytes of a stream's chunk read and written at a time, from one buffer the link holds: a
# chunk's 4,100 bytes asked of the heap at each READ failed now and then when a sync began
# (44 KB free on the 192 KB test heap, none of it 4 KB in one piece); 1 KB, taken once at
# the link's first byte, always is. The wire is the same: the CRC covers the whole chunk.
PIECE = 1024


class Link:
    def __init__(self, port, journal, store, info, set_clock=None):
        """info() -> dict of device facts (device id, firmware, battery_mv, clock);
        set_clock(epoch) sets the box's clock."""
        self.port = port
        self.journal = journal
        self.store = store
        self.info = info
        self.set_clock = set_clock
        self.buf = bytearray()
        self.rest = None  # bytes read after the frame answered last: answered at the next poll
        self.skip = False  # in a line too long to hold: drop it up to its newline
        self.sent = False  # some of the reply being written went out
        self.requests = 0
        self.errors = 0
        self.roster_in = []  # ROSTER pieces received so far
        self.roster_part = -1
        self.roster_reply = None
        self.space = None  # the journal's space as a reply read it, for the screen (new_space)
        self.acked = False  # an ACK changed the space since it was read
        self.files = None  # a READ of several files: those still to stream (Files)
        self.piece = bytearray(PIECE + 4)  # Stream.send's buffer: a piece and a chunk's CRC

    def poll(self):
        """Answer one complete frame of what has arrived; True if anything was answered.
        The frames after it wait for the next call: the app's loop runs between two
        replies, also when the PC sends many requests together (a sync asks for all its
        files at once)."""
        if self.files is not None:  # a READ of several files: the next one, before any request after it
            return self._next_file()
        data = self.rest
        self.rest = None
        if data is None:
            data = self.port.read_ready()
            if not data:
                return False
            if data[-1] == 3 and not bytes(self.buf).strip() and not bytes(data[:-1]).strip():
                # Ctrl-C between frames: mpremote wants the REPL (the virtual Pico gets it as
                # data; a Pico's USB stack turns it into this same interrupt). Inside a frame it
                # can only be a damaged byte: the frame's CRC will say so.
                raise KeyboardInterrupt
        answered = False
        start = 0
        while start < len(data):
            i = data.find(b"\n", start)
            end = len(data) if i < 0 else i
            if not self.skip and len(self.buf) + end - start > frames.MAX_REQUEST:
                # longer than the box can decode: never held whole (docs/sync.md "Sizes")
                self.skip, self.buf = True, bytearray()
                self.errors += 1
                self._reply(0, "ERR", {"error": "frame too long: at most %d bytes" % frames.MAX_REQUEST})
                answered = True
            if not self.skip:
                self.buf.extend(memoryview(data)[start:end])
            if i < 0:
                break
            start = i + 1
            line, self.buf = bytes(self.buf), bytearray()
            if self.skip:
                self.skip = False
            elif line.strip():
                if start < len(data):
                    self.rest = data[start:]  # the next call answers the next
                self.handle(line)
                return True
        return answered

    def handle(self, line):
        """Answer one request line: its reply frame goes to the port in pieces."""
        self.requests += 1
        try:
            seq, kind, body = frames.decode(line)
        except Exception as e:  # FrameError; MemoryError in a heap that small pieces fill
            self.errors += 1
            line = None
            gc.collect()
            return self._reply(0, "ERR", {"error": str(e) if isinstance(e, frames.FrameError) else repr(e)})
        del line
        fn = getattr(self, "do_" + kind.lower(), None) if kind.isalpha() and kind.isupper() else None
        if fn is None:
            self.errors += 1
            return self._reply(seq, "ERR", {"error": "unknown request %s" % kind})
        self._answer(seq, kind, fn, body)

    def _next_file(self):
        """Stream the next file of a READ of several, under its own seq (the request's, plus
        its place: 1-65535 round)."""
        q = self.files
        name, length = q.files[q.i]
        seq = (q.seq + q.i - 1) % 65535 + 1
        q.i += 1
        if q.i >= len(q.files):
            self.files = None
        self._answer(seq, "READ", self.do_read, {"file": name, "offset": 0, "length": length})
        return True

    def _answer(self, seq, kind, fn, body):
        """Reply to one request: fn(body)'s answer, or ERR with why it failed."""
        self.sent = False
        got = None
        try:
            got = fn(body)
            if isinstance(got, Files):
                got.seq, self.files = seq, got
                got = None
                self._next_file()
            elif isinstance(got, Stream):
                frames.write_json(self._out, seq, "BIN", {"length": got.length})
                got.send(self._out, self.piece)
            else:
                frames.write_json(self._out, seq, "OK", got)
        except Exception as e:  # whatever it was (MemoryError too), the app plays on
            self.errors += 1
            if isinstance(got, Stream):
                got.f.close()
            got = None
            gc.collect()
            if self.sent:
                # Ends the broken frame (the PC finds its CRC wrong); in a stream, the ERR after
                # it starts where a chunk would have, which is where the PC looks for it.
                self.port.write(b"\n")
            self._reply(seq, "ERR", {"error": "%s failed: %s" % (kind, e)})

    def _out(self, data):
        self.sent = True
        self.port.write(data)

    def _reply(self, seq, kind, body):
        frames.write_json(self.port.write, seq, kind, body)

    # --- requests ----------------------------------------------------------------------
    def do_hello(self, body):
        """The box's facts; with "time" (seconds since 1970), its clock is set; with "space":
        false, its space is not read (a sync asks SPACE at its end)."""
        t = _int(body, "time", None)
        if t is not None and self.set_clock is not None:
            if t < 0:
                raise ValueError("time is seconds since 1970")
            self.set_clock(t)
        d = self.info()
        d["protocol"] = PROTOCOL
        d["reads"] = READS  # a READ may ask for this many files
        if not (isinstance(body, dict) and body.get("space") is False):
            d["space"] = sp = self._space()
            d["matches"] = sp["stored"]
        d["open"] = self.journal.open_match() is not None
        d["store"] = self.store.get("store")
        return d

    def do_space(self, body):
        """The journal's space, read once a sync has acknowledged what it stored."""
        return {"space": self._space()}

    def _space(self):
        self.space = self.journal.space()  # a walk of the file system: once per sync
        self.acked = False
        return self.space

    def new_space(self):
        """The journal's space for the box's screen once the PC pauses: the figure a reply
        read (after the ACKs that changed it), else read now if an ACK changed it; None
        when neither (the screen's figure stands)."""
        sp = self.space
        if sp is None and self.acked:
            try:
                sp = self.journal.space()
            except Exception:  # as App.refresh_space: no figure rather than no app
                sp = None
        self.space, self.acked = None, False
        return sp

    def do_list(self, body):
        """Unacknowledged matches after a number, finished and confirmed by both sides (or
        followed by a newer match), as runs [first, last] (MAX_RUNS at most, "more" says
        there are others), and the journal's files. With "all", acknowledged ones too: every
        match the box still holds, for a store that is not the box's own."""
        from box import acks

        every = isinstance(body, dict) and body.get("all") is True
        runs = acks.listed(self.journal, _int(body, "after", 0) + 1, (1 << 30) - 1, every)
        files = [[name, size] for name, size in journal_files(self.journal.root)]
        if self.journal._slots is not None:  # on FAT, the ring's groups too
            from box.fat import ring

            files = sorted(files + [[name, size] for name, size in ring.listed(self.journal)])
        return {"ranges": runs[: frames.MAX_RUNS], "more": len(runs) > frames.MAX_RUNS, "files": files}

    def do_read(self, body):
        """Bytes of a journal file: a BIN frame and the bytes in chunks with a CRC-32 each
        (Stream); with "files" ([name, length] each, READS at most), each file from its
        start as a READ of its own (Files)."""
        if "files" in body:
            return Files(body["files"])
        name = body["file"]
        offset = _as_int(body["offset"])
        length = _as_int(body["length"])
        if not isinstance(name, str) or not _is_journal_file(name):
            raise ValueError("no journal file %r" % (name,))
        if offset < 0 or not 0 < length <= frames.MAX_STREAM:
            raise ValueError("read 1-%d bytes from offset >= 0" % frames.MAX_STREAM)
        f = self.journal._file(name)  # on FAT a ring's group is a stretch of its file
        size = f.seek(0, 2)
        if offset > size:  # seek() would wrap an offset past 2**32 round to the file's start
            f.close()
            raise ValueError("offset %d is past the end of %s (%d bytes)" % (offset, name, size))
        f.seek(offset)
        return Stream(f, min(length, size - offset))

    def do_ack(self, body):
        """The PC's store holds the run first..last: only what LIST gives (or gave: an ACK
        sent again after a lost reply is taken again), never an open, unconfirmed or unknown
        match. Without a run, the ACK only claims the box for its store (_owner)."""
        from box import acks

        if "first" not in body:
            self._owner(body)
            return {}
        a, b = _as_int(body["first"]), _as_int(body["last"])
        if a > b:
            raise ValueError("first %d is after last %d" % (a, b))
        n = acks.refused(self.journal, a, b)
        if n is not None:  # before _owner: a refused ACK changes nothing
            raise ValueError("no match %d to acknowledge" % n)
        self._owner(body)
        acks.add(self.journal, [[a, b]])  # its files are freed when a new match needs the room
        self.acked = True
        return {"first": a, "last": b}

    def _owner(self, body):
        """Only the box's own store acknowledges: the first store to acknowledge becomes it;
        another only when it says take_over. Taken over, the box forgets what the store
        before acknowledged and has not freed: the new store's sync copies it (a mistaken
        acknowledgement undone)."""
        sid = body.get("store")
        mine = self.store.get("store")
        if not _store_id_ok(sid):  # "" too: the box would belong to a store no PC has
            raise ValueError("a store id is 1-%d printable characters" % STORE_ID_MAX)
        if sid == mine:
            return
        if mine is not None and not body.get("take_over"):
            raise ValueError("this box belongs to another store: take it over to acknowledge")
        if mine is not None:
            from box import acks

            acks.forget(self.journal)
            self.acked = True
        self.store.set("store", sid)
        self.store.save()

    def do_names(self, body):
        """The box's roster, ROSTER_PART names from `from` on: the PC merges it into its own."""
        start = _int(body, "from", 0)
        names = self.store.roster()
        return {"names": names[start : start + ROSTER_PART], "total": len(names)}

    def do_roster(self, body):
        """The PC's roster in pieces of at most ROSTER_PART names (small frames for the heap):
        part 0 starts a new list, the piece marked last replaces the box's. A name the box
        cannot take is left out and counted, never a refusal (one bad name must not fail
        every later sync). A body without part and last is a whole list."""
        names = body["names"]
        if not isinstance(names, list) or len(names) > ROSTER_PART:
            raise ValueError("names is a list of at most %d names" % ROSTER_PART)
        part = _int(body, "part", 0)
        if part < 0:  # -1 is the link's own "no part yet": it would repeat a reply never made
            raise ValueError("roster part %d: parts count from 0" % part)
        if part and part == self.roster_part:
            return self.roster_reply  # the PC asks again: its answer was lost
        if part == 0:
            self.roster_in = []
        elif part != self.roster_part + 1:
            raise ValueError("roster part %d out of order" % part)
        self.roster_part = part
        got = self.roster_in
        skipped = 0
        for name in names:
            name = name.strip() if isinstance(name, str) else ""
            if not name_ok(name) or len(got) >= ROSTER_MAX:
                skipped += 1
            elif name not in got:
                got.append(name)
        if body.get("last", True):
            if got != self.store.roster():  # the same list as the sync before: no flash write
                self.store.set_roster(got)
            self.roster_in = []
        self.roster_reply = {"roster": len(got), "skipped": skipped}
        return self.roster_reply

    def do_get(self, body):
        return {"settings": {k: self.store.get(k) for k in SETTABLE}}

    def do_set(self, body):
        values = body["values"]
        if not isinstance(values, dict):
            raise ValueError("values is an object of settings")
        for k in values:  # check all before changing any
            if k not in SETTABLE:
                raise ValueError("setting %s cannot be set from the PC" % k)
            if _as_int(values[k]) not in CHOICES[k]:
                raise ValueError("%s is one of %s" % (k, CHOICES[k]))
        for k in values:
            self.store.set(k, _as_int(values[k]))
        self.store.save()
        return {"settings": {k: self.store.get(k) for k in SETTABLE}}


def name_ok(name):
    """A name the box can show and key: 1-12 printable ASCII characters, not a side's own
    A or B, not "-" (no 2nd archer). The PC's store/roster.py problem() says the same.
    Here, not in box/store.py: only the link takes names in, and it is loaded only then."""
    if not 0 < len(name) <= NAME_MAX or name in ("A", "B", "-"):
        return False
    for ch in name:
        if not " " <= ch <= "~":
            return False
    return True


def _store_id_ok(sid):
    """A store id as the PC makes them (16 hex digits): 1-32 printable ASCII, no space."""
    if not isinstance(sid, str) or not 0 < len(sid) <= STORE_ID_MAX:
        return False
    for ch in sid:
        if not "!" <= ch <= "~":
            return False
    return True


def _path(root, name):
    return root.rstrip("/") + "/" + name


def _is_journal_file(name):
    """A group file's name (g, its first match's number, .tbj: nothing that leaves the
    journal's folder) or the quarantine file's."""
    return (len(name) >= 11 and name[0] == "g" and name[-4:] == ".tbj" and name[1:-4].isdigit()) or (
        name == QUARANTINE_FILE
    )


def journal_files(root):
    """(name, size) of the journal's group files and its quarantine file, sorted: one pass
    over the directory (ilistdir gives the sizes on the Pico's LittleFS; no stat a file)."""
    if not hasattr(os, "ilistdir"):  # CPython
        return sorted((n, os.stat(_path(root, n))[6]) for n in os.listdir(root) if _is_journal_file(n))
    out = []
    for e in os.ilistdir(root):
        if _is_journal_file(e[0]):
            out.append((e[0], e[3] if len(e) > 3 else os.stat(_path(root, e[0]))[6]))
    out.sort()
    return out


class Files:
    """A READ of several files, checked whole before any is streamed: then one a poll
    (Link._next_file), each under its own seq, each file opened only when its turn comes."""

    def __init__(self, files):
        if not isinstance(files, list) or not 0 < len(files) <= READS:
            raise ValueError("files is a list of 1-%d [name, length]" % READS)
        for f in files:
            if not isinstance(f, list) or len(f) != 2 or not isinstance(f[0], str) or not _is_journal_file(f[0]):
                raise ValueError("no journal file %.40r" % (f,))
            if not 0 < _as_int(f[1]) <= frames.MAX_STREAM:
                raise ValueError("read 1-%d bytes of %s" % (frames.MAX_STREAM, f[0]))
        self.files = files
        self.seq = 0
        self.i = 0


class Stream:
    """A streamed READ's reply (after its BIN frame): length bytes of an open file as they
    are, in chunks of frames.CHUNK bytes each followed by its CRC-32 (4 bytes, big-endian),
    written a chunk at a time from one buffer; the file is closed after. A file that ends
    early raises OSError: the link ends the stream with an ERR, at a chunk's start."""

    def __init__(self, f, length):
        self.f = f
        self.length = length

    def send(self, out, buf):
        """Write the stream to out(bytes), a piece at a time through buf (PIECE + 4
        bytes): each chunk's last piece goes with the chunk's CRC."""
        mv = memoryview(buf)
        left = self.length
        try:
            while left > 0:
                k = frames.CHUNK if left > frames.CHUNK else left
                left -= k
                crc = 0
                while k > 0:
                    p = PIECE if k > PIECE else k
                    got = 0
                    while got < p:
                        r = self.f.readinto(mv[got:p])
                        if not r:
                            raise OSError("the file ended %d bytes early" % (left + k - got))
                        got += r
                    crc = binascii.crc32(mv[:p], crc)
                    k -= p
                    if k:
                        out(mv[:p])
                        continue
                    buf[p] = crc >> 24
                    buf[p + 1] = (crc >> 16) & 255
                    buf[p + 2] = (crc >> 8) & 255
                    buf[p + 3] = crc & 255
                    out(mv[: p + 4])
        finally:
            self.f.close()


def _as_int(v):
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError("%r is not a whole number" % (v,))
    return v


def _int(body, key, default):
    v = body.get(key, default) if isinstance(body, dict) else default
    return v if v is None else _as_int(v)
