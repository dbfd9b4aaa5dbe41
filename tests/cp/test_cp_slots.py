"""The journal's space allocated once on CircuitPython's FAT drive (box/fat/ring.py's Ring,
docs/journal.md "On FAT"), on the emulated CircuitPython 10.2.1 with every flash write traced:
a drive whose ring (two slots, made and written on the PC by box/journal.py under CPython, as
an install makes the ring before the box writes in it) holds match 1 (acknowledged) and match
2; code.py starts match 3, a new group that reuses match 1's slot (wiped in place), plays and
confirms it, acknowledges 2 and 3 (journal.ack in place), and starts match 4 in match 2's slot.
Every flash write after the boot is inside the ring's two files: none in the drive's first
4 KiB (boot sector and FAT), none in a directory. A cut before each erase and program, and
half way through each, replayed on the PC: every call that had returned is in the journal (or
one more), nothing else, no damage. Two cut drives booted again: CircuitPython's own recovery
reads what the PC read."""

import json
import os
import shutil

import cpcut
import pytest

from scorebox.sim.cp import emu

SMALL = 200  # group_bytes: each match a new group
H3 = {"archers": ["Cat", "Dan"], "distance": 18}
H4 = {"archers": ["Eve", "Fay"], "distance": 30}
EVENTS = [5, 70, 9, 137]
RESULT = {"winner": "A", "games": [2, 1]}
MORE = 40
RING = ("tbja/journal.tbs", "tbjb/journal.tbs")
# code.py: after a boot the journal's view; on a drive whose last match is 2, the calls, each
# one's return marked in nvm[0:2] (mark k: k calls returned).
CODE = """import json, microcontroller, supervisor, time
while not supervisor.runtime.serial_connected:
    time.sleep(0.01)
from box.journal import Journal
j = Journal("/", group_bytes=%(small)d)
rep = j.recover()
o = j.open_match()
acked = [j.acked(n) for n in (1, 2, 3)]
print("VIEW " + json.dumps([j._groups, j._slots.firsts, acked, list(o[2]) if o else None, rep["damage"]]))
if j.last() == 2:
    nvm = microcontroller.nvm
    calls = [lambda: j.start_match(%(h3)r)] + [lambda e=e: j.append(e) for e in %(events)r]
    calls += [lambda: j.finish(%(result)r), lambda: j.confirm(0), lambda: j.confirm(1), lambda: j.ack([2, 3])]
    calls += [lambda: j.start_match(%(h4)r), lambda: j.append(%(more)d)]
    nvm[0:2] = bytes(2)
    for k, call in enumerate(calls):
        call()
        nvm[0:2] = bytes(((k + 1) >> 8, (k + 1) & 255))
"""
CALLS = 1 + len(EVENTS) + 4 + 2
NEW3, ACKED, NEW4 = 1, 1 + len(EVENTS) + 4, CALLS - 1  # the calls that start a group, acknowledge


def _box_journal():
    from box import journal
    from scorebox_core import fatlayout

    return journal, fatlayout


class _OnFat:
    """box/journal.py under CPython as on CircuitPython (its FAT flag), rings of at most two slots."""

    def __enter__(self):
        self.journal, self.lay = _box_journal()
        self.was = self.journal.FAT, self.lay.MAX_SLOTS
        self.journal.FAT, self.lay.MAX_SLOTS = True, 2
        return self.journal

    def __exit__(self, *exc):
        self.journal.FAT, self.lay.MAX_SLOTS = self.was


def _ring_files(tmp):
    """The ring as the drive starts with it, made and written on the PC: match 1 (acknowledged)
    and match 2, each a group of its own, both slots full."""
    with _OnFat() as journal:
        j = journal.Journal(tmp, group_bytes=SMALL)
        j.recover()
        for k in (1, 2):
            j.start_match({"archers": ["Ann", "Bob"], "n": k})
            for e in EVENTS[: k + 1] * (800 if k == 1 else 1):  # match 1 about 5 KiB: its slot's
                j.append(e)  # wipe rewrites two flash sectors of each copy
            j.finish(RESULT)
            j.confirm(0)
            j.confirm(1)
        j.ack([1])
        assert j._slots.firsts == [1, 2]
        j.close()
    out = []
    for p in RING:
        with open(os.path.join(tmp, p), "rb") as f:
            out.append((p, f.read()))
    return out


def calls_in(files, tmp):
    """How many of code.py's calls the ring on a drive shows done ({path: bytes}), read on the PC
    by box/journal.py with its FAT flag (the ring's recovery); ValueError for anything else."""
    if os.path.isdir(tmp):
        shutil.rmtree(tmp)
    for p in RING:
        os.makedirs(os.path.join(tmp, os.path.dirname(p)))
        with open(os.path.join(tmp, p), "wb") as f:
            f.write(files[p])
    with _OnFat() as journal:
        j = journal.Journal(tmp, group_bytes=SMALL)
        rep = j.recover()
        try:
            return _calls(j, rep)
        finally:
            j.close()


def _calls(j, rep):
    if rep["damage"] or j._slots is None:
        raise ValueError("damage %s, ring %s" % (rep["damage"], j._slots))
    g = j._groups
    if 2 in g and not j.acked(2):  # match 2 whole until the PC holds it (then its slot's wipe may begin)
        h, events, x = j.read_match(2)
        if list(events) != EVENTS[:3] or x["result"] != RESULT or x["confirmed"] != [True, True]:
            raise ValueError("match 2 is %r %r" % (list(events), x))
    if 1 in g and 3 in g:
        raise ValueError("match 1's slot holds two groups")
    if 3 not in g:
        if g not in ([1, 2], [2]) or j.open_match() is not None or j.acked(2):
            raise ValueError("groups %r before match 3" % g)
        return 0
    o = j.open_match()
    if 4 in g:
        if (
            2 in g
            or not j.acked(3)
            or o is None
            or o[1].get("archers") != H4["archers"]
            or list(o[2]) not in ([], [MORE])
        ):
            raise ValueError("match 4 %r in %r" % (o, g))
        return NEW4 + len(o[2])
    if o is not None:
        if o[1].get("archers") != H3["archers"] or list(o[2]) != EVENTS[: len(o[2])]:
            raise ValueError("match 3 open as %r" % (o,))
        return NEW3 + len(o[2])
    h, events, x = j.read_match(3)
    if list(events) != EVENTS or x["result"] != RESULT or h.get("archers") != H3["archers"]:
        raise ValueError("match 3 is %r %r" % (list(events), x))
    c = x["confirmed"]
    if c[1] and not c[0]:
        raise ValueError("B confirmed before A")
    done = NEW3 + len(EVENTS) + 1 + c[0] + c[1]
    if j.acked(2) != j.acked(3):
        raise ValueError("2 and 3 acknowledged apart")
    return done + (1 if j.acked(3) else 0)


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    """(tmp, start image, ops, first, console) of code.py's run on the emulated CircuitPython."""
    from cphelp import core_sources

    from scorebox.device.firmware import firmware_dir

    tmp = str(tmp_path_factory.mktemp("cp-slots"))
    files = list(core_sources()) + [("boot.py", cpcut.BOOT)]
    for rel in cpcut.JOURNAL_MODULES:
        with open(os.path.join(firmware_dir(), rel), "rb") as f:
            files.append((rel, f.read()))
    code = CODE % {"small": SMALL, "h3": H3, "h4": H4, "events": EVENTS, "result": RESULT, "more": MORE}
    files += _ring_files(os.path.join(tmp, "pc")) + [("code.py", code.encode())]
    start = os.path.join(tmp, "slots.start")
    with open(start, "wb") as f:
        f.write(emu.fs_image(files))
    console, trace, _ = cpcut.run(start, tmp, "slots")
    ops, first = cpcut.read_trace(trace)
    with open(start, "rb") as f:
        return tmp, f.read(), ops, first, console


def test_after_the_boot_every_flash_write_is_inside_the_rings_files(traced):
    tmp, start, ops, first, console = traced
    assert first is not None and ops[-1][4] == CALLS, console[-800:]
    ring = set()
    for p in RING:
        ring.update(cpcut.clusters(start, p))
    assert min(ring) >= 4096
    after = [o for o in ops[first:] if o[4] < CALLS]  # up to the last call's return (then code.py
    # ends and CircuitPython closes the files: their directory entries, docs/journal.md)
    for kind, off, n, _, mark in after:
        inside = all(c in ring for c in range(off - off % 512, off + n, 512))
        assert inside, "%s of %d bytes at %#x (call %d) is outside the ring" % (
            ("erase", "program")[kind - 1],
            n,
            off,
            mark,
        )
    # The new groups and the acknowledgement wrote flash (their slot's, the acknowledgements').
    for call in (NEW3, ACKED, NEW4):
        assert [o for o in after if o[4] == call - 1], call


def test_every_cut_of_a_new_group_a_slots_reuse_and_an_acknowledgement_keeps_every_call(traced):
    tmp, start, ops, first, _ = traced
    bad = cpcut.failures(start, ops, tmp, first=first, last=CALLS, count=calls_in, paths=RING)
    cuts = 2 * (len(ops) - first)
    print("cuts replayed: %d (%d flash writes)" % (cuts, len(ops) - first))
    assert not bad, "%d of %d cuts lost a call that had returned or took one not made: %s" % (len(bad), cuts, bad[:5])


REBOOTS = 2


def test_circuitpython_recovers_what_the_pc_read_after_a_cut(traced):
    tmp, start, ops, first, _ = traced
    # cuts inside the wipe of match 1's slot and inside the acknowledgement's write
    chosen = [s for s in cpcut.states(start, ops) if s[0].startswith("inside") and int(s[0].split()[1]) >= first]
    picks = [next(s for s in chosen if s[2] == NEW3 - 1), next(s for s in chosen if s[2] == ACKED - 1)]
    for name, image, mark in picks[:REBOOTS]:
        want = calls_in(cpcut.drive_files(image, tmp, RING), os.path.join(tmp, "j"))
        cut = os.path.join(tmp, "cut.img")
        with open(cut, "wb") as f:
            f.write(image)
        console, _, _ = cpcut.run(cut, tmp, "reboot")
        line = [ln for ln in console.splitlines() if ln.startswith("VIEW ")]
        assert line, console[-600:]
        groups, firsts, acked, events, damage = json.loads(line[0][5:])
        assert damage == [] and want in (mark, mark + 1), (name, want, mark)
        assert sorted(f for f in firsts if f) == groups[-2:] or sorted(f for f in firsts if f) == groups, (name, groups)
        assert (3 in groups) == (want >= NEW3) and acked[1] == (want > ACKED - 1), (name, groups, acked, want)
