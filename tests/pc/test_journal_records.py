"""The journal's record format under CPython (the PC side): CRCs, values, framing, and a
reader that reports damage and never crashes, whatever bytes it is given."""

import random
import zlib

import journal_support  # noqa: F401  (puts firmware/ on the path)
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from box.journal import Journal
from scorebox.sync.decode import decode_file, decode_records
from scorebox_core import records as R
from scorebox_core.games.ttb import rules
from scorebox_core.journal import EVENTS, EXTRAS, HEADER, NUMBER, Reader


def bitwise_crc16(data):
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = (crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1
        crc &= 0xFFFF
    return crc


def bitwise_crc8(data):
    crc = 0xFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc << 1) ^ 0x07 if crc & 0x80 else crc << 1
        crc &= 0xFF
    return crc


def test_crc_check_values():
    assert R.crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE
    assert R.crc8(b"123456789") == 0xFB  # poly 0x07, init 0xFF
    rnd = random.Random(1)
    for n in range(50):
        data = bytes(rnd.randrange(256) for _ in range(n))
        assert R.crc16(data) == bitwise_crc16(data)
        assert R.crc8(data) == bitwise_crc8(data)


def test_arrow_is_three_bytes_and_every_small_error_is_caught():
    for ev in range(256):
        rec = R.event_record(ev)
        assert len(rec) == 3 and rec[0] == 0x31
        assert R.parse(rec, 0, 3) == (R.EVENT, ev, 3)
        bits = [(i, 1 << b) for i in range(3) for b in range(8)]
        for i, m in bits:  # every 1-bit error
            bad = bytearray(rec)
            bad[i] ^= m
            assert R.parse(bad, 0, 3) is None or R.parse(bad, 0, 3)[1] != ev
        rnd = random.Random(ev)
        for _ in range(40):  # 2- and 3-bit errors
            bad = bytearray(rec)
            for i, m in rnd.sample(bits, rnd.choice((2, 3))):
                bad[i] ^= m
            assert R.parse(bad, 0, 3) is None, (ev, bytes(bad))
    assert len(R.event_record(256)) == 4 and R.parse(R.event_record(258), 0, 4)[1] == 258


values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.text(max_size=40)
    | st.binary(max_size=40)
    | st.integers(-(10**9), 10**9).map(lambda m: m / 1000)
    | st.sampled_from(R.ATOMS),
    lambda kids: (
        st.lists(kids, max_size=20) | st.dictionaries(st.text(max_size=10) | st.integers(0, 99), kids, max_size=20)
    ),
    max_leaves=30,
)


def depth(v):
    if isinstance(v, dict):
        return 1 + max([depth(x) for x in v.values()] + [0])
    if isinstance(v, list):
        return 1 + max([depth(x) for x in v] + [0])
    return 0


@given(values)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_values_round_trip(v):
    if depth(v) > R.MAX_DEPTH:
        with pytest.raises(ValueError):
            R.value_bytes(v)
        return
    b = R.value_bytes(v)
    got, end = R.get_value(b, 0, len(b))
    assert end == len(b)
    assert got == v
    if len(b) <= R.MAX_PAYLOAD:
        rec = R.value_record(R.NOTE, v)
        assert R.parse(rec, 0, len(rec)) == (R.NOTE, v, len(rec))


def test_values_that_cannot_be_stored():
    for bad in (float("nan"), float("inf"), object(), {1, 2}, [[[[[[[[[[1]]]]]]]]]]):
        with pytest.raises(ValueError):
            R.value_bytes(bad)
    with pytest.raises(ValueError):
        R.record(R.NOTE, b"x" * (R.MAX_PAYLOAD + 1))


def test_tuples_come_back_as_lists_and_floats_to_a_thousandth():
    assert R.get_value(R.value_bytes((1, (2, 3))), 0, 99)[0] == [1, [2, 3]]
    assert R.get_value(R.value_bytes(7.25), 0, 99)[0] == 7.25
    assert R.get_value(R.value_bytes(0.0004), 0, 99)[0] == 0.0
    assert R.get_value(R.value_bytes(-5.5), 0, 99)[0] == -5.5


def sample_journal(tmp_path, matches=12):
    """A journal written by the very code the box runs, on the host's file system."""
    from jt import typical, write

    j = Journal(str(tmp_path), group_bytes=10**6, reserve_blocks=0)
    j.recover()
    for seed in range(matches):
        write(j, *typical(seed))
    j.close()
    with open(tmp_path / "g000001.tbj", "rb") as f:
        return f.read()


def test_decode_file_reads_what_the_journal_wrote(tmp_path):
    from jt import typical

    data = sample_journal(tmp_path)
    got = decode_file(data)
    assert got["first"] == 1 and got["damage"] == [] and got["stray"] == 0
    assert len(got["matches"]) == 12
    for n, h, evs, x in got["matches"]:
        wh, wevs, wres = typical(n - 1)
        assert (h, evs, x["result"], x["confirmed"]) == (wh, wevs, wres, [True, True])
    assert len(data) / 12 < 220  # bytes a typical match takes in its file


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    return sample_journal(tmp_path_factory.mktemp("journal"), 6)


@given(data=st.data())
@settings(max_examples=250, deadline=None)
def test_damaged_bytes_never_crash_and_only_touch_their_match(clean, data):
    good = decode_file(clean)["matches"]
    buf, how, a = damaged(clean, data.draw)
    got = decode_file(buf, 1)
    if how in ("flip", "zero", "ff") and buf != clean:
        assert got["damage"], "damage not reported"
    # every match that lies wholly before the damage reads exactly as written
    for m in good:
        if m[EXTRAS]["end"] <= a:
            found = [x for x in got["matches"] if x[NUMBER] == m[NUMBER]]
            assert found and found[0][HEADER:EXTRAS] == m[HEADER:EXTRAS], m[NUMBER]
            assert found[0][EXTRAS]["result"] == m[EXTRAS]["result"]


@given(st.binary(max_size=3000))
@settings(max_examples=300)
def test_any_bytes_scan_without_crashing(blob):
    for off, end, t, _ in R.scan_bytes(blob):
        assert 0 <= off < end <= len(blob)
        assert t in range(len(R.NAMES))
    decode_file(blob)


def test_scan_resumes_after_damage():
    recs = [R.group_record(1), R.match_record(1, {"a": 1})] + [R.event_record(i) for i in range(4, 40)]
    data = bytearray(b"".join(bytes(r) for r in recs))
    damaged_at = len(recs[0]) + len(recs[1]) + 3 * 5  # the 6th arrow
    data[damaged_at + 1] ^= 0x04
    out = list(R.scan_bytes(bytes(data)))
    kinds = [t for _, _, t, _ in out]
    assert kinds.count(R.DAMAGE) == 1 and kinds.count(R.EVENT) == 35
    dmg = [o for o in out if o[2] == R.DAMAGE][0]
    assert dmg[0] == damaged_at and dmg[1] - dmg[0] == 3


def test_scan_reads_in_pieces_like_the_box():
    recs = [R.group_record(1)] + [R.value_record(R.NOTE, "x" * (i % 300)) for i in range(60)]
    data = b"".join(bytes(r) for r in recs)
    pieces = []
    pos = [0]

    def read(n):  # short reads, as a file may give
        k = min(n, 7)
        piece = data[pos[0] : pos[0] + k]
        pos[0] += k
        pieces.append(k)
        return piece

    got = [v for _, _, t, v in R.scan(read) if t == R.NOTE]
    assert got == ["x" * (i % 300) for i in range(60)]


def test_crc32_is_not_needed():
    """The format uses its own CRCs (the same on every port); zlib is only a cross-check
    that R.crc16 is not by accident a truncated CRC-32."""
    assert R.crc16(b"abc") != zlib.crc32(b"abc") & 0xFFFF


def test_read_only_journal_on_the_pc(tmp_path):
    sample_journal(tmp_path, 3)
    j = Reader(str(tmp_path))
    rep = j.recover()
    assert rep["matches"] == 3 and rep["damage"] == []
    assert j.list_matches() == [1, 2, 3]
    assert not hasattr(j, "start_match")  # the PC reads; only the box writes


def damaged(data, draw):
    """(data with one random kind of damage, the kind, where it starts)."""
    buf = bytearray(data)
    a = draw(st.integers(0, len(buf) - 1), "at")
    how = draw(st.sampled_from(["flip", "random", "zero", "ff", "cut", "drop"]), "how")
    n = draw(st.integers(1, 40), "length")
    if how == "cut":
        del buf[a:]
    elif how == "drop":
        del buf[a : a + n]
    elif how == "flip":
        buf[a] ^= 1 << draw(st.integers(0, 7), "bit")
    else:
        for i in range(a, min(a + n, len(buf))):
            buf[i] = {"random": draw(st.integers(0, 255)), "zero": 0, "ff": 0xFF}[how]
    return bytes(buf), how, a


@given(data=st.data())
@settings(max_examples=300, deadline=None)
def test_the_pc_decoder_reads_every_file_as_the_box_does(clean, data):
    """scorebox.decode takes arrow runs in bulk; it must agree with the record-by-record
    reader on clean files, damaged ones and arbitrary bytes."""
    assert decode_file(clean, 1) == decode_records(clean, 1)
    buf, _, _ = damaged(clean, data.draw)
    assert decode_file(buf, 1) == decode_records(buf, 1)
    blob = data.draw(st.binary(max_size=600), "blob")
    assert decode_file(blob) == decode_records(blob)


def test_the_pc_decoder_reads_long_arrow_runs():
    """Runs longer than the decoder's window, with a bad CRC far into one."""
    from scorebox.sync.decode import WINDOW

    evs = [R.event_record(rules.hit(1 + i % 9, 1 + i % 3)) for i in range(3 * WINDOW + 7)]
    data = bytearray(bytes(R.group_record(1)) + bytes(R.match_record(1, {"a": 1})) + b"".join(map(bytes, evs)))
    assert decode_file(bytes(data)) == decode_records(bytes(data))
    assert len(decode_file(bytes(data))["matches"][0][EVENTS]) == len(evs)
    data[-3 * (WINDOW + 2) + 2] ^= 0x10  # a CRC in the middle of the last window but one
    got = decode_file(bytes(data))
    assert got == decode_records(bytes(data)) and len(got["damage"]) == 1
