"""box/store.py on CircuitPython's FAT drive with the journal's ring, under CPython with
box/journal.py's FAT flag set (docs/journal.md "On FAT"): the settings and the roster are one
state kept in place in two copies made with the ring (box/fat/kept.py's Kept), so a save
makes, grows or renames no file; a cut at any write of a save (and in any 4 KiB sector it
writes, erased or half programmed) leaves the state before or the new one, never an error;
with a ring no settings or roster file is read; without one, and on LittleFS, the files."""

import json
import os
import shutil

import pytest

from box import store as S
from box.link import NAME_MAX
from scorebox_core import fatlayout
from scorebox_core.fatlayout import FIRST, MIRROR, PAD, RING, STORE, STORE_COPY

pytest_plugins = ("fatdrive",)  # on_fat: the journal's FAT flag set, a ring of three slots

SECTOR = 4096  # CircuitPython's flash sector: a cut loses all of it


def _boot(journal, root):
    """The app's boot: its Store, then the journal's recovery (which makes the ring when missing)."""
    st = S.Store(str(root))
    st.roster()
    j = journal.Journal(str(root))
    j.recover()
    j.close()
    return st


def _files(root):
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            out[os.path.relpath(p, root)] = (os.path.getsize(p), os.stat(p).st_ino)
    return out


def _state(st):
    return dict(st.settings), list(st.roster())


def test_saves_make_grow_or_rename_no_file_after_the_ring(tmp_path, on_fat):
    st = _boot(on_fat, tmp_path)
    made = _files(tmp_path)
    assert os.path.join(FIRST, STORE) in made and os.path.join(MIRROR, STORE) in made
    assert made[os.path.join(FIRST, STORE)][0] == STORE_COPY
    for k in range(40):  # past the copies' room many times over: written in place each time
        st.set("contrast", k)
        st.set("store", "%016x" % k)
        st.save()
        st.set_roster(["Ann%d" % k, "Bob"] + ["N%03d" % i for i in range(k * 5)])
        if k % 7 == 0:
            st = S.Store(str(tmp_path))  # a boot
            assert st.get("contrast") == k and st.roster()[0] == "Ann%d" % k
    assert _files(tmp_path) == made  # nothing made, grown, renamed or deleted
    st = S.Store(str(tmp_path))
    assert st.get("contrast") == 39 and st.get("store") == "%016x" % 39
    assert st.roster() == ["Ann39", "Bob"] + ["N%03d" % i for i in range(195)]
    assert not os.path.exists(tmp_path / S.SETTINGS) and not os.path.exists(tmp_path / S.ROSTER)


def test_the_biggest_roster_fits_and_more_is_refused_in_a_sentence(tmp_path, on_fat):
    st = _boot(on_fat, tmp_path)
    big = ["%0*d" % (NAME_MAX, i) for i in range(S.ROSTER_MAX)]  # what the sync and the box allow
    st.set("store", "x" * 32)
    st.set("face_arrows", [99999] * 9)
    st.set_roster(big)
    st.save()
    assert _state(S.Store(str(tmp_path))) == _state(st)
    with pytest.raises(ValueError, match=r"settings and roster too large to keep \(\d+ bytes, \d+ at most\)"):
        st.set_roster(big + ["%030d" % i for i in range(60)])
    assert st.roster() == big and S.Store(str(tmp_path)).roster() == big  # nothing written


class _Traced:
    def __init__(self, f, i, log):
        self.f, self.i, self.log = f, i, log

    def __getattr__(self, name):
        return getattr(self.f, name)

    def write(self, b):
        self.log.append((self.i, self.f.tell(), bytes(b)))
        return self.f.write(b)


def _cuts(start, log):
    """(name, [copy bytes]) of each way a cut leaves the copies: before each write, with half
    of it, and with each 4 KiB sector it writes erased or half programmed."""
    for k in range(len(log)):
        copies = [bytearray(b) for b in start]
        for i, off, b in log[:k]:
            copies[i][off : off + len(b)] = b
        i, off, b = log[k]
        yield "before write %d" % k, copies
        half = [bytearray(c) for c in copies]
        half[i][off : off + len(b) // 2] = b[: len(b) // 2]
        yield "write %d half" % k, half
        after = bytearray(copies[i])
        after[off : off + len(b)] = b
        for s in range(off // SECTOR * SECTOR, off + len(b), SECTOR):
            erased = [bytearray(c) for c in copies]
            erased[i][s : s + SECTOR] = b"\xff" * SECTOR
            yield "write %d sector %d erased" % (k, s), erased
            torn = [bytearray(c) for c in erased]
            torn[i][s : s + SECTOR // 2] = after[s : s + SECTOR // 2]
            yield "write %d sector %d half programmed" % (k, s), torn


def _put(into, copies):
    """A drive holding these copies of the store (and a ring beside them)."""
    if os.path.isdir(into):
        shutil.rmtree(into)
    for d, data in zip((FIRST, MIRROR), copies):
        os.makedirs(into / d)
        (into / d / STORE).write_bytes(bytes(data))
        (into / d / RING).write_bytes(b"\xff" * 512)  # a ring there


def _save_traced(st, change):
    """The copies' bytes before st's next save, its writes [(copy, offset, bytes)], the state after."""
    assert st.kept.ready()
    start = []
    for f in st.kept.files:
        f.seek(0)
        start.append(f.read())
    log = []
    st.kept.files = [_Traced(f, i, log) for i, f in enumerate(st.kept.files)]
    change(st)
    return start, log, _state(S.Store(st.root))


@pytest.mark.parametrize("grows", [True, False])
def test_a_cut_at_any_write_of_a_save_leaves_the_old_or_the_new_state(tmp_path, on_fat, grows):
    """And where a cut left the copies apart, a cut at any write of the next save too: the copy
    that does not hold the newest state is written first."""
    root = tmp_path / "box"
    st = _boot(on_fat, root)
    st.set("contrast", 10)
    st.set_roster(["Old%09d" % i for i in range(190 if not grows else 20)])
    old = _state(S.Store(str(root)))

    def change(s):
        s.set("contrast", 20)
        s.set_roster(["New%09d" % i for i in range(190 if grows else 20)])  # one save of both

    def again(s):
        s.set("contrast", 30)
        s.save()

    start, log, new = _save_traced(st, change)
    assert old != new and len(log) >= 4 and {i for i, _, _ in log} == {0, 1}
    assert all(PAD <= off and off + len(b) <= STORE_COPY - PAD for _, off, b in log)  # the pads never
    seen, apart = set(), 0
    for name, copies in _cuts(start, log):
        _put(tmp_path / "cut", copies)
        c = S.Store(str(tmp_path / "cut"))
        got = _state(c)
        assert got in (old, new), name
        seen.add(got == new)
        start2, log2, newer = _save_traced(c, again)  # the next save goes in whole
        assert newer == ({**got[0], "contrast": 30}, got[1]), name
        if copies[0] == copies[1]:
            continue
        apart += 1
        for name2, copies2 in _cuts(start2, log2):
            _put(tmp_path / "cut2", copies2)
            assert _state(S.Store(str(tmp_path / "cut2"))) in (got, newer), name + ", then " + name2
    assert seen == {False, True} and apart > 10


def test_with_a_ring_settings_and_roster_files_beside_it_are_not_read(tmp_path, on_fat):
    st = _boot(on_fat, tmp_path)  # the ring and the store's copies made, no state in them yet
    (tmp_path / S.SETTINGS).write_text(json.dumps({"contrast": 7, "store": "abc"}))
    (tmp_path / S.ROSTER).write_text("Ann\nBob\n")
    st = S.Store(str(tmp_path))
    assert st.get("contrast") == S.DEFAULTS["contrast"] and st.get("store") is None and st.roster() == []
    st.set_roster(["Cat"])
    st = S.Store(str(tmp_path))
    assert st.roster() == ["Cat"] and st.get("contrast") == S.DEFAULTS["contrast"]


def test_a_first_boot_makes_the_copies_with_the_ring_and_reads_the_files_there(tmp_path, on_fat):
    (tmp_path / S.ROSTER).write_text("Ann\nBob\n")  # a drive a maker filled by hand
    st = _boot(on_fat, tmp_path)
    made = _files(tmp_path)
    assert made[os.path.join(MIRROR, STORE)][0] == STORE_COPY and made[os.path.join(FIRST, RING)][0] > 0
    st.set_roster(["Bob", "Ann"])
    assert _files(tmp_path) == made and S.Store(str(tmp_path)).roster() == ["Bob", "Ann"]


def test_without_a_ring_and_on_littlefs_the_files_as_before(tmp_path, on_fat, monkeypatch):
    for fat in (True, False):  # a FAT drive too full for a ring; LittleFS
        root = tmp_path / str(fat)
        monkeypatch.setattr(on_fat, "FAT", fat)
        monkeypatch.setattr(fatlayout, "MAX_SLOTS", 0)
        st = _boot(on_fat, root)
        st.set("contrast", 3)
        st.save()
        st.set_roster(["Ann"])
        assert FIRST not in os.listdir(root) and {S.ROSTER, S.SETTINGS} <= set(os.listdir(root))
        assert json.loads((root / S.SETTINGS).read_text())["contrast"] == 3
        assert (root / S.ROSTER).read_text() == "Ann\n"
        st = S.Store(str(root))
        assert st.get("contrast") == 3 and st.roster() == ["Ann"] and (st.kept is None) == (not fat)


def test_the_install_makes_the_copies_beside_the_ring(tmp_path):
    from scorebox.device import cpinstall

    n = cpinstall.make_ring(str(tmp_path))
    assert n == fatlayout.MAX_SLOTS
    for d in (FIRST, MIRROR):
        assert (tmp_path / d / STORE).read_bytes() == b"\xff" * STORE_COPY
        assert (tmp_path / d / RING).stat().st_size == fatlayout.ring_size(n)
    assert cpinstall.make_ring(str(tmp_path)) is None
