"""A full CIRCUITPY drive says so, in the box's words (issue 25; docs/journal.md "On FAT").

The emulated CircuitPython Pico boots once on a drive kept without the journal's ring (too full
for one: box/fat/ring.py's Ring) whose journal's newest group is full (its
two copies made on the PC by box/journal.py with its FAT flag set: the next match needs a new
group, 80 KiB of copies) and whose free space a filler file leaves short of that, but room for
the old accounting's ballast and part of a copy. The box's journal there must refuse the match
with JournalFull's sentence before it writes anything (the drive's files compared before and
after the boot), report the drive full (space(): no match left), and the app's Session.start
must hand the Message screen that sentence, whole on its lines, in both games."""

import json
import os
import shutil

import pytest
from cphelp import core_sources, free_blocks

from scorebox.device.firmware import firmware_dir
from scorebox.sim.cp import emu

BOOT = b'import storage\nstorage.remount("/", readonly=False)\n'
HEADER = {"options": {"games": 3}, "archers": ["Ann", "Bob"], "distance": 18, "unit": "m"}
EVENTS = [5, 70, 9, 137, 14, 256, 14, 200, 33, 258, 7, 96] * 2
FREE = 120  # 512-byte blocks left free: under a new group's 176, over the old ballast's 32
GAMES = ("tictacbow", "try-tac-toe")
MODULES = ("__init__", "journal", "recovery", "acks", "session", "store", "ui", "keys")
MODULES += tuple("fat/" + m for m in ("__init__", "group", "recovery", "kept", "ring", "twin"))  # on FAT
MODULES += ("games/__init__",)  # the box's registry of games (box/session.py asks it)
CODE = """import json, os, supervisor, time
while not supervisor.runtime.serial_connected:
    time.sleep(0.01)
from box.journal import Journal
j = Journal("/")
j.recover()
print("SPACE " + json.dumps([j.space(), list(os.statvfs("/"))]))
try:
    j.start_match(%(header)r)
    print("START null")
except Exception as e:
    print("START " + json.dumps([type(e).__name__, str(e)]))
print("AFTER " + json.dumps(j.space()))
from box.session import Session
from box.store import Store
from box.ui import wrap
from scorebox_core import games
s = Session(j, Store("/"))
for gid in %(games)r:  # what the app's New match > Start shows (box/setup.py: app.message(why))
    g = games.get(gid)
    why = s.start(g, games.part(g, "RULES").Options(), [["Ann"], ["Bob"]])
    print("SCREEN " + json.dumps([gid, wrap(why) if why else None]))
"""


def _full_group(tmp):
    """{path: bytes} of a journal whose newest group (both copies) is full, and its matches,
    written by box/journal.py as on CircuitPython's FAT."""
    from box import journal
    from scorebox_core import fatlayout

    folder = os.path.join(tmp, "journal")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(journal, "FAT", True)
        mp.setattr(fatlayout, "MAX_SLOTS", 0)  # a drive too full for a ring
        j = journal.Journal(folder)
        j.recover()
        while len(j._groups) < 2:  # until a match opens the next group: the first is full
            j.start_match(HEADER)
            for e in EVENTS:
                j.append(e)
            j.finish({"winner": "A", "games": [2, 1]})
            j.confirm(0)
            j.confirm(1)
        j.close()
    matches = j.last() - 1
    files = {}
    for name in ("g000001.tbj", "tbjb/g000001.tbj"):
        with open(os.path.join(folder, name), "rb") as f:
            files[name] = f.read()
    shutil.rmtree(folder)
    return files, matches


@pytest.fixture(scope="module")
def booted(tmp_path_factory):
    tmp = str(tmp_path_factory.mktemp("cp-journal-full"))
    journal, matches = _full_group(tmp)
    fw = firmware_dir()
    files = dict(core_sources())
    for m in MODULES:
        with open(os.path.join(fw, "box", m + ".py"), "rb") as f:
            files["box/%s.py" % m] = f.read()
    files.update(journal)
    files["boot.py"] = BOOT
    files["code.py"] = (CODE % {"header": HEADER, "games": GAMES}).encode()
    # boot_out.txt, which CircuitPython writes at boot, takes one more
    filler = (free_blocks(emu.fs_image(sorted(files.items())), tmp) - FREE - 1) * 512
    files["filler.bin"] = b"\x5a" * filler
    flash = os.path.join(tmp, "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(sorted(files.items())))
    before = emu.fs_files(flash)
    out = emu.EmulatedCircuitPython(flash).run_code()
    lines = {}
    for ln in out.splitlines():
        word, _, rest = ln.partition(" ")
        if word in ("SPACE", "START", "AFTER", "SCREEN"):
            lines.setdefault(word, []).append(json.loads(rest))
    assert "SCREEN" in lines, out[-1500:]
    return lines, before, emu.fs_files(flash), matches, out


def test_a_full_drive_refuses_the_match_with_journal_fulls_sentence(booted):
    lines, _, _, matches, out = booted
    space, st = lines["SPACE"][0]
    assert st[0] == 512 and 32 < st[3] < 176, st  # room for the old ballast, not for a group's copies
    assert lines["START"] == [["JournalFull", "storage full: %d matches wait for the PC; sync to make room" % matches]]


def test_nothing_on_the_drive_changed(booted):
    # the names as FatFs reads them (pyfatfs keeps the short names' case); but boot_out.txt,
    # CircuitPython's at every boot
    before, after = [dict((p.lower(), d) for p, d in fs.items() if p.lower() != "boot_out.txt") for fs in booted[1:3]]
    assert sorted(after) == sorted(before)
    assert [p for p in before if after[p] != before[p]] == []


def test_the_space_figures_say_the_drive_is_full(booted):
    lines = booted[0]
    for sp in (lines["SPACE"][0][0], lines["AFTER"][0]):
        assert sp["block_size"] == 512
        assert sp["matches_left"] == 0 and sp["full"] and sp["percent_full"] == 100 and sp["warn"], sp
        assert sp["stored"] == sp["unacked"] == booted[3]


def test_the_archer_reads_the_sentence_whole_in_both_games(booted):
    lines, matches = booted[0], booted[3]
    sentence = "storage full: %d matches wait for the PC; sync to make room" % matches
    assert sorted(g for g, _ in lines["SCREEN"]) == sorted(GAMES)
    for _, shown in lines["SCREEN"]:
        assert shown and len(shown) <= 5 and " ".join(shown) == sentence, shown  # home.Message: 5 lines
