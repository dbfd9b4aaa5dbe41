"""box/fat/twin.py's Twin under CPython (docs/journal.md, "On FAT"): open() takes the copy
that reads further over the other, whatever a cut left (a sector erased, a record half
written, the second copy a record behind, a copy cut short while it was made), and leaves a
file that is not a copy alone. The power cuts on the emulated CircuitPython Pico are
tests/cp/test_cp_powercut.py's."""

import pytest

from box.fat.twin import Twin
from scorebox_core import fatlayout
from scorebox_core import records as R
from scorebox_core.fatlayout import PAD

pytest_plugins = ("fatdrive",)  # on_fat: the journal's FAT flag set
ROOM = 8192


@pytest.fixture
def ring_slots():
    """A drive with no room for the journal's ring of slots (box/fat/ring.py's Ring; its own
    tests are tests/pc/test_fatjournal_slots.py): its groups as files, each in two copies."""
    return 0


RECS = [R.group_record(1) + R.match_record(1, {"archers": ["Ann", "Bob"]})] + [R.event_record(e) for e in range(40)]


def _written(tmp, n=None):
    t = Twin(str(tmp / "g000001.tbj"), str(tmp / "tbjb" / "g000001.tbj"), ROOM)
    assert t.open() == 0
    for rec in RECS[:n]:
        t.write(rec)
    t.close()
    return t


def _edit(path, fn):
    with open(path, "rb") as f:
        b = bytearray(f.read())
    fn(b)
    with open(path, "wb") as f:
        f.write(b)


def _reopened(t):
    size = t.open()
    data = t.read()
    copies = []
    for p in t.paths:
        with open(p, "rb") as f:
            copies.append(f.read())
    t.close()
    assert copies[0] == copies[1], "open() made the copies equal"
    return size, data


@pytest.mark.parametrize("copy", [0, 1])
def test_a_sector_erased_in_either_copy_is_put_back_from_the_other(tmp_path, copy):
    t = _written(tmp_path)
    _edit(t.paths[copy], lambda b: b.__setitem__(slice(PAD, PAD + 4096), b"\xff" * 4096))
    size, data = _reopened(t)
    assert data == b"".join(RECS) and size == len(data)


def test_a_record_half_written_in_the_first_copy_is_not_taken(tmp_path):
    t = _written(tmp_path, len(RECS) - 1)
    end = PAD + len(b"".join(RECS[:-1]))
    _edit(t.paths[0], lambda b: b.__setitem__(slice(end, end + 2), RECS[-1][:2]))
    size, data = _reopened(t)
    assert data == b"".join(RECS[:-1])


def test_the_second_copy_a_record_behind_gets_it(tmp_path):
    t = _written(tmp_path)
    end = PAD + len(b"".join(RECS[:-1]))
    _edit(t.paths[1], lambda b: b.__setitem__(slice(end, end + 3), b"\xff" * 3))
    size, data = _reopened(t)
    assert data == b"".join(RECS)


def test_a_copy_cut_short_while_it_was_made_is_made_again(tmp_path):
    t = _written(tmp_path)
    with open(t.paths[1], "wb") as f:
        f.write(b"\xff" * 1000)
    size, data = _reopened(t)
    assert data == b"".join(RECS)


def test_a_file_that_is_no_copy_is_left_alone(tmp_path):
    path = tmp_path / "g000001.tbj"
    path.write_bytes(b"the maker's own file")
    t = Twin(str(path), str(tmp_path / "tbjb" / "g000001.tbj"), ROOM)
    with pytest.raises(ValueError, match="not a journal copy"):
        t.open()
    assert path.read_bytes() == b"the maker's own file"


def test_a_record_past_the_room_is_refused(tmp_path):
    t = Twin(str(tmp_path / "a"), str(tmp_path / "b"), 16)
    t.open()
    t.write(b"x" * 10)
    with pytest.raises(ValueError, match="full"):
        t.write(b"y" * 10)
    t.close()


def test_a_copy_reads_as_its_records_on_the_box_and_the_pc(tmp_path):
    # The 0xFF pads before and after the records are erased flash, not damage: the box's
    # Reader (its recovery, verify) and the PC's decode (records.scan) read the records only.
    from scorebox_core.journal import Reader

    t = _written(tmp_path)
    data = open(t.paths[0], "rb").read()
    got = [(ty, v) for _, _, ty, v in R.scan_bytes(data)]
    assert got == [(ty, v) for _, _, ty, v in R.scan_bytes(b"".join(RECS))]
    r = Reader(str(tmp_path))
    assert r.recover()["damage"] == [] and r.verify()["damage"] == []
    assert list(r.open_match()[2]) == list(range(40))


def test_0xff_inside_the_records_or_mixed_at_the_end_is_still_damage():
    good = b"".join(RECS)
    for data, where in [
        (good[:30] + b"\xff" * 5 + good[30:], 30),  # between records: not the ends
        (good + b"\xff\x12\xff", len(good)),  # a tail that is not all 0xFF
    ]:
        bad = [(o, e) for o, e, ty, _ in R.scan_bytes(data) if ty == R.DAMAGE]
        assert bad and bad[0][0] == where, (where, bad)


def test_0xff_shorter_than_a_pad_at_the_ends_is_damage():
    # Records erased where they were (a LittleFS file's last arrows, a match's header: a wiped
    # block) are damage, set aside and reported, on the box and on the PC; only a FAT copy's
    # pads (ERASED_PAD or more 0xFF at an end) are erased flash.
    from scorebox.sync.decode import decode_file

    good = b"".join(RECS)
    head, tail = len(RECS[0]), len(RECS[-1])
    for data, where in [
        (b"\xff" * head + good[head:], 0),  # the first record erased
        (good[:-tail] + b"\xff" * tail, len(good) - tail),  # the last one
        (b"\xff" * (R.ERASED_PAD - 1) + good, 0),
        (good + b"\xff" * (R.ERASED_PAD - 1), len(good)),
    ]:
        bad = [o for o, e, ty, _ in R.scan_bytes(data) if ty == R.DAMAGE]
        assert bad == [where], (where, bad)
        assert [d[0] for d in decode_file(data, 1)["damage"]] == [where]
    for data in [b"\xff" * R.ERASED_PAD + good, good + b"\xff" * R.ERASED_PAD]:
        assert [o for o, e, ty, _ in R.scan_bytes(data) if ty == R.DAMAGE] == []
        assert decode_file(data, 1)["damage"] == []


def test_a_newest_group_file_that_is_no_copy_is_left_alone_and_each_write_says_so(tmp_path, on_fat):
    # A g*.tbj the box did not write as two copies (a PC's copy put there by hand): its
    # matches are read, nothing is appended to it, and the boot and each write say why.
    from scorebox_core.journal import JournalError

    plain = b"".join(RECS[:3])
    (tmp_path / "g000001.tbj").write_bytes(plain)
    j = on_fat.Journal(str(tmp_path))
    rep = j.recover()
    assert [n for n in rep["notes"] if "g000001.tbj is not a journal copy" in n], rep["notes"]
    assert rep["open"] == 1 and list(j.open_match()[2]) == [0, 1]
    with pytest.raises(JournalError, match="not a journal copy .*moved away"):
        j.append(7)
    assert list(j.open_match()[2]) == [0, 1]
    assert (tmp_path / "g000001.tbj").read_bytes() == plain and not (tmp_path / "tbjb").exists()


def test_the_pcs_decoder_reads_a_copy_as_the_box_does(tmp_path):
    # scorebox.sync.decode takes arrow runs in bulk beside records.scan: the 0xFF pads are no
    # damage there either, and 0xFF elsewhere is damage in both.
    from scorebox.sync.decode import decode_file, decode_records

    t = _written(tmp_path)
    copy = open(t.paths[0], "rb").read()
    good = b"".join(RECS)
    for data in [copy, b"\xff" * 7 + good, good + b"\xff" * 7, good[:30] + b"\xff" * 5 + good[30:], b"\xff\x12" + good]:
        assert decode_file(data, 1) == decode_records(data, 1)
    got, want = decode_file(copy, 1), decode_file(good, 1)
    assert got["damage"] == [] and [m[:3] for m in got["matches"]] == [m[:3] for m in want["matches"]]
    assert decode_file(b"\xff\x12" + good, 1)["damage"]


def test_the_journal_on_fat_keeps_its_newest_group_in_two_copies(tmp_path, on_fat):
    from scorebox_core.fatlayout import MIRROR

    j = on_fat.Journal(str(tmp_path))
    j.recover()
    j.start_match({"archers": ["Ann", "Bob"]})
    for e in (5, 70, 256, 9):
        j.append(e)
    j.finish({"winner": "A"})
    j.confirm(0)
    j.confirm(1)
    j.start_match({"archers": ["Cat", "Dan"]})
    j.append(14)
    j.close()
    a, b = tmp_path / "g000001.tbj", tmp_path / MIRROR / "g000001.tbj"
    assert a.read_bytes() == b.read_bytes() and len(a.read_bytes()) == 2 * PAD + fatlayout.ROOM
    # A cut tore the first copy's records: the boot puts them back and the match goes on.
    _edit(str(a), lambda d: d.__setitem__(slice(PAD, PAD + 4096), b"\xff" * 4096))
    j = on_fat.Journal(str(tmp_path))
    rep = j.recover()
    assert rep["damage"] == [] and rep["open"] == 2 and rep["arrows"] == 1
    j.append(33)
    assert list(j.open_match()[2]) == [14, 33]
    j.close()
    r = on_fat.Reader(str(tmp_path))
    r.recover()
    assert list(r.read_match(1)[1]) == [5, 70, 256, 9] and list(r.open_match()[2]) == [14, 33]
    assert a.read_bytes() == b.read_bytes()


def test_a_new_group_on_fat_is_two_new_copies_and_both_go_with_it(tmp_path, on_fat):
    from scorebox_core.fatlayout import MIRROR

    j = on_fat.Journal(str(tmp_path), group_bytes=64)  # a new group for each match
    j.recover()
    for k in range(2):
        j.start_match({"archers": ["Ann", "Bob"]})
        j.append(5 + k)
        j.finish({})
    j.close()
    names = sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tbj"))
    assert names == ["g000001.tbj", "g000002.tbj"]
    assert sorted(p.name for p in (tmp_path / MIRROR).iterdir()) == names
    j._remove("g000001.tbj")  # as an acknowledged group is freed
    assert not (tmp_path / "g000001.tbj").exists() and not (tmp_path / MIRROR / "g000001.tbj").exists()
