"""`scorebox sync` from the emulated CircuitPython Pico whose journal is in its ring (box/
ring.py's Ring, docs/journal.md "On FAT"): the drive as `scorebox deploy --circuitpython`
leaves it (the ring made by the install's own make_ring) with matches written by box/journal.py
with its FAT flag, on the PC, over two groups of the ring's slots. The real CLI syncs them over
usb_cdc.data: LIST names the slots' groups as group files, READ streams each from the ring's
file (ring.Region on CircuitPython's VM), every match stored as the journal holds it;
the ACK is kept in place in the ring (a second sync finds nothing new, and the drive after
the power is off holds the acknowledgements), and the journal made, grew or deleted no file."""

import os
import sqlite3
import subprocess
import sys

import pytest
from cplink import LINK
from matchgen import box_matches

from scorebox.device import cpinstall
from scorebox.sim.cp import emu

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rp2"))
from rp2help import wait_hello

COUNT = 60
GROUP = 4096  # group_bytes on the PC: the matches over several slots


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=600)


def _journal_on_fat(folder, matches):
    """The matches written into the ring in folder by box/journal.py with its FAT flag: the
    number of groups."""
    from box import journal
    from scorebox_core.games.ttb.rules import Match, Options
    from scorebox_core.match import result

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(journal, "FAT", True)
        j = journal.Journal(folder, group_bytes=GROUP)
        j.recover()
        assert j._slots is not None
        for m in matches:
            h = m["header"]
            a = h["archers"]
            match = Match(Options.from_dict(h["options"]), (tuple(a[0]), tuple(a[1])))
            j.start_match(h)
            for ev in m["events"]:
                match.apply(ev)
                j.append(ev)
            j.finish(result(match))
            j.confirm(0)
            j.confirm(1)
        j.close()
        return len(j._groups)


def _ring(files, tmp):
    """box/journal.py's view of a drive's ring ({path: bytes}): (last match, floor acknowledged)."""
    from box import journal

    for p in ("tbja/journal.tbs", "tbjb/journal.tbs"):
        os.makedirs(os.path.join(tmp, os.path.dirname(p)), exist_ok=True)
        with open(os.path.join(tmp, p), "wb") as f:
            f.write(files[p])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(journal, "FAT", True)
        j = journal.Journal(tmp)
        rep = j.recover()
        assert rep["damage"] == [], rep
        return j.last(), j._floor


@pytest.fixture(scope="module")
def synced(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cpring")
    files = dict(cpinstall.built(), **{"code.py": LINK})
    drive = tmp / "CIRCUITPY"
    for rel, data in files.items():
        os.makedirs(os.path.dirname(drive / rel), exist_ok=True)
        (drive / rel).write_bytes(data)
    slots = cpinstall.make_ring(str(drive))  # as the install makes it (here the most: a PC's disk)
    groups = _journal_on_fat(str(drive), box_matches(COUNT, seed=3))
    on = {}
    for d, _, names in os.walk(drive):
        for n in names:
            on[os.path.relpath(os.path.join(d, n), drive).replace(os.sep, "/")] = (drive / d / n).read_bytes()
    flash = str(tmp / "cp.flash")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(sorted(on.items())))
    db = str(tmp / "cp.sqlite")
    pico = emu.EmulatedCircuitPython(flash)
    try:
        pico.wait_usb()
        wait_hello(pico.data_port)
        first = scorebox("sync", "--port", pico.data_port, "--db", db)
        again = scorebox("sync", "--port", pico.data_port, "--db", db)
        pico.power_off()
    finally:
        pico.close()
    after = {p.lower(): b for p, b in emu.fs_files(flash).items()}  # pyfatfs's short names upper case
    return slots, groups, {p.lower(): b for p, b in on.items()}, first, again, db, after, str(tmp / "read")


def test_every_match_in_the_rings_slots_is_synced(synced):
    slots, groups, _, first, _, db = synced[:6]
    assert slots and 2 <= groups <= slots
    assert first.returncode == 0 and "%d new matches stored" % COUNT in first.stdout, first.stdout + first.stderr
    con = sqlite3.connect(db)
    try:
        assert con.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == COUNT
    finally:
        con.close()


def test_the_acknowledgement_is_kept_in_the_ring_and_no_file_is_made(synced):
    _, _, before, _, again, _, after, tmp = synced
    assert again.returncode == 0 and "0 new matches stored" in again.stdout, again.stdout + again.stderr
    assert _ring(after, tmp) == (COUNT, COUNT)  # in the drive's flash after the power went
    # The box's store (its id, the settings, the roster the PC sent) is files still (docs/journal.md,
    # "What is not yet safe"); the journal made none.
    made = {p for p in after if p not in before} - {"boot_out.txt", "device.id", "settings.json", "roster.txt"}
    assert not made, made
    assert {p: len(b) for p, b in after.items() if p in before} == {p: len(b) for p, b in before.items()}
