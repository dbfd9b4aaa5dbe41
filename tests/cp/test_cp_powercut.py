"""The journal on CircuitPython's FAT drive (box/journal.py through box/fat/group.py,
docs/journal.md "On FAT"): a match written on the emulated CircuitPython Pico, every flash
write traced, and a power cut at each write of its commits (before it, half way through an
erase, half way through a program) replayed on the PC: every call that had returned is in the
journal, nothing half written is taken. The same cuts on a plain append and flush (what the
journal does on LittleFS, where a flush is all or nothing) lose records and the drive: the
cuts bite. A few of the cut drives are booted again on the emulated CircuitPython, whose own
recovery must read what the PC read, and go on with the match from there."""

import json
import os

import cpcut
import pytest

from scorebox.sim.cp import emu

REBOOTS = 2  # cut drives booted again (20-27 s each in a full run; test_cp_slots.py boots 2 more)


def _traced(tmp, name, files):
    start = os.path.join(tmp, name + ".start")
    with open(start, "wb") as f:
        f.write(emu.fs_image(files))
    console, trace, _ = cpcut.run(start, tmp, name)
    ops, first = cpcut.read_trace(trace)
    with open(start, "rb") as f:
        return f.read(), ops, first, console


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    """(tmp, the journal's run, the plain append's run): each (start image, ops, first, console)."""
    tmp = str(tmp_path_factory.mktemp("cp-powercut"))
    return tmp, _traced(tmp, "journal", cpcut.journal_files()), _traced(tmp, "append", cpcut.firmware_files(False))


def _commits(ops):
    """The writes from start_match's return to the last call's (its group's copies made)."""
    return [i for i, o in enumerate(ops) if 1 <= o[4] < cpcut.CALLS]


def test_every_cut_of_a_match_keeps_every_committed_call(traced):
    tmp, (start, ops, first, console), _ = traced
    assert first is not None and ops[-1][4] >= cpcut.CALLS, console
    commits = _commits(ops)
    # A call: an erase and a program of each copy's 4 KiB sector, nothing else (no FAT, no
    # directory; the match fits in one sector of each copy), the second copy's written by the
    # next call's first write.
    assert len({ops[i][1] for i in commits}) == 2 and len(commits) == 4 * (cpcut.CALLS - 1), [ops[i] for i in commits]
    bad = cpcut.failures(start, ops, tmp, first=commits[0], last=cpcut.CALLS, count=cpcut.calls_in, paths=cpcut.JOURNAL)
    assert not bad, "%d of %d cuts lost a committed call or took a half-written one: %s" % (
        len(bad),
        2 * len(commits),
        bad[:5],
    )


def test_the_same_cuts_on_a_plain_append_lose_records(traced):
    tmp, _, (start, ops, first, _) = traced
    bad = cpcut.failures(start, ops, tmp, False, first, len(cpcut.records()))
    assert len(bad) >= 10, bad


def test_circuitpython_recovers_what_the_pc_read_after_a_cut(traced):
    tmp, (start, ops, first, _), _ = traced
    commits = _commits(ops)
    chosen = [s for s in cpcut.states(start, ops[: commits[-1] + 1]) if s[0] != "after all"]
    chosen = [s for s in chosen if int(s[0].split()[1]) >= commits[0]]
    for name, image, mark in chosen[:: len(chosen) // REBOOTS][:REBOOTS]:
        cut = os.path.join(tmp, "cut.img")
        with open(cut, "wb") as f:
            f.write(image)
        console, _, _ = cpcut.run(cut, tmp, "reboot")
        got = cpcut.view_calls(console)
        assert got in (mark, mark + 1), "%s: %d calls read on the box, %d made" % (name, got, mark)
        events = cpcut.view(console)[1]
        if events is not None:  # the match goes on after the cut: its next event lands after them
            more = [ln for ln in console.splitlines() if ln.startswith("MORE ")]
            assert more and json.loads(more[0][5:]) == events + [cpcut.MORE], console[-600:]
