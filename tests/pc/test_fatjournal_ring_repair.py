"""The journal's ring on FAT (box/fat/ring.py, docs/journal.md "On FAT") mended and read after cuts:
a ring file lost or cut short is made again from the other (numbering goes on, every match
still read and synced); a slot whose first copy's wipe a cut stopped is read whole from the
second; space() says 100% only when no match fits."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from test_fatjournal_slots import (  # noqa: E402
    EVENTS,
    HEADER,
    _cut,
    _journal,
    _match,
    _ring_bytes,
    _traced,
)

from box import acks, link  # noqa: E402
from scorebox.device import link as device_link  # noqa: E402
from scorebox_core.fatlayout import ACK_COPY, COPY, FIRST, MIRROR, PAD, RING  # noqa: E402

pytest_plugins = ("fatdrive",)  # on_fat: the journal's FAT flag set, a ring of three slots


def _synced(j):
    """{number: events} of every match a sync that takes the box over reads (LIST, READ)."""
    from scorebox.sync import protocol
    from scorebox.sync.decode import decode_file

    lk = link.Link(None, j, None, None)
    got = protocol.check_list(lk.do_list({"after": 0, "ranges": True}), 0, 0)
    seen = {}
    for name, size in got["files"]:
        st = lk.do_read({"file": name, "offset": 0, "length": size, "stream": True})
        raw = bytearray()
        st.send(raw.extend, lk.piece)
        d = decode_file(device_link.unchunk(raw, size), int(name[1:7]))
        assert not d.get("damage"), (name, d.get("damage"))
        for m in d["matches"]:
            seen[m[0]] = list(m[2])
    return got["matches"], seen


def _two_matches_closed(on_fat, tmp_path):
    """A ring holding matches 1 and 2, its files closed (as at a power-off)."""
    j, _ = _journal(on_fat, tmp_path)
    for _ in range(2):
        _match(j)
    j.close()
    j._slots.close()


@pytest.mark.parametrize("lost", ["first cut short", "first gone", "second gone"])
def test_a_ring_file_lost_or_cut_short_is_made_again_from_the_other(tmp_path, on_fat, lost):
    _two_matches_closed(on_fat, tmp_path)
    whole = (tmp_path / MIRROR / RING).read_bytes()
    a, b = tmp_path / FIRST / RING, tmp_path / MIRROR / RING
    if lost == "first cut short":  # its last cluster lost, or its directory entry torn
        a.write_bytes(a.read_bytes()[:-512])
    else:
        os.remove(a if lost == "first gone" else b)
    j, rep = _journal(on_fat, tmp_path)
    assert any("made again" in n for n in rep["notes"]), rep["notes"]
    assert a.read_bytes() == b.read_bytes() == whole
    assert j.list_matches() == [1, 2] and not j.acked(1)
    assert list(j.read_match(2)[1]) == EVENTS
    assert _match(j, [1, 2, 3]) == 3  # numbering goes on
    assert sorted(os.listdir(tmp_path)) == [FIRST, MIRROR]  # no group file of before's kind
    matches, seen = _synced(j)
    assert matches == [1, 2, 3] and seen[1] == EVENTS and seen[3] == [1, 2, 3]


def test_a_ring_file_not_made_again_without_room_or_over_another_file(tmp_path, on_fat, monkeypatch):
    _two_matches_closed(on_fat, tmp_path)
    a = tmp_path / FIRST / RING
    a.write_bytes(b"not the journal's" * 300)  # no ring copy: left as it is
    kept = a.read_bytes()
    j, rep = _journal(on_fat, tmp_path)
    assert a.read_bytes() == kept and any("alone kept" in n for n in rep["notes"])
    assert j.list_matches() == [1, 2] and _match(j) == 3  # from the second copy alone
    j.close()
    j._slots.close()
    os.remove(a)
    full = os.statvfs(str(tmp_path))
    monkeypatch.setattr(os, "statvfs", lambda p: (full[0], 0, 0, 0) + tuple(full[4:]))  # a drive full
    j, rep = _journal(on_fat, tmp_path)
    assert not a.exists() and any("no room" in n for n in rep["notes"])
    assert j.list_matches() == [1, 2, 3] and list(j.read_match(3)[1]) == EVENTS


def test_a_cut_in_the_first_copys_wipe_leaves_the_old_group_whole_to_read(tmp_path, on_fat):
    j, _ = _journal(on_fat, tmp_path)
    for k in range(3):
        _match(j, EVENTS[: 4 + k] * 300)
    j.ack([1, 2, 3])
    j.close()
    j._slots.close()
    a = tmp_path / FIRST / RING
    data = bytearray(a.read_bytes())
    start = ACK_COPY + PAD
    data[start : start + 3 * 512] = b"\xff" * (3 * 512)  # the wipe's first three 512-byte writes
    a.write_bytes(bytes(data))
    j, rep = _journal(on_fat, tmp_path)
    assert rep["damage"] == [] and j._slots.firsts == [1, 2, 3]
    assert list(j.read_match(1)[1]) == EVENTS[:4] * 300 and j.verify()["damage"] == []
    acks.forget(j)  # a sync that takes the box over reads it whole
    matches, seen = _synced(j)
    assert matches == [1, 2, 3] and seen[1] == EVENTS[:4] * 300
    j.ack(matches)  # that sync's acknowledgement: the slot is taken again
    assert _match(j, [9]) == 4 and j._slots.firsts == [4, 2, 3]
    assert list(j.read_match(4)[1]) == [9]


def test_every_cut_in_a_slots_wipe_leaves_the_old_group_whole_or_none(tmp_path, on_fat):
    j, _ = _journal(on_fat, tmp_path / "box")
    for k in range(3):
        _match(j, EVENTS[: 4 + k] * 300)
    j.ack([1, 2])
    whole = EVENTS[:4] * 300
    j.close()
    j, _ = _journal(on_fat, tmp_path / "box")
    start = _ring_bytes(tmp_path / "box")
    log = _traced(j)
    j.start_match(dict(HEADER, archers=["Cat", "Dan"]))
    olds = 0
    for k in range(len(log)):
        for half in (False, True):
            _cut(tmp_path, start, log, k, half, tmp_path / "cut")
            c, rep = _journal(on_fat, tmp_path / "cut")
            where = "write %d of %d%s" % (k, len(log), " (half)" if half else "")
            assert rep["damage"] == [] and c.verify()["damage"] == [], where
            if 1 in c._groups:
                olds += 1
                assert list(c.read_match(1)[1]) == whole, where
            c.close()
    assert olds > 2  # cuts inside the first copy's wipe


def test_space_says_full_only_when_no_match_fits(tmp_path, on_fat):
    j, _ = _journal(on_fat, tmp_path, group_bytes=2000)
    while len([f for f in j._slots.firsts if f]) < 3 or j._size - PAD < 100:
        _match(j)
    sp = j.space()
    assert sp["matches_left"] > 0 and 66 < sp["percent_full"] < 100, sp
    while j.space()["matches_left"]:
        _match(j)
    assert j.space()["percent_full"] == 100 and j._slots.firsts[2]
    assert COPY > 2000
