"""box/fat/ring.py's Ring under CPython with box/journal.py's FAT flag set (docs/journal.md
"On FAT"): the journal's space allocated once, as a ring of group slots written in place and
reused once the PC holds their matches. After the ring is made no file is made, grown,
renamed or deleted (a new group, an acknowledgement, a slot's reuse); a cut at any write of a
slot's reuse or of the acknowledgements loses nothing committed; a journal kept without a ring
(a drive too full for one) gets none beside it later; the PC's sync reads the ring's groups by
the names it knows. The flash itself is tests/cp/test_cp_slots.py's, on the emulated
CircuitPython."""

import os
import shutil

import pytest

from scorebox_core import fatlayout, frames
from scorebox_core import records as R
from scorebox_core.fatlayout import ACK_COPY, ACK_ROOM, COPY, FIRST, MIRROR, PAD, RING

HEADER = {"options": {"games": 3}, "archers": ["Ann", "Bob"], "distance": 18, "unit": "m"}
EVENTS = [5, 70, 9, 137, 14, 256, 14, 200, 33, 258, 7, 96]
SMALL = 200  # group_bytes: a new group every match or two
pytest_plugins = ("fatdrive",)  # on_fat: the journal's FAT flag set, a ring of three slots


def _match(j, events=EVENTS, result=None):
    n = j.start_match(HEADER)
    for e in events:
        j.append(e)
    j.finish(result or {"winner": "A", "games": [2, 1]})
    j.confirm(0)
    j.confirm(1)
    return n


def _journal(journal, root, group_bytes=SMALL):
    j = journal.Journal(str(root), group_bytes=group_bytes)
    rep = j.recover()
    return j, rep


def _files(root):
    """{path: size} of every file under root."""
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            out[os.path.relpath(p, root)] = os.path.getsize(p)
    return out


def test_the_ring_is_made_once_and_no_file_changes_after(tmp_path, on_fat):
    j, _ = _journal(on_fat, tmp_path)
    made = _files(tmp_path)
    size = fatlayout.ring_size(3)
    assert made == {os.path.join(FIRST, RING): size, os.path.join(MIRROR, RING): size} | {
        os.path.join(d, fatlayout.STORE): fatlayout.STORE_COPY for d in (FIRST, MIRROR)
    }  # and beside it the app's settings and roster (box/store.py, tests/pc/test_fatstore.py)
    stat = {p: os.stat(tmp_path / p).st_ino for p in made}
    for k in range(8):  # new groups, acknowledgements, slots reused, a boot between
        _match(j)
        j.ack(list(range(1, j.last() + 1)))
        if k % 3 == 2:
            j.close()
            j, rep = _journal(on_fat, tmp_path)
            assert rep["damage"] == [] and rep["removed"] == [] and rep["freed"] == []
    assert j.last() == 8 and len(j._groups) == 3  # eight groups made, three slots
    assert _files(tmp_path) == made  # nothing made, grown, renamed or deleted
    assert {p: os.stat(tmp_path / p).st_ino for p in made} == stat
    a, b = (tmp_path / FIRST / RING).read_bytes(), (tmp_path / MIRROR / RING).read_bytes()
    assert a == b


def test_a_slot_is_reused_only_once_the_pc_holds_its_matches(tmp_path, on_fat):
    j, _ = _journal(on_fat, tmp_path)
    sp = j.space()
    assert sp["percent_full"] == 0 and sp["matches_left"] > 0
    for _ in range(3):
        _match(j)
    assert j._slots.firsts == [1, 2, 3] and j.space()["matches_left"] == 0
    with pytest.raises(on_fat.JournalFull, match="3 matches wait for the PC; sync to make room"):
        j.start_match(HEADER)
    assert j._slots.firsts == [1, 2, 3] and j.list_matches() == [1, 2, 3]
    j.ack([1])
    assert j.space()["matches_left"] > 0 and j.space()["percent_full"] == 66
    assert _match(j, [9, 9]) == 4  # into slot 0, match 1 wiped: the PC holds it
    assert j._slots.firsts == [4, 2, 3] and j._groups == [2, 3, 4]
    with pytest.raises(on_fat.JournalFull):
        j.start_match(HEADER)
    j.close()
    j, rep = _journal(on_fat, tmp_path)  # after a boot: the same
    assert rep["damage"] == [] and j._groups == [2, 3, 4] and rep["next"] == 5
    assert list(j.read_match(4)[1]) == [9, 9] and list(j.read_match(2)[1]) == EVENTS
    j.ack([2, 3, 4])
    assert j.space()["matches_left"] > 0 and j.space()["percent_full"] == 33  # the newest's slot waits
    assert _match(j) == 5 and j._slots.firsts == [4, 5, 3]


def test_the_acknowledgements_are_kept_in_place_and_written_anew_when_full(tmp_path, on_fat):
    j, _ = _journal(on_fat, tmp_path, group_bytes=1 << 20)
    made = _files(tmp_path)
    for _ in range(3):
        _match(j)
    saves = 0
    while saves * 40 < 2 * ACK_ROOM:  # past the room twice: written anew, in place
        j.ack([1 + saves % 3])
        saves += 1
        if saves % 50 == 0:
            j.close()
            j, rep = _journal(on_fat, tmp_path, group_bytes=1 << 20)
            assert rep["damage"] == [] and j._floor == 3
    assert _files(tmp_path) == made and not os.path.exists(tmp_path / "journal.ack")
    j.ack([1])
    j.close()
    j, rep = _journal(on_fat, tmp_path, group_bytes=1 << 20)
    assert rep["damage"] == [] and j._floor == 3 and j.list_matches() == [1, 2, 3]


def _traced(j):
    """Every write to j's ring from now on: [(copy, offset, bytes)]."""
    log = []

    class Traced:
        def __init__(self, f, i):
            self.f, self.i = f, i

        def __getattr__(self, name):
            return getattr(self.f, name)

        def write(self, b):
            log.append((self.i, self.f.tell(), bytes(b)))
            return self.f.write(b)

    files = j._slots.open()
    j._slots.files = [Traced(f, i) for i, f in enumerate(files)]
    return log


def _cut(root, start, log, k, half, into):
    """The ring as a cut leaves it: start's bytes (the two copies) and the first k writes,
    with half of write k when half; into a fresh folder."""
    if os.path.isdir(into):
        shutil.rmtree(into)
    copies = [bytearray(b) for b in start]
    for i, off, b in log[:k] + ([(log[k][0], log[k][1], log[k][2][: len(log[k][2]) // 2])] if half else []):
        copies[i][off : off + len(b)] = b
    for d, data in zip((FIRST, MIRROR), copies):
        os.makedirs(os.path.join(into, d))
        with open(os.path.join(into, d, RING), "wb") as f:
            f.write(data)


def _ring_bytes(root):
    return [(root / d / RING).read_bytes() for d in (FIRST, MIRROR)]


@pytest.mark.parametrize("step", ["new group", "acknowledgement"])
def test_a_cut_at_any_write_of_a_slots_reuse_or_an_acknowledgement_loses_nothing(tmp_path, on_fat, step):
    j, _ = _journal(on_fat, tmp_path / "box")
    for k in range(3):
        _match(j, EVENTS[: 4 + k] * 300)  # about 4 KiB a group: several sectors to wipe
    if step == "new group":
        j.ack([1, 2])
    else:  # the acknowledgements' room nearly full: the next one writes them anew
        size = len(R.value_record(R.ACK, {"floor": 1, "acked": [], "next": 4}))
        while j._slots.acks + size <= ACK_ROOM:
            j.ack([1])
    j.close()
    j, _ = _journal(on_fat, tmp_path / "box")
    start = _ring_bytes(tmp_path / "box")
    log = _traced(j)
    if step == "new group":
        j.start_match(dict(HEADER, archers=["Cat", "Dan"]))  # match 4 into slot 0, match 1 wiped
        done = 4
    else:
        j.ack([1, 2])
        done = None
    assert len(log) >= 4, log  # a wipe and a write of each copy at least
    cut = tmp_path / "cut"
    for k in range(len(log)):
        for half in (False, True):
            _cut(tmp_path, start, log, k, half, cut)
            c, rep = _journal(on_fat, cut)
            where = "write %d of %d%s" % (k, len(log), " (half)" if half else "")
            assert rep["damage"] == [], where
            assert c._groups[-2:] == [2, 3] or c._groups[-3:] == [2, 3, 4], where
            for n in (2, 3):  # the matches no cut may touch, whole
                h, events, x = c.read_match(n)
                assert list(events) == EVENTS[: 3 + n] * 300 and x["result"] and x["confirmed"] == [True, True], where
            if step == "new group":
                assert c._groups in ([1, 2, 3], [2, 3], [2, 3, 4]), where  # the old group, none, or the new one
                if c.open_match() is not None:  # (a cut inside its header: the new group's record alone)
                    assert c.open_match()[1]["archers"] == ["Cat", "Dan"], where
                else:
                    assert c.open_match() is None and c.last() == 3, where
                    assert c.acked(1) and c.acked(2) and not c.acked(3), where
            else:  # the acknowledgements before (1) or after (1, 2)
                assert c.acked(1) and not c.acked(3) and c._floor in (1, 2), where
            c.close()
    got, _ = _journal(on_fat, tmp_path / "box")  # and the whole step, not cut
    assert got.last() == (done or 3) and got.acked(2)


def test_a_journal_kept_without_a_ring_stays_so_at_a_boot_or_an_install_with_room(tmp_path, on_fat):
    # A drive too full for a ring keeps its groups as files; room made later (the maker's own
    # files moved away) makes no ring beside them, at a boot or at an install.
    from scorebox.device import cpinstall

    fatlayout.MAX_SLOTS, keep = 0, fatlayout.MAX_SLOTS
    try:
        j, _ = _journal(on_fat, tmp_path)
        for k in range(3):
            _match(j, EVENTS[: 4 + k])
        j.ack([1, 2])
        j.close()
    finally:
        fatlayout.MAX_SLOTS = keep
    before = _files(tmp_path)
    assert "journal.ack" in before and "g000003.tbj" in before
    j, rep = _journal(on_fat, tmp_path)
    assert j._slots is None and rep["damage"] == [] and j.list_matches() == [1, 2, 3]
    assert j.acked(2) and not j.acked(3)
    _match(j)
    j.close()
    assert FIRST not in os.listdir(tmp_path) and "g000004.tbj" in os.listdir(tmp_path)
    assert cpinstall.make_ring(str(tmp_path)) is None and FIRST not in os.listdir(tmp_path)
    j, _ = _journal(on_fat, tmp_path)
    assert j._slots is None and j.list_matches() == [1, 2, 3, 4]


def test_a_ring_cut_short_while_it_was_made_is_made_again_and_anything_else_left(tmp_path, on_fat):
    j, _ = _journal(on_fat, tmp_path)
    j.close()
    a = tmp_path / FIRST / RING
    a.write_bytes(a.read_bytes()[: 3 * 512])  # only 0xFF, short: a cut while it was made
    j, _ = _journal(on_fat, tmp_path)
    assert a.stat().st_size == fatlayout.ring_size(3) and j._slots is not None
    _match(j)
    j.close()
    b = tmp_path / MIRROR / RING
    for f in (a, b):  # both files of another size holding records: left alone
        f.write_bytes(f.read_bytes()[:-512])
    kept = a.read_bytes(), b.read_bytes()
    j, _ = _journal(on_fat, tmp_path)
    assert j._slots is None and (a.read_bytes(), b.read_bytes()) == kept


def test_a_ring_holds_its_slots_at_the_drives_room():
    assert fatlayout.slots_for(2 * fatlayout.COPY * 2) == 0  # under two slots: no ring
    per = 2 * COPY
    base = fatlayout.SPARE + 2 * ACK_COPY
    assert fatlayout.slots_for(base + 2 * per) == 2 and fatlayout.slots_for(base + 3 * per - 1) == 2
    assert fatlayout.ring_size(2) == ACK_COPY + 2 * COPY and ACK_COPY == 2 * PAD + ACK_ROOM
    assert frames.MAX_STREAM >= COPY  # a slot's group is read in one streamed READ
