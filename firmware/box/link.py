"""The box's side of USB sync (docs/sync.md): answers the PC between key presses.

The app calls `poll()` from its loop (through box/usbport.py, which loads this module when
the PC first sends a byte); it reads what has arrived on the USB serial port without
blocking, and answers every complete frame. A malformed or unknown frame gets an ERR frame and changes
nothing; only ACK frees journal space, and only for matches the PC says it holds.
"""

import gc
import os

from scorebox_core import frames
from scorebox_core.journal import QUARANTINE_FILE

PROTOCOL = 1
SETTABLE = ("dim_s", "sleep_s", "contrast")  # settings the PC may write


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
        self.requests = 0
        self.errors = 0

    def poll(self):
        """Answer every complete frame that has arrived; True if anything was answered."""
        data = self.port.read_ready()
        if not data:
            return False
        if data[-1] == 3 and not (bytes(self.buf) + bytes(data[:-1])).strip():
            # Ctrl-C between frames: mpremote wants the REPL (the virtual Pico gets it as
            # data; a Pico's USB stack turns it into this same interrupt). Inside a frame it
            # can only be a damaged byte: the frame's CRC will say so.
            raise KeyboardInterrupt
        self.buf.extend(data)
        answered = False
        while True:
            i = self.buf.find(b"\n")
            if i < 0:
                if len(self.buf) > frames.MAX_LINE:
                    self.buf = bytearray()
                    self._reply(0, "ERR", {"error": "frame too long"})
                return answered
            line = bytes(self.buf[:i])
            self.buf = self.buf[i + 1 :]
            if line.strip():
                self.port.write(self.handle(line))
                answered = True

    def handle(self, line):
        """The reply frame (bytes) to one request line."""
        self.requests += 1
        try:
            seq, kind, body = frames.decode(line)
        except frames.FrameError as e:
            self.errors += 1
            return frames.encode(0, "ERR", {"error": str(e)})
        fn = getattr(self, "do_" + kind.lower(), None) if kind.isalpha() and kind.isupper() else None
        if fn is None:
            self.errors += 1
            return frames.encode(seq, "ERR", {"error": "unknown request %s" % kind})
        try:
            got = fn(body)
            if isinstance(got, Data):
                return frames.encode_raw(seq, "DATA", got.data)
            return frames.encode(seq, "OK", got)
        except Exception as e:  # whatever it was (MemoryError too), the app plays on
            self.errors += 1
            gc.collect()
            return frames.encode(seq, "ERR", {"error": "%s failed: %s" % (kind, e)})

    def _reply(self, seq, kind, body):
        self.port.write(frames.encode(seq, kind, body))

    # --- requests ----------------------------------------------------------------------
    def do_hello(self, body):
        d = self.info()
        d["protocol"] = PROTOCOL
        d["space"] = sp = self.journal.space()
        d["matches"] = sp["stored"]
        d["open"] = self.journal.open_match() is not None
        return d

    def do_list(self, body):
        """Unacknowledged matches after a number, finished and confirmed by both sides (or
        followed by a newer match), and the journal's files."""
        after = _int(body, "after", 0)
        j = self.journal
        waiting = j.unconfirmed()  # its confirmations are still to come: not yet
        skip = waiting[0] if waiting else None
        got = [n for n in j.list_matches(after) if n != skip and not j.acked(n)]
        files = [[name, size] for name, size in journal_files(j.root)]
        return {"matches": got[: frames.MAX_LIST], "more": len(got) > frames.MAX_LIST, "files": files}

    def do_read(self, body):
        """Bytes of a journal file: a DATA reply (see handle)."""
        name = body["file"]
        offset = _as_int(body["offset"])
        length = _as_int(body["length"])
        if not isinstance(name, str) or not _is_journal_file(name):
            raise ValueError("no journal file %r" % (name,))
        if offset < 0 or not 0 < length <= frames.MAX_READ:
            raise ValueError("read 1-%d bytes from offset >= 0" % frames.MAX_READ)
        with open(_path(self.journal.root, name), "rb") as f:
            f.seek(offset)
            return Data(f.read(length))

    def do_ack(self, body):
        numbers = [_as_int(n) for n in body["n"]]
        self.journal.ack(numbers)
        return {"acked": numbers, "space": self.journal.space()}

    def do_clock(self, body):
        t = _int(body, "time", None)
        if t is None or t < 0:
            raise ValueError("time is seconds since 1970")
        if self.set_clock is None:
            raise ValueError("this box has no clock to set")
        self.set_clock(t)
        return {"clock": t}

    def do_roster(self, body):
        names = body["names"]
        if not isinstance(names, list) or len(names) > 100:
            raise ValueError("names is a list of at most 100 names")
        clean = []
        for name in names:
            if not isinstance(name, str) or not name.strip() or "\n" in name:
                raise ValueError("bad archer name %r" % (name,))
            name = name.strip()[:12]  # as the box shows names
            if name not in clean:
                clean.append(name)
        self.store.set_roster(clean)
        return {"roster": clean}

    def do_get(self, body):
        return {"settings": {k: self.store.get(k) for k in SETTABLE}}

    def do_set(self, body):
        values = body["values"]
        for k in values:  # check all before changing any
            if k not in SETTABLE:
                raise ValueError("setting %s cannot be set from the PC" % k)
            _as_int(values[k])
        for k in values:
            self.store.set(k, _as_int(values[k]))
        self.store.save()
        return {"settings": {k: self.store.get(k) for k in SETTABLE}}


def _path(root, name):
    return root.rstrip("/") + "/" + name


def _is_journal_file(name):
    return (name[:1] == "g" and name[-4:] == ".tbj") or name == QUARANTINE_FILE


def journal_files(root):
    """(name, size) of the journal's group files and its quarantine file, sorted."""
    return sorted((n, os.stat(_path(root, n))[6]) for n in os.listdir(root) if _is_journal_file(n))


class Data:
    """A reply of raw bytes (sent as a DATA frame, not JSON)."""

    def __init__(self, data):
        self.data = data


def _as_int(v):
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError("%r is not a whole number" % (v,))
    return v


def _int(body, key, default):
    v = body.get(key, default) if isinstance(body, dict) else default
    return v if v is None else _as_int(v)
