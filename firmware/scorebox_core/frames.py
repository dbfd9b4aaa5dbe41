"""Sync protocol frames (docs/sync.md), shared by the box and the PC.

A frame is one line of printable ASCII, so that it is binary-safe over any serial link
and never holds the REPL's control bytes (Ctrl-C, Ctrl-D):

    ~SB1 <seq> <kind> <body: base64> <crc: 8 hex digits>\\n

`seq` is 0-65535 and a reply repeats its request's. `kind` is a request (HELLO, LIST,
READ, ACK, SPACE, NAMES, ROSTER, GET, SET) or a reply: OK, ERR and BIN carry JSON. The CRC-32
(binascii.crc32: in C on the Pico and the PC) covers everything before it, the space
included. Pure code: MicroPython and CPython.

A READ is answered by a BIN frame, {"length": n}, followed by the n
bytes as they are, in chunks of CHUNK bytes (the last one shorter), each followed by its
CRC-32 (4 bytes, big-endian): a damaged chunk is told by its CRC and read again from there
(written by box/link.py's Stream, read by the PC's scorebox/device/link.py).
"""

import binascii
import json

PREFIX = b"~SB"
VERSION = 1
MAX_LINE = 65536  # a reply line the PC takes
# What the box can hold on its heap (docs/sync.md "Sizes": measured on the 192 KB heap the
# app is tested on). A request line is decoded whole (about five copies of it at once), so
# it is kept short; replies are written in pieces (write()), and a READ's bytes a chunk at
# a time.
MAX_REQUEST = 2048  # bytes of one request line, newline excluded
PIECE = 768  # bytes base64-encoded at a time by write(): a multiple of 3
MAX_STREAM = 65536  # bytes per READ (sent a chunk at a time: CHUNK bytes of the box's heap)
CHUNK = 4096  # bytes per chunk of a stream, each followed by its CRC-32
MAX_RUNS = 100  # runs of match numbers per LIST reply of ranges (about 1.5 KB of JSON)


class FrameError(ValueError):
    pass


def encode_raw(seq, kind, data):
    """One frame as bytes, with its newline; data: the body's bytes."""
    line = b"%s%d %d %s %s " % (PREFIX, VERSION, seq, kind.encode(), binascii.b2a_base64(data).strip())
    return line + (b"%08x\n" % binascii.crc32(line))


def encode(seq, kind, body):
    """A frame whose body is JSON (anything json.dumps takes)."""
    return encode_raw(seq, kind, json.dumps(body).encode())


def write(out, seq, kind, pieces):
    """Write one frame to out(bytes) in pieces, without holding it whole: the same bytes as
    encode_raw. pieces: the body's bytes as bytes-like pieces, each but the last a multiple
    of 3 bytes long (so that their base64 joins up)."""
    head = b"%s%d %d %s " % (PREFIX, VERSION, seq, kind.encode())
    crc = binascii.crc32(head)
    out(head)
    for piece in pieces:
        b64 = binascii.b2a_base64(piece, newline=False)
        crc = binascii.crc32(b64, crc)
        out(b64)
    out(b" %08x\n" % binascii.crc32(b" ", crc))


def split(data):
    """data (bytes) as pieces for write()."""
    mv = memoryview(data)
    return (mv[i : i + PIECE] for i in range(0, len(data), PIECE))


def write_json(out, seq, kind, body):
    """write() a frame whose body is JSON."""
    write(out, seq, kind, split(json.dumps(body).encode()))


def decode(line):
    """(seq, kind, body) of one frame line: body is the JSON value.
    FrameError says what is wrong; a frame of another protocol version is an error too."""
    line = line.strip()
    if not line.startswith(PREFIX):
        raise FrameError("not a frame")
    head, sep, crc = line.rpartition(b" ")
    if not sep or len(crc) != 8:
        raise FrameError("frame has no CRC")
    try:
        want = int(crc, 16)
    except ValueError:
        raise FrameError("frame CRC is not hex")
    if binascii.crc32(head + b" ") != want:
        raise FrameError("frame CRC mismatch")
    parts = head.split(b" ")
    if len(parts) != 4:
        raise FrameError("frame has %d fields, not 4" % len(parts))
    if parts[0] != b"%s%d" % (PREFIX, VERSION):
        v = parts[0][3:]
        raise FrameError(
            "protocol %s not supported (this side speaks %d)" % (v.decode() if v.isdigit() else "?", VERSION)
        )
    # A valid CRC proves only that the bytes arrived as sent: anything inside may still be
    # wrong (a kind that is not ASCII, a body nested too deep for the box's heap), and
    # every such failure must end here as a FrameError, never in the app loop.
    try:
        kind = parts[2].decode()
        seq = int(parts[1])
        data = binascii.a2b_base64(parts[3])
        body = json.loads(data)
    except Exception as e:  # ValueError, UnicodeError, MemoryError, RuntimeError (recursion)
        raise FrameError("frame body is not base64 JSON (%s)" % type(e).__name__)
    return seq, kind, body


def runs(numbers):
    """Match numbers as sorted runs [first, last] (an ACK takes one run)."""
    out = []  # type: list
    for n in sorted(numbers):
        if out and n <= out[-1][1] + 1:
            out[-1][1] = n  # sorted: never below the run's end
        else:
            out.append([n, n])
    return out
