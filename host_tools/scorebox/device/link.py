"""The PC's side of the sync protocol: find the box, open its port, ask it things.

Frames are scorebox_core/frames.py's, the same code the box runs. Every request is idempotent, so a
request whose reply is lost or damaged is simply sent again with the same sequence number; a
READ whose chunk arrives damaged gives the bytes before it, and the rest is asked for again
from there (sync/protocol.py read_file). The box speaks one protocol, PROTOCOL, its HELLO's:
a box that says another runs firmware that is not this scorebox's (firmware()).
"""

import binascii
import random
import sys
import threading
import time

from scorebox.errors import ScoreboxError
from scorebox_core import frames

RPI_VID = 0x2E8A  # Raspberry Pi
MICROPYTHON_PID = 0x0005  # MicroPython's USB CDC product id on the Pico
ADAFRUIT_VID = 0x239A  # CircuitPython's boards
CIRCUITPYTHON_PICO_PID = 0x80F4  # CircuitPython's raspberry_pi_pico image
WRITE_TIMEOUT = 5.0  # seconds a request may wait to be written (a frame is at most 2 KB)
# Seconds one request may go unanswered, its resends included: then the box is taken for
# gone and the sync ends with one line (30-60 s before, each waiting
# request having its own retries).
DEADLINE = 10.0
PROTOCOL = 2  # the sync protocol of Scorebox 1.0 (docs/sync.md): what box/link.py's HELLO says
REPLIES = ("OK", "ERR", "BIN")  # what a box answers; a request's own kind coming back is the REPL's echo
AT_REPL = (
    "the box is at its REPL, not running its app (mpremote or Thonny stopped it): unplug it and plug it in "
    "again, or run `scorebox deploy`, then sync again"
)


class DeviceError(ScoreboxError):
    """Something about the box or its port the user can act on; str() says what."""


def firmware(hello):
    """None when HELLO's reply says this scorebox's protocol, else the one line that says the
    box's firmware is not this scorebox's (`scorebox sync` raises it, `scorebox doctor`
    reports it)."""
    said = hello.get("protocol") if isinstance(hello, dict) else None
    if said == PROTOCOL and not isinstance(said, bool):
        return None
    return (
        "the box's firmware is not this scorebox's (its sync protocol is %s, this scorebox's %d): "
        "`scorebox deploy` updates it" % ("not said" if said is None else "%.20r" % (said,), PROTOCOL)
    )


def _interface(p):
    """The USB interface number of a port (pyserial's location ends ":1.2" or ":x.2"), or -1."""
    tail = (p.location or "").rpartition(".")[2]
    return int(tail) if tail.isdigit() else -1


def box_ports():
    """[(port, what)] of every Scorebox plugged in: a Pico on MicroPython by its USB id; one on
    CircuitPython by its second serial port, usb_cdc.data (its interface "CircuitPython CDC2
    control"; where the system names no interface, the later of the box's two ports), its
    first being the console's REPL (docs/circuitpython.md)."""
    from serial.tools import list_ports

    ports = list_ports.comports()
    found = [
        (p.device, "MicroPython, USB %04x:%04x" % (p.vid, p.pid))
        for p in ports
        if (p.vid, p.pid) == (RPI_VID, MICROPYTHON_PID)
    ]
    cp = [p for p in ports if (p.vid, p.pid) == (ADAFRUIT_VID, CIRCUITPYTHON_PICO_PID)]
    for p in cp:
        if p.interface:
            data = "CDC2" in p.interface
        else:  # the same box's other port: same serial number, an interface before this one's
            data = any(q is not p and q.serial_number == p.serial_number and _interface(q) < _interface(p) for q in cp)
        if data:
            found.append((p.device, "CircuitPython, USB %04x:%04x, its data port" % (p.vid, p.pid)))
    return found


def find_port(name_it="with --port"):
    """The serial port of the one Scorebox (a Pico running MicroPython, or CircuitPython's data
    port) plugged in. name_it: how the user names a port instead (the desk has a field for it,
    not an option)."""
    found = [port for port, _ in box_ports()]
    if not found:
        raise DeviceError(
            "no Scorebox found: plug it in with a data USB cable (not a charge-only one) and switch it on, "
            "or name the port %s" % name_it
        )
    if len(found) > 1:
        raise DeviceError("several boxes are plugged in (%s): name the one to sync %s" % (", ".join(found), name_it))
    return found[0]


def permission_help(port):
    """How to get the right to open the port, on this PC's system."""
    if sys.platform.startswith("linux"):
        return (
            "add yourself to the group that owns %s (usually dialout: `sudo usermod -aG dialout $USER`, "
            "then log out and in again)" % port
        )
    if sys.platform == "darwin":
        return "check that no other program (Thonny, a terminal, screen) has %s open" % port
    return "close any program that has %s open (Thonny, a serial monitor), then try again" % port


def busy_help(port):
    """How to find and close the program that holds the port."""
    if sys.platform.startswith("linux"):
        who = " (`sudo fuser -v %s` names it)" % port
    elif sys.platform == "darwin":
        who = " (`lsof %s` names it)" % port
    else:
        who = ""
    return "another program has it open%s: Thonny, a serial monitor, screen, mpremote, another scorebox; close it" % who


def open_port(port, baudrate=115200):
    """A pyserial port, with a clear DeviceError when it is missing, busy or forbidden."""
    import serial

    try:
        # A box that stops reading fills the port's buffer: without write_timeout a write
        # (the acknowledging thread's) would wait for ever.
        return serial.Serial(port, baudrate, timeout=0.05, write_timeout=WRITE_TIMEOUT, exclusive=True)
    except serial.SerialException as e:
        err = getattr(e, "errno", None)
        text = str(e)
        if "Access is denied" in text:  # Windows: another program has the port open
            raise DeviceError("%s is busy: %s" % (port, busy_help(port)))
        if err == 13 or "ermission" in text:
            raise DeviceError("no permission to open %s: %s" % (port, permission_help(port)))
        if err == 16 or "busy" in text.lower() or "lock" in text.lower():
            raise DeviceError("%s is busy: %s" % (port, busy_help(port)))
        if err == 2 or "No such file" in text or "FileNotFound" in text:
            raise DeviceError("%s does not exist: is the box plugged in?" % port)
        raise DeviceError("cannot open %s: %s" % (port, text))


class Sequence:
    """Sequence numbers for every Client of this process, continuing from one to the next and
    starting at a random one: a late reply to another Client's request (a HELLO that timed out
    just before, on the same port, from this process or one before it) is never taken for the
    reply to this one's (each Client started at 1 before)."""

    def __init__(self):
        self.last = random.randrange(65535)
        self.lock = threading.Lock()

    def next(self):
        with self.lock:
            self.last = self.last % 65535 + 1  # 1-65535: 0 is the box's "could not read a frame"
            return self.last

    def block(self, n):
        """n numbers in a row, 1-65535 round, as a box numbers the replies to a READ of
        several files (box/link.py _next_file)."""
        with self.lock:
            first = self.last % 65535 + 1
            self.last = (self.last + n - 1) % 65535 + 1
            return [(first + k - 1) % 65535 + 1 for k in range(n)]


SEQUENCE = Sequence()


class Client:
    def __init__(self, ser, timeout=3.0, retries=4, deadline=DEADLINE):
        """timeout: seconds to wait for one reply; retries: resends of a request whose reply
        is lost or damaged; deadline: seconds a request may go unanswered in all (at least
        one timeout), after which the box is taken for gone."""
        self.ser = ser
        self.timeout = timeout
        self.retries = retries
        self.deadline = max(deadline, timeout)
        self.seq = 0
        self.resent = 0
        self.buf = b""
        self.lock = threading.Lock()  # one request at a time on the wire, from any thread
        self.answered = False  # the box has answered this client
        self.failed = 0  # requests that ended for want of an answer
        self.gone = None  # the last one's sentence, until the box answers again
        self.reads = 0  # files one READ may ask for (HELLO's "reads": sync/protocol.py sets it)
        self.damaged = 0  # replies that arrived damaged (a chunk of a stream among them)
        self.silent = None  # since when the box has not answered a pipeline (its deadline counts from then)

    def request(self, kind, body=None):
        """Send one request and return the body of its reply (JSON for OK, bytes for a READ:
        those that came whole); DeviceError on ERR or when the box stops answering."""
        failed = self.failed
        with self.lock:
            if self.failed != failed and self.gone:
                # The box stopped answering while this request waited for the line (the
                # sync's reading and acknowledging threads): the same sentence, at once.
                raise DeviceError(self.gone)
            return self._request(kind, body)

    def pipeline(self, kind, bodies, each=None):
        """Send several requests at once and return each reply's body, or None for one that
        did not come (whole): the box answers them one after the other without waiting for
        the PC in between. Ask again for a None with request(). each(i, body), if given, is
        called with each reply that came as it comes (the caller's work overlaps the box's);
        what it raises ends the pipeline. kind may be a list, one kind a request (a sync's
        last ACK, ROSTER and SPACE go together)."""
        kinds = list(kind) if isinstance(kind, (list, tuple)) else [kind] * len(bodies)

        def send():
            seqs = []
            for k, body in zip(kinds, bodies):
                self.seq = SEQUENCE.next()
                seqs.append(self.seq)
                self.ser.write(frames.encode(self.seq, k, body))
            return seqs

        return self._pipeline(send, kinds, bodies, each)

    def read_many(self, bodies, each=None):
        """As pipeline("READ", bodies, each), the bodies READs of whole files, asked for in one
        READ of several files (at most HELLO's "reads"); the box streams each under its own
        seq, so each is taken, and asked again alone, as a READ of its own."""
        files = [[b["file"], b["length"]] for b in bodies]
        frame = frames.encode(65535, "READ", {"files": files})
        if len(bodies) > self.reads or len(frame) - 1 > frames.MAX_REQUEST:
            raise DeviceError("a READ of %d files is more than the box takes" % len(bodies))

        def send():
            seqs = SEQUENCE.block(len(bodies))
            self.seq = seqs[-1]
            self.ser.write(frames.encode(seqs[0], "READ", {"files": files}))
            return seqs

        return self._pipeline(send, ["READ"] * len(bodies), bodies, each)

    def _pipeline(self, send, kinds, bodies, each):
        """pipeline's work: send() writes the requests and gives the seqs of their replies."""
        failed = self.failed
        with self.lock:
            if self.failed != failed and self.gone:
                raise DeviceError(self.gone)
            got = []
            try:
                self.ser.reset_input_buffer()
                self.buf = b""
                seqs = send()
                self.ser.flush()
                start = time.monotonic()
                for i, body in enumerate(bodies):
                    damaged = self.damaged
                    reply = self._reply(seqs[i], kinds[i], body, self.timeout, later=seqs[i + 1 :])
                    if reply is None and self.damaged == damaged and not self.buf:  # nothing came: quiet
                        self.silent = start  # the request that asks again has the rest of the deadline
                        got += [None] * (len(bodies) - i)
                        break
                    got.append(reply[1] if reply is not None and reply[0] != "ERR" else None)
                    if each is not None and got[-1] is not None:
                        each(i, got[-1])
            except Exception as e:
                raise self._failed(e)
            if any(g is not None for g in got):
                self.answered, self.gone, self.silent = True, None, None
            return got

    def _failed(self, e):
        """The exception to raise for e, raised by the port (a pulled cable, a box that
        stopped reading) or by a reply."""
        if type(e).__name__ == "SerialTimeoutException":  # a box that stopped reading
            return self._lost("the box stopped reading (%s): check the cable and sync again" % e)
        if isinstance(e, OSError) or type(e).__name__ == "SerialException":
            return self._lost("the box went away (%s): check the cable and sync again" % e)
        return e

    def _lost(self, text):
        """The link has failed (no answer, a pulled cable): the DeviceError to raise."""
        self.failed += 1
        self.gone = text
        return DeviceError(text)

    def _request(self, kind, body):
        self.seq = SEQUENCE.next()
        frame = frames.encode(self.seq, kind, body if body is not None else {})
        if len(frame) - 1 > frames.MAX_REQUEST:  # the box could not hold it (docs/sync.md "Sizes")
            raise DeviceError(
                "%s request of %d bytes is longer than a box takes (%d)" % (kind, len(frame) - 1, frames.MAX_REQUEST)
            )
        start = self.silent or time.monotonic()
        damaged, tries = self.damaged, 0
        # Gone already (the request before went unanswered): one try, not a deadline's worth.
        for attempt in range(1 if self.gone else self.retries + 1):
            left = start + self.deadline - time.monotonic()
            if left <= 0:
                break
            if attempt:
                self.resent += 1
            tries += 1
            try:
                self.ser.reset_input_buffer()
                self.buf = b""
                self.ser.write(frame)
                self.ser.flush()
                reply = self._reply(self.seq, kind, body, min(self.timeout, left))
            except Exception as e:  # OSError, pyserial's SerialException on a pulled cable
                raise self._failed(e)
            if reply is None:
                continue
            self.answered, self.gone, self.silent = True, None, None
            kind_back, body_back = reply
            if kind_back != "ERR":
                return body_back
            why = body_back.get("error", repr(body_back)) if isinstance(body_back, dict) else repr(body_back)
            raise DeviceError("the box refused %s: %s" % (kind, why))
        if tries and self.damaged - damaged >= tries:  # every try answered, every answer damaged
            raise self._lost(
                "the box's replies to %s arrived damaged %d times: check the USB cable (or try another), "
                "then sync again" % (kind, self.damaged - damaged)
            )
        if self.answered:
            raise self._lost(
                "the box stopped answering (no reply to %s in %.0f s): check that it is on and its cable is in, "
                "then sync again (what was not stored stays on the box)" % (kind, time.monotonic() - start)
            )
        raise self._lost("the box does not answer: is the Scorebox firmware running on it?")

    def _reply(self, seq, kind, body, timeout, later=()):
        """(kind, body) of the reply to seq (a READ's as "BIN" and the bytes that came
        whole), or None on timeout or a damaged reply; a reply to one of the later
        requests (pipeline) says that seq's was lost, and is kept for them. The box's REPL
        echoing the request back is one clear DeviceError."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                i = line.find(frames.PREFIX)  # after REPL chatter, the rest of a stream, noise
                if i < 0:
                    continue
                try:
                    got_seq, kind_back, body_back = frames.decode(line[i:])
                except frames.FrameError:
                    self.damaged += 1
                    return None  # damaged on the way back: ask again
                if kind_back not in REPLIES:
                    if got_seq == seq and kind_back == kind:  # the request itself, echoed
                        raise self._lost(AT_REPL)
                    continue
                if got_seq in later:
                    self.buf = line[i:] + b"\n" + self.buf
                    return None
                if got_seq == seq and kind_back == "BIN":
                    return self._stream(seq, kind, body, body_back, deadline)
                if got_seq == seq:
                    return kind_back, body_back
                if kind_back == "ERR" and got_seq == 0:
                    return None  # the box could not read a frame (this one or an old one): send again
            chunk = self.ser.read(self.ser.in_waiting or 1)
            if chunk:
                self.buf += chunk
        return None

    def _stream(self, seq, kind, body, head, deadline):
        """("BIN", bytes) of a READ whose BIN frame said head: its chunks up to the
        first that is missing or damaged (None: none came whole; the box's ERR, if it
        said why it stopped before the first). Waiting for them is ended by the reply's
        timeout, counted again from each piece that arrives, or by the box's ERR."""
        asked = body.get("length") if isinstance(body, dict) else None
        n = head.get("length") if isinstance(head, dict) else None
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= (asked or 0):
            raise DeviceError("the box's reply to %s is not valid (length %.20r): is it a Scorebox?" % (kind, n))
        need = stream_size(n)
        wait = deadline - time.monotonic()
        err = self._stopped(seq)  # it may have come with the BIN frame
        while err is None and len(self.buf) < need and time.monotonic() < deadline:
            chunk = self.ser.read(min(self.ser.in_waiting or 1, need - len(self.buf)))
            if chunk:
                self.buf += chunk
                deadline = time.monotonic() + wait
                err = self._stopped(seq)
        end = need if err is None else err[0]
        raw, self.buf = self.buf[:end], self.buf[end:]
        data = unchunk(raw, n)
        if err is not None and not data:
            return "ERR", err[1]  # a reason, not damage: a request asked again alone says it
        if len(data) < n:
            if err is None:
                self.damaged += 1
            if not data:
                return None  # ask again
        return "BIN", data

    def _stopped(self, seq):
        """(where, body) of the ERR a box sends when it cannot go on with a stream (a newline
        ends the stream's frame, then ERR: box/link.py), once it has arrived whole at the
        start of a chunk; None while there is none. Chunk bytes that look like one would
        also need its seq and its CRC to be right."""
        step = frames.CHUNK + 4
        at = max(0, len(self.buf) - 1) // step * step
        if not self.buf.startswith(b"\n" + frames.PREFIX, at):
            return None
        end = self.buf.find(b"\n", at + 1)
        if end < 0:
            return None
        try:
            got_seq, kind_back, body_back = frames.decode(self.buf[at + 1 : end])
        except frames.FrameError:
            return None
        return (at, body_back) if got_seq == seq and kind_back == "ERR" else None


def stream_size(n):
    """Bytes on the wire after a BIN frame announcing n bytes: the chunks and their CRCs
    (box/link.py Stream: CHUNK bytes, the last one shorter, each followed by its CRC-32)."""
    return n + 4 * ((n + frames.CHUNK - 1) // frames.CHUNK)


def unchunk(raw, n):
    """The bytes of a stream announcing n bytes (raw: what arrived after its BIN frame, at
    most stream_size(n)), up to the first chunk that is missing or fails its CRC."""
    out = bytearray()
    pos = 0
    while len(out) < n:
        k = min(frames.CHUNK, n - len(out))
        if pos + k + 4 > len(raw):
            break
        data = raw[pos : pos + k]
        if binascii.crc32(data) != int.from_bytes(raw[pos + k : pos + k + 4], "big"):
            break
        out += data
        pos += k + 4
    return bytes(out)
