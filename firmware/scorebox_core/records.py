"""The journal's bytes: record framing, CRC-16 and a compact value encoding (docs/journal.md).

Pure code, no I/O: the box writes with it on MicroPython and the PC reads the same
bytes with it on CPython, so the two cannot disagree.

A record is

    head      1 byte: type << 4 | n, n = payload length 0-14; n = 15: a varint length follows
    [length]  unsigned varint (7 bits a byte, low first), only when n = 15
    payload   the bytes the type defines
    crc       of head, length and payload: for a payload of 0-2 bytes one byte, CRC-8
              (poly 0x07, init 0xFF); longer, two bytes big-endian, CRC-16/CCITT-FALSE
              (poly 0x1021, init 0xFFFF)

An arrow is one 3-byte record: head 0x31, the event byte, the CRC-8. CRC-8 detects every
error of up to 3 bits in so short a record; longer records get the stronger CRC-16.
"""

import binascii
from array import array

# Record types (the head's high nibble). 0 and 11-15 are never written, so an erased (0xFF)
# or zeroed stretch of flash is never taken for a record.
GROUP = 1  # first record of a journal file: MAGIC, format VERSION, first match number
MATCH = 2  # match header: number, then a value (dict from the app)
EVENT = 3  # one rules-core event: 1 byte (< 256: an arrow) or 2 bytes big-endian
RESULT = 4  # the match's result: a value (dict from the app)
CONFIRM = 5  # one side confirmed the result: 1 byte, 0 = A, 1 = B
NOTE = 6  # anything the app wants kept with the match: a value
FACE = 7  # the face on the boss (TTB-16), outside a match header: a value
ACK = 8  # the acknowledgement file's state: a value
QUARANTINE = 9  # bytes set aside: offset varint, file name value, then the raw bytes
GAP = 10  # where damaged bytes were set aside: their offset and length (varints)
DAMAGE = 0  # not a record: what scan() reports for a stretch it could not read
# A journal file on FAT is made at full size with this many 0xFF bytes before and after its
# records (box/fat/group.py): a run of 0xFF at least this long at a file's start or end is
# that erased flash, not damage. A shorter one (erased bytes where records were: a wiped
# block, a LittleFS file's torn tail) is damage, set aside like any other.
ERASED_PAD = 4096

NAMES = ("damage", "group", "match", "event", "result", "confirm", "note", "face", "ack", "quarantine", "gap")

MAGIC = b"TTBJ"
VERSION = 1
MAX_PAYLOAD = 2048
MAX_RECORD = MAX_PAYLOAD + 5  # head, 2-byte length varint, payload, crc
SHORT = 2  # payloads up to this long get a CRC-8
MAX_DEPTH = 8  # nesting of lists and dicts in a value


class FormatError(ValueError):
    pass


# --- CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) ------------
def _table():
    t = array("H", bytes(512))  # 512 bytes, where a list of ints takes 1-2 KB
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = (c << 1) ^ 0x1021 if c & 0x8000 else c << 1
        t[i] = c & 0xFFFF
    return t


_CRC = _table()


# CPython has this very CRC in C (CRC-CCITT from the given init); MicroPython has not.
_hqx = getattr(binascii, "crc_hqx", None)


def crc16(data, crc=0xFFFF):
    if _hqx is not None:
        return _hqx(data, crc)
    t = _CRC
    for b in data:
        crc = (crc << 8 & 0xFF00) ^ t[crc >> 8 ^ b]
    return crc


# --- CRC-8 (poly 0x07, init 0xFF, no reflection, no final xor) -------------------------------
def _table8():
    t = bytearray(256)
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c << 1) ^ 0x107 if c & 0x80 else c << 1
        t[i] = c
    return bytes(t)


_CRC8 = _table8()


def crc8(data, crc=0xFF):
    t = _CRC8
    for b in data:
        crc = t[crc ^ b]
    return crc


ARROW_HEAD = EVENT << 4 | 1
ARROW_CRC = bytes(crc8(bytes((ARROW_HEAD, e))) for e in range(256))  # CRC-8 of each arrow record


# --- varints ----------------------------------------------------------------------------
def put_uvarint(out, n):
    if n < 0:
        raise ValueError("negative varint")
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)


def get_uvarint(buf, pos, end):
    n = 0
    shift = 0
    while True:
        if pos >= end or shift > 63:
            raise FormatError("bad varint")
        b = buf[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if not b & 0x80:
            return n, pos
        shift += 7


# --- values -----------------------------------------------------------------------------
# A value is None, bool, int, float, str, bytes, or a list/tuple/dict of values. Tags:
#   0x00-0x3F  int 0-63                0x40-0x7F  atom: ATOMS[tag - 0x40]
#   0x80-0x9F  str of 0-31 bytes       0xA0-0xAF  list of 0-15 values
#   0xB0-0xBF  dict of 0-15 pairs      0xC0 None, 0xC1 False, 0xC2 True
#   0xC3 int >= 64 (uvarint)           0xC4 int < 0 (uvarint of -1 - n)
#   0xC5 str (uvarint length)          0xC6 list (uvarint count)   0xC7 dict (uvarint count)
#   0xC8 float, kept to 1/1000: zigzag uvarint of round(x * 1000)  0xC9 bytes (uvarint length)
# Tuples come back as lists, floats with 3 decimals. ATOMS may only ever be appended to.
ATOMS = (
    "options",  # 0x40
    "archers",
    "distance",
    "unit",
    "shaft_mm",
    "face",
    "games",
    "arrows",
    "mode",  # 0x48
    "net",
    "hard5",
    "claim_a",
    "claim_b",
    "arrows_a",
    "arrows_b",
    "flips",
    "equal_turns",  # 0x50
    "rounds",
    "face_games",
    "clock",
    "winner",
    "wins",
    "draws",
    "reason",
    "A",  # 0x58
    "B",
    "draw",
    "line",
    "dead board",
    "round limit",
    "abandoned",
    "yd",
    "m",  # 0x60
    "number",
    "next",
    "floor",
    "acked",
    "note",
    "time",
    "names",
)
_ATOM = {}
for _i in range(len(ATOMS)):
    _ATOM[ATOMS[_i]] = 0x40 + _i


def put_value(out, v, depth=0):
    if depth > MAX_DEPTH:
        raise ValueError("value nested too deep")
    if v is None:
        out.append(0xC0)
    elif v is True:
        out.append(0xC2)
    elif v is False:
        out.append(0xC1)
    elif isinstance(v, int):
        if 0 <= v < 64:
            out.append(v)
        elif v >= 64:
            out.append(0xC3)
            put_uvarint(out, v)
        else:
            out.append(0xC4)
            put_uvarint(out, -1 - v)
    elif isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError("cannot store %r" % v)
        m = int(round(v * 1000))
        out.append(0xC8)
        put_uvarint(out, m << 1 if m >= 0 else (-m << 1) - 1)
    elif isinstance(v, str):
        a = _ATOM.get(v)
        if a is not None:
            out.append(a)
            return
        b = v.encode()
        if len(b) < 32:
            out.append(0x80 | len(b))
        else:
            out.append(0xC5)
            put_uvarint(out, len(b))
        out.extend(b)
    elif isinstance(v, (bytes, bytearray)):
        out.append(0xC9)
        put_uvarint(out, len(v))
        out.extend(v)
    elif isinstance(v, (list, tuple)):
        if len(v) < 16:
            out.append(0xA0 | len(v))
        else:
            out.append(0xC6)
            put_uvarint(out, len(v))
        for x in v:
            put_value(out, x, depth + 1)
    elif isinstance(v, dict):
        if len(v) < 16:
            out.append(0xB0 | len(v))
        else:
            out.append(0xC7)
            put_uvarint(out, len(v))
        for k in v:
            put_value(out, k, depth + 1)
            put_value(out, v[k], depth + 1)
    else:
        raise ValueError("cannot store a %s" % type(v).__name__)


def get_value(buf, pos, end, depth=0):
    """(value, next pos) from buf[pos:end]; FormatError (a ValueError) when malformed."""
    if pos >= end:
        raise FormatError("value cut short")
    if depth > MAX_DEPTH:
        raise FormatError("value nested too deep")
    t = buf[pos]
    pos += 1
    if t < 0x40:
        return t, pos
    if t < 0x80:
        i = t - 0x40
        if i >= len(ATOMS):
            raise FormatError("unknown atom")
        return ATOMS[i], pos
    if t < 0xA0:
        return _str(buf, pos, t & 31, end)
    if t < 0xB0:
        return _list(buf, pos, t & 15, end, depth)
    if t < 0xC0:
        return _dict(buf, pos, t & 15, end, depth)
    if t == 0xC0:
        return None, pos
    if t == 0xC1:
        return False, pos
    if t == 0xC2:
        return True, pos
    if t > 0xC9:
        raise FormatError("unknown value tag")
    n, pos = get_uvarint(buf, pos, end)
    if t == 0xC3:
        return n, pos
    if t == 0xC4:
        return -1 - n, pos
    if t == 0xC5:
        return _str(buf, pos, n, end)
    if t == 0xC6:
        return _list(buf, pos, n, end, depth)
    if t == 0xC7:
        return _dict(buf, pos, n, end, depth)
    if t == 0xC8:
        m = -((n + 1) >> 1) if n & 1 else n >> 1
        return m / 1000, pos
    if pos + n > end:
        raise FormatError("bytes cut short")
    return bytes(buf[pos : pos + n]), pos + n


def _str(buf, pos, n, end):
    if pos + n > end:
        raise FormatError("string cut short")
    try:
        return str(bytes(buf[pos : pos + n]), "utf-8"), pos + n
    except UnicodeError:
        raise FormatError("bad utf-8")


def _list(buf, pos, n, end, depth):
    if n > end - pos:
        raise FormatError("list cut short")
    out = []
    for _ in range(n):
        v, pos = get_value(buf, pos, end, depth + 1)
        out.append(v)
    return out, pos


def _dict(buf, pos, n, end, depth):
    if 2 * n > end - pos:
        raise FormatError("dict cut short")
    out = {}
    for _ in range(n):
        k, pos = get_value(buf, pos, end, depth + 1)
        if isinstance(k, (list, dict)):
            raise FormatError("bad dict key")
        v, pos = get_value(buf, pos, end, depth + 1)
        out[k] = v
    return out, pos


def value_bytes(v):
    out = bytearray()
    put_value(out, v)
    return out


# --- records ----------------------------------------------------------------------------
def record(rtype, payload):
    """The bytes of one record."""
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("record too long (%d bytes, at most %d)" % (n, MAX_PAYLOAD))
    out = bytearray()
    if n < 15:
        out.append(rtype << 4 | n)
    else:
        out.append(rtype << 4 | 15)
        put_uvarint(out, n)
    out.extend(payload)
    if n <= SHORT:
        out.append(crc8(out))
        return out
    c = crc16(out)
    out.append(c >> 8)
    out.append(c & 0xFF)
    return out


def group_record(first):
    p = bytearray(MAGIC)
    p.append(VERSION)
    put_uvarint(p, first)
    return record(GROUP, p)


def match_record(number, header):
    p = bytearray()
    put_uvarint(p, number)
    put_value(p, header)
    return record(MATCH, p)


def event_record(ev):
    if not isinstance(ev, int) or ev is True or ev is False or not 0 <= ev < 0x10000:
        raise ValueError("an event is an int 0-65535, not %r" % (ev,))
    if ev < 256:
        return record(EVENT, bytes((ev,)))
    return record(EVENT, bytes((ev >> 8, ev & 0xFF)))


def value_record(rtype, v):
    return record(rtype, value_bytes(v))


def confirm_record(side):
    return record(CONFIRM, bytes((side,)))


def quarantine_records(name, offset, data):
    """Records that keep data (bytes read at offset of file name) in the quarantine file,
    in pieces of at most 1 KiB."""
    out = bytearray()
    i = 0
    while True:
        piece = data[i : i + 1024]
        p = bytearray()
        put_uvarint(p, offset + i)
        put_value(p, name)
        p.extend(piece)
        out.extend(record(QUARANTINE, p))
        i += 1024
        if i >= len(data):
            return out


def gap_record(offset, length):
    p = bytearray()
    put_uvarint(p, offset)
    put_uvarint(p, length)
    return record(GAP, p)


def decode(rtype, buf, a, b):
    """The value a record of type rtype carries in buf[a:b]; FormatError when malformed."""
    if rtype == EVENT:
        if b - a == 1:
            return buf[a]
        if b - a == 2 and buf[a]:
            return buf[a] << 8 | buf[a + 1]
        raise FormatError("bad event")
    if rtype == CONFIRM:
        if b - a != 1 or buf[a] > 1:
            raise FormatError("bad confirmation")
        return buf[a]
    if rtype == MATCH:
        n, pos = get_uvarint(buf, a, b)
        v, pos = get_value(buf, pos, b)
        if pos != b or not isinstance(v, dict):
            raise FormatError("bad match header")
        return n, v
    if rtype == GROUP:
        if b - a < 6 or bytes(buf[a : a + 4]) != MAGIC:
            raise FormatError("not a journal file")
        if buf[a + 4] != VERSION:
            raise FormatError("journal format %d, this reads %d" % (buf[a + 4], VERSION))
        n, pos = get_uvarint(buf, a + 5, b)
        if pos != b:
            raise FormatError("bad group record")
        return n
    if rtype == GAP:
        off, pos = get_uvarint(buf, a, b)
        n, pos = get_uvarint(buf, pos, b)
        if pos != b:
            raise FormatError("bad gap record")
        return off, n
    if rtype == QUARANTINE:
        off, pos = get_uvarint(buf, a, b)
        name, pos = get_value(buf, pos, b)
        return off, name, bytes(buf[pos:b])
    if rtype in (RESULT, NOTE, FACE, ACK):
        v, pos = get_value(buf, a, b)
        if pos != b:
            raise FormatError("bad %s record" % NAMES[rtype])
        return v
    raise FormatError("unknown record type")


def parse(buf, pos, end):
    """The record at buf[pos:end]: (rtype, value, next pos), or None when there is none
    (wrong head, cut short, CRC mismatch, malformed payload)."""
    if pos >= end:
        return None
    h = buf[pos]
    if h == ARROW_HEAD and pos + 3 <= end and buf[pos + 2] == ARROW_CRC[buf[pos + 1]]:
        return EVENT, buf[pos + 1], pos + 3  # most records: one arrow, its CRC from a table
    rtype = h >> 4
    if rtype < GROUP or rtype > GAP:
        return None
    n = h & 15
    a = pos + 1
    if n == 15:
        try:
            n, a = get_uvarint(buf, a, min(end, a + 2))
        except ValueError:
            return None
        if n < 15 or n > MAX_PAYLOAD:
            return None
    b = a + n
    if n <= SHORT:
        if b + 1 > end or buf[b] != crc8(memoryview(buf)[pos:b]):
            return None
        nxt = b + 1
    else:
        if b + 2 > end:
            return None
        c = crc16(memoryview(buf)[pos:b])
        if buf[b] != c >> 8 or buf[b + 1] != c & 0xFF:
            return None
        nxt = b + 2
    try:
        v = decode(rtype, buf, a, b)
    except Exception:  # any malformed payload is damage, never a crash
        return None
    return rtype, v, nxt


def scan(read, start=0):
    """Every record of a file, in order: yields (offset, end, rtype, value). A stretch that
    holds no valid record comes out as (offset, end, DAMAGE, None); reading resumes at the
    next valid record, so one bad record loses only itself. A stretch of ERASED_PAD or more
    0xFF bytes from `start` or to the end is erased flash, not damage (a journal file made at
    full size on FAT: box/fat/group.py). read(n) -> bytes gives the file's bytes from `start` on ('' or
    b'' at the end)."""
    buf = b""
    base = start  # file offset of buf[0]
    pos = start
    eof = False
    bad = -1
    erased = True  # the stretch in bad is all 0xFF
    while True:
        if not eof and base + len(buf) - pos < MAX_RECORD:
            more = read(512)
            if more:
                buf = buf[pos - base :] + more
                base = pos
                continue
            eof = True
        end = len(buf)
        i = pos - base
        if i >= end:
            break
        r = parse(buf, i, end)
        if r is None:
            if bad < 0:
                bad = pos
                erased = True
            if buf[i] == 0xFF:  # no record starts with 0xFF: a run of them at once, not a byte a turn
                pos += end - i - len(buf[i:end].lstrip(b"\xff"))
                continue
            erased = False
            pos += 1
            continue
        if bad >= 0 and not (erased and bad == start and pos - bad >= ERASED_PAD):
            yield bad, pos, DAMAGE, None
        bad = -1
        yield pos, r[2] - i + pos, r[0], r[1]
        pos += r[2] - i
    if bad >= 0 and not (erased and pos - bad >= ERASED_PAD):
        yield bad, pos, DAMAGE, None


def scan_bytes(data, start=0):
    """scan() over bytes already in memory (the PC reads whole files)."""
    state = [start]

    def read(n):
        a = state[0]
        state[0] = a + n
        return data[a : a + n]

    return scan(read, start)
