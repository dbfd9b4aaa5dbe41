"""LIST's "all" on CircuitPython's FAT drive (docs/sync.md, docs/journal.md "On FAT"): a box
that belongs to another store lists every match its ring still holds, acknowledged or not,
and none of the slots taken again; nothing acknowledged changes, nothing on the drive is
written. Under CPython with box/journal.py's FAT flag."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from test_fatjournal_slots import EVENTS, _files, _journal, _match  # noqa: E402

from box import link  # noqa: E402

pytest_plugins = ("fatdrive",)  # on_fat: the journal's FAT flag set, a ring of three slots


def _list(j, every):
    """The numbers and file names LIST gives, as runs, with "all" or without."""
    from scorebox.sync import protocol

    body = {"after": 0, "ranges": True, "all": True} if every else {"after": 0, "ranges": True}
    got = protocol.check_list(link.Link(None, j, None, None).do_list(body), 0, 0)
    return got["matches"], [name for name, _ in got["files"]]


def _drive_bytes(root):
    return {p: (root / p).read_bytes() for p in _files(root)}


def test_a_ring_lists_every_match_it_holds_acknowledged_or_not(tmp_path, on_fat):
    j, _ = _journal(on_fat, tmp_path)
    for k in range(5):  # groups 1, 2, 3 in the slots, then 4 and 5 over 1 and 2
        _match(j, EVENTS[: 4 + k])
        if k < 4:
            j.ack([k + 1])
    assert sorted(j._slots.firsts) == [3, 4, 5]
    state, drive = (j._floor, list(j._ranges)), _drive_bytes(tmp_path)
    assert _list(j, False)[0] == [5]  # its own store's: what it has not acknowledged
    matches, files = _list(j, True)
    assert matches == [3, 4, 5] and files == ["g000003.tbj", "g000004.tbj", "g000005.tbj"]
    assert (j._floor, j._ranges) == state and _drive_bytes(tmp_path) == drive
