"""The rescue (`scorebox sync --raw`, and `--drive FOLDER` for a mounted CIRCUITPY drive) of a
CircuitPython box whose journal is a ring (box/fat/ring.py, docs/journal.md "On FAT"): the
ring is made and written here by the box's own code (box/journal.py with its FAT flag, three
slots, a new group every match), with matches of both games, a slot taken again and a slot's
wipe cut short (its group then read from the second copy, as the box reads it). Every match
the ring holds, acknowledged or not, is stored once as the box recorded it, and a second
rescue adds nothing; the drive is not written to. Before, the rescue knew no ring (it copied
g*.tbj files only): nothing was rescued."""

import os
import subprocess
import sys

import jt
import pytest

from scorebox.store.checks import match_digest
from scorebox.store.sqlite import Store
from scorebox.sync import rescue as rescuing
from scorebox.sync.summary import Summary
from scorebox_core import fatlayout
from scorebox_core import records as R
from scorebox_core.fatlayout import ACK_COPY, COPY, FIRST, PAD, RING
from scorebox_core.games.ttt import rules as ttt

pytest_plugins = ("fatdrive",)  # on_fat: the journal's FAT flag set, a ring of three slots
UID = "cp-ring-box"


def ttt_match(seed):
    """A whole Try-Tac-Toe game of two matches (TTT-6), each ended by agreement (header, events, result)."""
    g = ttt.Game()
    evs = []
    k = seed
    for part in range(2):
        if part:
            evs.append(ttt.NEXT_MATCH)
            g.apply(ttt.NEXT_MATCH)
        for _ in range(5):
            k = (k * 1103515245 + 12345) & 0x7FFFFFFF
            empty = [i for i in range(74) if not g.match.marks[i]]
            ev = empty[(k >> 8) % len(empty)] + 1
            g.apply(ev)
            evs.append(ev)
        g.apply(ttt.END)
        evs.append(ttt.END)
    assert g.over()
    h = {"game": ttt.GAME, "options": g.opts.to_dict(), "archers": [["Cat"], ["Dan"]], "clock": 1790000100 + seed}
    return h, evs, ttt.result(g)


def _write(j, m):
    h, evs, res = m
    n = j.start_match(h)
    for ev in evs:
        j.append(ev)
    j.finish(res)
    j.confirm(0)
    j.confirm(1)
    return n


@pytest.fixture
def drive(tmp_path, on_fat, monkeypatch):
    """A CIRCUITPY drive's journal folder: ring of three slots holding matches 3 (acknowledged, its
    slot's wipe for match 6 cut short), 4 and 5 (slots 0 and 1 taken again); both games.
    Returns (folder, {number: (header, events)} of the matches the ring holds, acknowledged ones)."""
    folder = tmp_path / "CIRCUITPY"
    folder.mkdir()
    (folder / "device.id").write_text(UID + "\n")
    j = on_fat.Journal(str(folder), group_bytes=200)  # a new group every match
    j.recover()
    made = [jt.typical(1), ttt_match(2), jt.typical(3), ttt_match(4), jt.typical(5)]  # Tic Tac BOW, Try-Tac-Toe
    for m in made[:3]:
        _write(j, m)
    j.ack([1, 2])
    for m in made[3:]:
        _write(j, m)  # slots 0 and 1 taken again (matches 1 and 2 wiped)
    j.ack([3])
    assert j._slots.firsts == [4, 5, 3]
    j.close()
    j._slots.close()
    # Match 6's new group in slot 2: a cut after its first copy's first sector was wiped
    with open(folder / FIRST / RING, "r+b") as f:
        f.seek(ACK_COPY + 2 * COPY + PAD)
        f.write(b"\xff" * 512)
    box = on_fat.Journal(str(folder))
    box.recover()
    assert box._slots.firsts == [4, 5, 3] and box._slots.src == [0, 0, 1]
    held = {n: made[n - 1][:2] for n in (3, 4, 5)}
    for n, (h, evs) in held.items():  # what the box reads: what it recorded
        bh, bevs, _ = box.read_match(n)
        assert match_digest(bh, list(bevs)) == match_digest(h, evs)
    box._slots.close()
    monkeypatch.setattr(on_fat, "FAT", False)  # the PC's rescue is not the box
    return folder, held, {3}


def _tree(folder):
    out = {}
    for d, _, names in os.walk(folder):
        for n in names:
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, folder)] = f.read()
    return out


def test_the_rescue_stores_every_match_of_the_ring_once(tmp_path, drive):
    folder, held, acked = drive
    work = tmp_path / "copied"  # as sync_raw's mpremote copy leaves it
    work.mkdir()
    for rel, b in _tree(folder).items():
        os.makedirs(os.path.dirname(work / rel), exist_ok=True)
        (work / rel).write_bytes(b)
    store = Store(str(tmp_path / "club.sqlite"))
    s = Summary()
    rescuing.rescue(str(work), UID, store, s)
    assert sorted(n for n, _ in s.new) == sorted(held) and not s.damaged and not s.refused, s.lines()
    want = {n: match_digest(h, evs) for n, (h, evs) in held.items()}
    assert store.digests(UID, list(range(1, 10))) == want  # both games, acknowledged (3) or not
    assert acked <= set(want)
    again = Summary()
    rescuing.rescue(str(work), UID, store, again)
    assert again.new == [] and store.count() == len(held)


def test_a_mounted_drive_is_rescued_and_not_written(tmp_path, drive):
    folder, held, _ = drive
    before = _tree(folder)
    store = Store(str(tmp_path / "club.sqlite"))
    s = rescuing.sync_drive(str(folder), store)
    assert s.device == UID and sorted(n for n, _ in s.new) == sorted(held)
    assert rescuing.sync_drive(str(folder), store).new == []
    assert _tree(folder) == before


def test_a_drive_with_no_journal_is_one_line(tmp_path):
    empty = tmp_path / "USBSTICK"
    empty.mkdir()
    (empty / "notes.txt").write_text("hello")
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    p = subprocess.run(
        [exe, "sync", "--drive", str(empty), "--db", str(tmp_path / "x.sqlite")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 2
    lines = (p.stdout + p.stderr).strip().splitlines()
    assert len(lines) == 1 and "no Scorebox journal in" in lines[0], lines
    assert sorted(os.listdir(empty)) == ["notes.txt"]


def test_a_drive_kept_without_a_ring_is_rescued_from_its_group_files(tmp_path, on_fat, monkeypatch):
    folder = tmp_path / "CIRCUITPY"
    folder.mkdir()
    made = [ttt_match(11), jt.typical(12)]
    monkeypatch.setattr(fatlayout, "MAX_SLOTS", 0)  # a drive too full for a ring: groups as files
    j = on_fat.Journal(str(folder), group_bytes=200)
    j.recover()
    for m in made:
        _write(j, m)
    j.ack([1])
    j.close()
    assert j._slots is None and sorted(n for n in os.listdir(folder) if n.endswith(".tbj")) == [
        "g000001.tbj",
        "g000002.tbj",
    ]
    monkeypatch.setattr(on_fat, "FAT", False)
    store = Store(str(tmp_path / "club.sqlite"))
    s = rescuing.sync_drive(str(folder), store)
    assert s.device.startswith("unknown") and sorted(n for n, _ in s.new) == [1, 2], s.lines()
    want = {n: match_digest(h, evs) for n, (h, evs, _) in enumerate(made, 1)}
    assert store.digests(s.device, [1, 2]) == want


def test_group_files_beside_a_ring_are_not_rescued(tmp_path, drive):
    # A ring is the whole journal (the box makes none beside group files): a g*.tbj put beside
    # it by hand holds no match of the box's.
    folder, held, _ = drive
    h, evs, res = jt.typical(9)
    recs = [R.group_record(9), R.match_record(9, h)] + [R.event_record(e) for e in evs]
    recs += [R.value_record(R.RESULT, res), R.confirm_record(0), R.confirm_record(1)]
    (folder / "g000009.tbj").write_bytes(b"".join(recs))
    store = Store(str(tmp_path / "club.sqlite"))
    s = rescuing.sync_drive(str(folder), store)
    assert sorted(n for n, _ in s.new) == sorted(held) and not s.refused, s.lines()
