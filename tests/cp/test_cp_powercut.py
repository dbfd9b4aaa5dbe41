"""The journal on CircuitPython's FAT drive (box/fatjournal.py, docs/journal.md "On FAT"): a
match's records written on the emulated CircuitPython Pico, every flash write they make traced,
and a power cut at each (before it, half way through an erase, half way through a program)
replayed on the PC: every record whose write had returned is there, nothing half written is
taken. The same cuts on a plain append and flush (what the journal does on LittleFS, where a
flush is all or nothing) lose records and the drive: the cuts bite. A few of the cut drives are
booted again on the emulated CircuitPython, whose own open() must read what the PC read."""

import os

import cpcut
import pytest

from scorebox.sim.cp import emu

REBOOTS = 3  # cut drives booted again: about 9 s each on a quiet machine


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    """(tmp, {twin: (start image, ops, first, console)}) for the twin copies and the plain append."""
    tmp = str(tmp_path_factory.mktemp("cp-powercut"))
    out = {}
    for twin in (True, False):
        start = os.path.join(tmp, "start%d.img" % twin)
        with open(start, "wb") as f:
            f.write(emu.fs_image(cpcut.firmware_files(twin)))
        console, trace, _ = cpcut.run(start, tmp, "run%d" % twin)
        ops, first = cpcut.read_trace(trace)
        with open(start, "rb") as f:
            out[twin] = (f.read(), ops, first, console)
    return tmp, out


def test_every_cut_of_a_match_keeps_every_committed_record(traced):
    tmp, out = traced
    start, ops, first, console = out[True]
    n = len(cpcut.records())
    assert first is not None and ops[-1][4] >= n, console
    match = [o for o in ops[first:] if o[4] < n]
    cuts = 2 * len(match)
    # Each record: an erase and a program of each copy's 4 KiB sector, nothing else (no FAT, no
    # directory; the match's records fit in one sector of each copy). The second copy's is
    # written by the next record's first write: the first record's writes make 2, the last's 6.
    assert len({off for _, off, _, _, _ in match}) == 2 and len(match) == 4 * n - 2, [o[:3] + o[4:] for o in match]
    bad = cpcut.failures(start, ops, tmp, True, first, n)
    assert not bad, "%d of %d cuts lost a committed record or took a half-written one: %s" % (len(bad), cuts, bad[:5])


def test_the_same_cuts_on_a_plain_append_lose_records(traced):
    tmp, out = traced
    start, ops, first, _ = out[False]
    bad = cpcut.failures(start, ops, tmp, False, first, len(cpcut.records()))
    assert len(bad) >= 10, bad


def test_circuitpython_reads_what_the_pc_read_after_a_cut(traced):
    tmp, out = traced
    start, ops, first, _ = out[True]
    n = len(cpcut.records())
    upto = len([o for o in ops if o[4] < n])
    chosen = [s for s in cpcut.states(start, ops[:upto]) if s[0] != "after all" and int(s[0].split()[1]) >= first]
    for name, image, mark in chosen[:: len(chosen) // REBOOTS][:REBOOTS]:
        cut = os.path.join(tmp, "cut.img")
        with open(cut, "wb") as f:
            f.write(image)
        console, _, _ = cpcut.run(cut, tmp, "reboot")
        got = len(cpcut.view(console))
        assert max(0, got - 1) in (mark, mark + 1), "%s: %d records read on the box, %d written" % (name, got, mark)
