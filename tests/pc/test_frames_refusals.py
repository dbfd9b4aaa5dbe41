"""What the sync frames (firmware/scorebox_core/frames.py, docs/sync.md) refuse, on CPython
and in the PC's use of them, each size limit at its boundary, and the journal's varint
(firmware/scorebox_core/records.py) to the byte (issue 21, item 16: none of these was
pinned; the decoder's refusals ran only on MicroPython, in tests/mpy/frames_hostile.py).

The PC's side talks to a box over a real pseudo-terminal (tests/support/hostilebox.py):
a damaged reply is asked for again, a request the box could not hold is never sent."""

import binascii
import re

import pytest
from hostilebox import HostileBox, RawBox

from scorebox.device import link
from scorebox.sync.protocol import check_list, read_file
from scorebox_core import frames
from scorebox_core import records as R
from scorebox_core.frames import FrameError


def framed(head):
    """head (bytes, up to and without the space before the CRC) with its right CRC."""
    return head + b" %08x" % binascii.crc32(head + b" ")


def b64(data):
    return binascii.b2a_base64(data).strip()


GOOD = frames.encode(7, "OK", {"a": 1})


# --- the decoder --------------------------------------------------------------------------
def test_a_good_frame_round_trips():
    assert frames.decode(GOOD) == (7, "OK", {"a": 1})
    assert frames.decode(GOOD.strip()) == (7, "OK", {"a": 1})  # the newline is not needed
    assert GOOD == framed(b"~SB1 7 OK " + b64(b'{"a": 1}')) + b"\n"


REFUSED = {
    "not a frame": (b"SB1 7 OK e30= 00000000", "not a frame"),
    "REPL chatter": (b">>> print(1)", "not a frame"),
    "no CRC at all": (b"~SB1", "frame has no CRC"),
    "CRC of 7 digits": (GOOD.strip()[:-1], "frame has no CRC"),
    "CRC of 9 digits": (GOOD.strip() + b"0", "frame has no CRC"),
    "CRC not hex": (GOOD.strip()[:-8] + b"zzzzzzzz", "frame CRC is not hex"),
    "CRC off by one": (GOOD.strip()[:-8] + b"%08x" % (int(GOOD.strip()[-8:], 16) ^ 1), "frame CRC mismatch"),
    "one bit of the body flipped": (GOOD.replace(b" 7 ", b" 6 "), "frame CRC mismatch"),
    "three fields": (framed(b"~SB1 7 OK"), "frame has 3 fields, not 4"),
    "five fields": (framed(b"~SB1 7 OK e30= e30="), "frame has 5 fields, not 4"),
    "frame version 9": (framed(b"~SB9 7 OK e30="), "protocol 9 not supported (this side speaks %d)" % frames.VERSION),
    "protocol 10": (framed(b"~SB10 7 OK e30="), "protocol 10 not supported"),
    "protocol not a number": (framed(b"~SBx 7 OK e30="), "protocol ? not supported"),
    "body not base64": (framed(b"~SB1 7 OK e30"), "not base64 JSON (Error)"),
    "body base64 of not JSON": (framed(b"~SB1 7 OK " + b64(b"{nope")), "not base64 JSON (JSONDecodeError)"),
    "seq not a number": (framed(b"~SB1 x OK e30="), "not base64 JSON (ValueError)"),
    "kind not ASCII": (framed(b"~SB1 7 \xc3 e30="), "not base64 JSON (UnicodeDecodeError)"),
    "a body not base64": (framed(b"~SB1 7 OK e30"), "not base64 JSON (Error)"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_decoder_refuses(name):
    line, why = REFUSED[name]
    with pytest.raises(FrameError, match=re.escape(why)):
        frames.decode(line)


def test_a_crc_only_has_to_be_right_not_of_one_case():
    line = GOOD.strip()
    assert frames.decode(line[:-8] + line[-8:].upper()) == (7, "OK", {"a": 1})


# --- writing in pieces ------------------------------------------------------------------
@pytest.mark.parametrize("n", [0, 1, 2, 3, frames.PIECE - 1, frames.PIECE, frames.PIECE + 1, 3 * frames.PIECE + 2])
def test_write_in_pieces_gives_the_bytes_of_encode_raw(n):
    data = bytes(range(256)) * (n // 256 + 1)
    data = data[:n]
    out = []
    frames.write(out.append, 9, "OK", frames.split(data))
    assert b"".join(out) == frames.encode_raw(9, "OK", data)


def test_split_cuts_pieces_of_piece_bytes_a_multiple_of_3():
    assert frames.PIECE % 3 == 0
    pieces = [bytes(p) for p in frames.split(bytes(2 * frames.PIECE + 5))]
    assert [len(p) for p in pieces] == [frames.PIECE, frames.PIECE, 5]
    assert list(frames.split(b"")) == []


def test_write_json_gives_the_bytes_of_encode():
    body = {"matches": list(range(1, 400)), "more": True}
    out = []
    frames.write_json(out.append, 3, "OK", body)
    assert b"".join(out) == frames.encode(3, "OK", body)


# --- the PC's side: damaged replies are asked for again -----------------------------------
class DamagedFirst(RawBox):
    """Answers the first request with `damaged` (raw bytes) and a resend with a good OK."""

    def __init__(self, damaged):
        self.damaged = damaged
        self.requests = []
        super().__init__(self._answer)

    def _answer(self, seq, kind, body):
        self.requests.append(seq)
        if len(self.requests) == 1:
            return self.damaged(seq) + b"\n"
        return frames.encode(seq, "OK", {"device": "v-good"})


def bad(seq):
    """A reply frame to seq, newline excluded."""
    return frames.encode(seq, "OK", {"device": "v-bad"})[:-1]


DAMAGED = {
    "bad CRC": lambda seq: bad(seq)[:-8] + b"%08x" % (int(bad(seq)[-8:], 16) ^ 0x10),
    "missing CRC": lambda seq: bad(seq)[:-9],
    "CRC not hex": lambda seq: bad(seq)[:-8] + b"zzzzzzzz",
    "frame version 9": lambda seq: framed(b"~SB9 %d OK %s" % (seq, b64(b"{}"))),
    "body not base64 JSON": lambda seq: framed(b"~SB1 %d OK %s" % (seq, b64(b"[1, 2"))),
}


@pytest.mark.parametrize("name", sorted(DAMAGED))
def test_the_pc_asks_again_for_a_damaged_reply(name):
    box = DamagedFirst(DAMAGED[name])
    ser = link.open_port(box.port)
    try:
        client = link.Client(ser, timeout=2.0, retries=2)
        assert client.request("HELLO") == {"device": "v-good"}
        # the same request sent again: the sequence number the box saw twice is the PC's one
        assert client.resent == 1 and box.requests == [client.seq, client.seq]
    finally:
        ser.close()
        box.close()


# --- each size limit at its boundary --------------------------------------------------------
def request_of(size):
    """(kind, body) of a request whose frame, newline excluded, is `size` bytes with seq 1."""
    for kind in ("ACK", "LIST", "READ", "NAMES", "ROSTER"):
        for pad in range(size):
            body = {"pad": "x" * pad}
            n = len(frames.encode(1, kind, body)) - 1
            if n == size:
                return kind, body
            if n > size:
                break
    raise AssertionError("no request of %d bytes" % size)


def answer_ok(kind, body):
    return "OK", {"device": "v-ok"}


@pytest.mark.parametrize("size", [2048, 2049])  # MAX_REQUEST, docs/sync.md "Sizes"
def test_a_request_the_box_cannot_hold_is_never_sent(size, monkeypatch):
    # The next sequence number is 1 (it starts at random, link.Sequence): request_of sizes for 1.
    monkeypatch.setattr(link.SEQUENCE, "last", 0)
    got = []
    box = HostileBox(lambda kind, body: got.append(kind) or answer_ok(kind, body))
    ser = link.open_port(box.port)
    try:
        client = link.Client(ser, timeout=2.0, retries=0)
        kind, body = request_of(size)
        if size == 2048:
            assert client.request(kind, body) == {"device": "v-ok"} and got == [kind]
        else:
            with pytest.raises(link.DeviceError, match="request of 2049 bytes is longer than a box takes"):
                client.request(kind, body)
            assert got == []
    finally:
        ser.close()
        box.close()


def test_a_list_of_max_runs_runs_is_taken_one_more_is_not():
    full = {"ranges": [[n, n] for n in range(1, 2 * frames.MAX_RUNS, 2)], "files": [], "more": True}
    assert len(check_list(full, 0, 0)["matches"]) == frames.MAX_RUNS
    over = dict(full, ranges=full["ranges"] + [[999, 999]])
    with pytest.raises(link.DeviceError, match="too many matches"):
        check_list(over, 0, 0)


def read_box(sizes, reply_len=None):
    """A box holding one file of bytes 0, 1, 2...; each READ's length goes to sizes."""

    def reply(kind, body):
        sizes.append(body["length"])
        n = body["length"] if reply_len is None else reply_len
        return "BIN", bytes(i % 251 for i in range(body["offset"], body["offset"] + n))

    return HostileBox(reply)


def test_a_file_is_read_in_pieces_of_max_stream_bytes():
    sizes = []
    box = read_box(sizes)
    ser = link.open_port(box.port)
    try:
        size = 2 * frames.MAX_STREAM + 1
        data = read_file(link.Client(ser, timeout=2.0, retries=0), "g000001.tbj", size)
        assert data == bytes(i % 251 for i in range(size))
        assert sizes == [frames.MAX_STREAM, frames.MAX_STREAM, 1]
    finally:
        ser.close()
        box.close()


@pytest.mark.parametrize("extra", [0, 1])
def test_a_read_reply_of_the_length_asked_is_taken_one_more_is_not(extra):
    sizes = []
    box = read_box(sizes, reply_len=12288 + extra)
    ser = link.open_port(box.port)
    try:
        client = link.Client(ser, timeout=2.0, retries=0)
        if extra:
            with pytest.raises(link.DeviceError, match=re.escape("not valid (length 12289)")):
                read_file(client, "g000001.tbj", 12288)
        else:
            assert len(read_file(client, "g000001.tbj", 12288)) == 12288
    finally:
        ser.close()
        box.close()


# --- the journal's varint, to the byte ----------------------------------------------------
VARINTS = [
    (0, b"\x00"),
    (1, b"\x01"),
    (127, b"\x7f"),
    (128, b"\x80\x01"),
    (129, b"\x81\x01"),
    (300, b"\xac\x02"),
    (16383, b"\xff\x7f"),
    (16384, b"\x80\x80\x01"),
    (2**63, b"\x80" * 9 + b"\x01"),
]


@pytest.mark.parametrize("n,raw", VARINTS, ids=[str(n) for n, _ in VARINTS])
def test_varint_bytes(n, raw):
    out = bytearray()
    R.put_uvarint(out, n)
    assert bytes(out) == raw
    buf = b"\xee" + raw + b"\xee"  # read from inside a buffer: the position counts
    assert R.get_uvarint(buf, 1, len(buf)) == (n, 1 + len(raw))


def test_an_over_long_or_cut_varint_is_refused():
    with pytest.raises(R.FormatError, match="bad varint"):
        R.get_uvarint(b"\x80" * 10 + b"\x01", 0, 11)  # an 11th byte: more than 64 bits
    with pytest.raises(R.FormatError, match="bad varint"):
        R.get_uvarint(b"\x80\x80", 0, 2)  # cut short
    with pytest.raises(R.FormatError, match="bad varint"):
        R.get_uvarint(b"\x80\x01", 0, 1)  # its end is where the caller's record ends
    with pytest.raises(ValueError, match="negative"):
        R.put_uvarint(bytearray(), -1)


def note_payload(n):
    """A NOTE record's payload of n bytes (15-2048): a bytes value, its tag and length first."""
    return R.value_bytes(b"y" * (n - 2 if n - 2 < 128 else n - 3))


def test_a_record_length_varint_at_its_boundaries():
    """Payloads of 14 bytes keep their length in the head; 15 to MAX_PAYLOAD (2,048) in a
    varint of at most two bytes; a long form for a short length, a longer length or a longer
    varint is damage."""
    for n, head in (
        (14, b"\x6e"),
        (15, b"\x6f\x0f"),
        (127, b"\x6f\x7f"),
        (128, b"\x6f\x80\x01"),
        (2048, b"\x6f\x80\x10"),
    ):
        payload = note_payload(n)
        assert len(payload) == n
        rec = R.record(R.NOTE, payload)
        assert bytes(rec[: len(head)]) == head and len(rec) == len(head) + n + 2
        assert R.parse(rec, 0, len(rec)) == (R.NOTE, R.get_value(payload, 0, n)[0], len(rec))
    with pytest.raises(ValueError, match="record too long"):
        R.record(R.NOTE, note_payload(2049))
    # Hand-made, each with its right CRC-16: 14 in the long form, 2049, a three-byte varint.
    for head in (b"\x6f\x0e", b"\x6f\x81\x10", b"\x6f\x8f\x80\x00"):
        body = bytearray(head) + note_payload(R.get_uvarint(head, 1, len(head))[0] or 15)
        c = R.crc16(body)
        rec = body + bytes((c >> 8, c & 0xFF))
        assert R.parse(rec, 0, len(rec)) is None
