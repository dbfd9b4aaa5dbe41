"""The journal's record format (firmware/scorebox_core/records.py, docs/journal.md) to the
byte, where `make mutate` found behaviour the round-trip tests cannot see (issue 21, item 16):
a value encoded in another form still reads back, but the box's files and the PC's reader
must agree on the bytes. Also the CRC-16 table the box uses (MicroPython has no
binascii.crc_hqx, so CPython's tests never ran it), the nesting limit at its boundary and
what each malformed payload is called."""

import binascii
import random

import pytest

from scorebox_core import records as R

# docs/journal.md's value tags: each value and its exact bytes, at every form's boundary.
ENCODED = [
    (0, "00"),
    (63, "3f"),  # the last one-byte int
    (64, "c340"),  # uvarint from here
    (-1, "c400"),  # uvarint of -1 - n
    (-129, "c48001"),
    (None, "c0"),
    (False, "c1"),
    (True, "c2"),
    (1.5, "c8b817"),  # zigzag of 1500
    (-1.5, "c8b717"),
    ("options", "40"),  # ATOMS[0]
    ("names", "67"),  # the last atom so far
    ("", "80"),
    ("a" * 31, "9f" + "61" * 31),  # the last short str
    ("a" * 32, "c520" + "61" * 32),
    (b"ab", "c9026162"),
    ([], "a0"),
    ([0] * 15, "af" + "00" * 15),  # the last short list
    ([0] * 16, "c610" + "00" * 16),
    ({}, "b0"),
    ({i: 0 for i in range(15)}, "bf" + "".join("%02x00" % i for i in range(15))),
    ({i: 0 for i in range(16)}, "c710" + "".join("%02x00" % i for i in range(16))),
]


@pytest.mark.parametrize("value,hexed", ENCODED, ids=[repr(v)[:20] for v, _ in ENCODED])
def test_each_value_has_its_bytes(value, hexed):
    raw = bytes.fromhex(hexed)
    assert bytes(R.value_bytes(value)) == raw
    assert R.get_value(raw, 0, len(raw)) == (value, len(raw))


def nested(k):
    """1 inside k lists."""
    v = 1
    for _ in range(k):
        v = [v]
    return v


def test_values_nest_max_depth_deep_and_no_deeper():
    assert R.MAX_DEPTH == 8
    assert R.get_value(R.value_bytes(nested(8)), 0, 99)[0] == nested(8)
    with pytest.raises(ValueError, match="nested too deep"):
        R.value_bytes(nested(9))
    raw = b"\xa1" * 9 + b"\x01"  # nine one-item lists, hand-made
    with pytest.raises(R.FormatError, match="nested too deep"):
        R.get_value(raw, 0, len(raw))
    assert R.get_value(raw[1:], 0, len(raw) - 1)[0] == nested(8)


MALFORMED = {
    "nothing": (b"", "value cut short"),
    "unknown atom": (b"\x7f", "unknown atom"),
    "unknown tag": (b"\xca", "unknown value tag"),
    "str cut short": (b"\x85abc", "string cut short"),
    "bad utf-8": (b"\x82\xc3\x28", "bad utf-8"),
    "list cut short": (b"\xa5\x01", "list cut short"),
    "long list cut short": (b"\xc6\xff\xff\x03\x01", "list cut short"),
    "dict cut short": (b"\xb2\x01\x02", "dict cut short"),
    "bytes cut short": (b"\xc9\x05ab", "bytes cut short"),
    "a list as a dict key": (b"\xb1\xa0\x00", "bad dict key"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_value_says_what_is_wrong(name):
    raw, why = MALFORMED[name]
    with pytest.raises(R.FormatError, match=why):
        R.get_value(raw, 0, len(raw))


def test_the_crc16_table_the_box_uses_is_crc_ccitt(monkeypatch):
    """MicroPython has no binascii.crc_hqx: the box computes CRC-16 from the table."""
    monkeypatch.setattr(R, "_hqx", None)
    assert R.crc16(b"123456789") == 0x29B1
    rnd = random.Random(3)
    for n in (1, 2, 17, 300):
        data = bytes(rnd.randrange(256) for _ in range(n)) + b"\xff\x00\x80"
        assert R.crc16(data) == binascii.crc_hqx(data, 0xFFFF)
        assert R.crc16(data[3:], R.crc16(data[:3])) == binascii.crc_hqx(data, 0xFFFF)  # in pieces
    assert len(R._CRC) == 256 and all(R._CRC[i] == binascii.crc_hqx(bytes((i,)), 0) for i in range(256))


def test_each_record_type_reads_back_and_a_stray_byte_is_damage():
    cases = [
        (R.group_record(300), R.GROUP, 300),
        (R.match_record(7, {"game": "x"}), R.MATCH, (7, {"game": "x"})),
        (R.event_record(5), R.EVENT, 5),
        (R.event_record(0x1234), R.EVENT, 0x1234),
        (R.confirm_record(1), R.CONFIRM, 1),
        (R.value_record(R.RESULT, {"winner": "A"}), R.RESULT, {"winner": "A"}),
        (R.gap_record(1000, 20), R.GAP, (1000, 20)),
        (R.quarantine_records("g1.tbj", 40, b"xyz"), R.QUARANTINE, (40, "g1.tbj", b"xyz")),
    ]
    for rec, rtype, value in cases:
        assert R.parse(rec, 0, len(rec)) == (rtype, value, len(rec))
        # The same payload one byte longer (its CRC right) is malformed: damage, not a value.
        head = rec[0]
        if head & 15 < 14 and rtype not in (R.QUARANTINE, R.EVENT):  # an event may be two bytes
            payload = bytes(rec[1 : 1 + (head & 15)]) + b"\x00"
            longer = R.record(rtype, payload)
            assert R.parse(longer, 0, len(longer)) is None, (rtype, bytes(longer))


def test_bad_events_confirmations_and_group_records_are_refused():
    for rtype, payload in (
        (R.EVENT, b"\x00\x05"),  # a two-byte event below 256
        (R.EVENT, b""),
        (R.CONFIRM, b"\x02"),
        (R.GROUP, b"TTBX\x01\x01"),  # not the magic
        (R.GROUP, b"TTBJ\x02\x01"),  # format 2
        (R.GROUP, b"TTBJ\x01"),  # no first match number
        (0xB, b"\x00"),  # a type never written
    ):
        rec = R.record(rtype, payload)
        assert R.parse(rec, 0, len(rec)) is None, (rtype, payload)
    with pytest.raises(R.FormatError, match="journal format 2, this reads 1"):
        R.decode(R.GROUP, b"TTBJ\x02\x01", 0, 6)


@pytest.mark.parametrize("ev", [-1, 0x10000, True, 1.0])
def test_an_event_record_takes_ints_0_to_65535_only(ev):
    with pytest.raises(ValueError, match="an event is an int 0-65535"):
        R.event_record(ev)


def test_quarantine_keeps_data_in_pieces_of_1024_bytes():
    data = bytes(range(256)) * 8 + b"!"  # 2049 bytes: pieces of 1024, 1024, 1
    out = R.quarantine_records("g000001.tbj", 500, data)
    got = [v for _, _, t, v in R.scan_bytes(bytes(out)) if t == R.QUARANTINE]
    assert [(off, len(piece)) for off, _, piece in got] == [(500, 1024), (1524, 1024), (2548, 1)]
    assert b"".join(piece for _, _, piece in got) == data
    one = R.quarantine_records("q", 0, b"")
    assert [v for _, _, _, v in R.scan_bytes(bytes(one))] == [(0, "q", b"")]
