"""Sync protocol frames (docs/sync.md), shared by the box and the PC.

A frame is one line of printable ASCII, so that it is binary-safe over any serial link
and never holds the REPL's control bytes (Ctrl-C, Ctrl-D):

    ~SB1 <seq> <kind> <body: base64> <crc: 4 hex digits>\\n

`seq` is 0-65535 and a reply repeats its request's; `kind` is a request name (HELLO,
LIST, READ, ACK, CLOCK, ROSTER, GET, SET) or OK / ERR in a reply; the body is JSON. The CRC-16/CCITT
covers everything before it, the space included. Pure code: MicroPython and CPython.
"""

import binascii
import json

from box.records import crc16

PREFIX = b"~SB"
VERSION = 1
MAX_LINE = 65536


class FrameError(ValueError):
    pass


def encode(seq, kind, body):
    """One frame as bytes, with its newline. body: anything JSON can carry."""
    data = json.dumps(body).encode()
    b64 = binascii.b2a_base64(data).strip()
    line = b"%s%d %d %s %s " % (PREFIX, VERSION, seq, kind.encode(), b64)
    return line + (b"%04x\n" % crc16(line))


def decode(line):
    """(seq, kind, body) of one frame line (without or with its newline); FrameError
    says what is wrong. A frame of another protocol version is an error too."""
    line = line.strip()
    if not line.startswith(PREFIX):
        raise FrameError("not a frame")
    head, sep, crc = line.rpartition(b" ")
    if not sep or len(crc) != 4:
        raise FrameError("frame has no CRC")
    try:
        want = int(crc, 16)
    except ValueError:
        raise FrameError("frame CRC is not hex")
    if crc16(head + b" ") != want:
        raise FrameError("frame CRC mismatch")
    parts = head.split(b" ")
    if len(parts) != 4:
        raise FrameError("frame has %d fields, not 4" % len(parts))
    if parts[0] != b"%s%d" % (PREFIX, VERSION):
        raise FrameError("protocol %s not supported (this side speaks %d)" % (parts[0][3:].decode(), VERSION))
    try:
        seq = int(parts[1])
        body = json.loads(binascii.a2b_base64(parts[3]))
    except ValueError:
        raise FrameError("frame body is not base64 JSON")
    return seq, parts[2].decode(), body
