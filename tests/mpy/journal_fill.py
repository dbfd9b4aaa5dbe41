"""Writes finished matches into a virtual Pico's flash file, through the box's own journal.

    micropython -X heapsize=8m tests/mpy/journal_fill.py FLASH MATCHES.json [--torn] [--damage]

MATCHES.json: a list of {"header": {...}, "events": [...]}; each match is replayed with
the rules core (so the result is the box's own), finished and confirmed by both sides.
--damage flips a bit in match 2's result record. --torn leaves half an arrow record at
the end of the journal, as a power cut while writing would (the box sets it aside at its
next boot). The journal is written on a RAM flash (a file-backed one costs a host file
write per block write, and LittleFS makes many) whose image then becomes the flash file.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import json
import os
import sys

from box.journal import Journal
from scorebox_core.games.ttb.rules import Match, Options
from scorebox_core.match import result
from vpico import board as vboard
from vpico.blockdev import RamBlockDev


def main(flash, path, torn, damage):
    bdev = RamBlockDev(blocks=352, block_size=4096)
    b = vboard.Board(bdev=bdev)
    j = Journal(b.root)
    j.recover()
    with open(path) as f:
        matches = json.load(f)
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
    if damage:  # a bit flipped in match 2's result record, as a worn flash cell would
        from scorebox_core import records

        name = b.root + "/" + sorted(n for n in os.listdir(b.root) if n.endswith(".tbj"))[0]
        with open(name, "rb") as f:
            data = f.read()
        results = [off for off, _, t, _ in records.scan_bytes(data) if t == records.RESULT]
        at = results[1] + 2
        with open(name, "r+b") as f:
            f.seek(at)
            f.write(bytes((data[at] ^ 0x10,)))
    if torn:
        with open(b.root + "/" + sorted(n for n in os.listdir(b.root) if n.endswith(".tbj"))[-1], "ab") as f:
            f.write(b"\x31\x05")  # an arrow record's head and event, its CRC never written
    vboard.unmount(b.root)
    with open(flash, "wb") as f:
        f.write(bdev.data)  # the image as it is, without a copy in the heap
    print(len(matches))


main(sys.argv[1], sys.argv[2], "--torn" in sys.argv, "--damage" in sys.argv)
