"""`scorebox sync` prints what a box says escaped (issue 21, item 12): the box's own error
text, the store id it names and a match's winner may hold C1 controls (\\x9b is a CSI on
many terminals), ESC or bidirectional overrides; they are shown as scorebox.text escapes
them in names (\\x1b, \\x9b, \\u202e), never sent raw to the terminal. The hostile box
answers real frames over a real pseudo-terminal to the real command; its journal file is
written by the box's own journal writer (box/journal.py, under CPython)."""

import os
import subprocess
import sys

import jt
from test_sync_hostile_box import GOOD_HELLO, HostileBox, listing

from box.journal import Journal  # the box's writer, importable under CPython

EVIL = "\x1b[2J\x9b31m\u202egnirts\u2066"  # clear screen, a C1 CSI, a right-to-left override, an isolate
RAW = ("\x1b", "\x9b", "\u202e", "\u2066")
SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")


def scorebox(*args):
    return subprocess.run([SCOREBOX, *args], capture_output=True, text=True, timeout=120)


def escaped(text):
    return "\\x1b[2J\\x9b31m\\u202egnirts\\u2066" in text and not any(c in text for c in RAW)


def journal_file(folder, winner):
    """A group file holding one finished match whose result record names winner."""
    j = Journal(str(folder))
    j.recover()
    h, evs, res = jt.typical(1)
    jt.write(j, h, evs, dict(res, winner=winner))
    j.close()
    with open(os.path.join(str(folder), "g000001.tbj"), "rb") as f:
        return f.read()


def test_the_boxs_error_text_is_escaped(tmp_path):
    box = HostileBox(lambda kind, body: ("ERR", {"error": EVIL}))
    try:
        p = scorebox("sync", "--port", box.port, "--db", str(tmp_path / "club.sqlite"), "--timeout", "1")
    finally:
        box.close()
    assert p.returncode == 2 and p.stderr.startswith("the box refused HELLO: "), p.stderr
    assert escaped(p.stderr) and p.stderr.count("\n") == 1, repr(p.stderr)


def test_the_store_id_and_the_winner_from_a_box_are_escaped(tmp_path):
    folder = tmp_path / "box"
    folder.mkdir()
    data = journal_file(folder, EVIL)

    def reply(kind, body):
        if kind == "HELLO":
            return "OK", dict(GOOD_HELLO, store=EVIL)  # a store id no store makes
        if kind == "LIST":
            return "OK", listing([1], [["g000001.tbj", len(data)]])
        if kind == "READ":
            return "BIN", data[body["offset"] : body["offset"] + body["length"]]
        if kind == "NAMES":
            return "OK", {"names": [], "total": 0}
        return "OK", {}

    box = HostileBox(reply)
    try:
        p = scorebox("sync", "--port", box.port, "--db", str(tmp_path / "club.sqlite"))
    finally:
        box.close()
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 new match stored" in p.stdout
    (won,) = [line for line in p.stdout.splitlines() if line.startswith("  match 1: ")]
    assert escaped(won), repr(won)
    (foreign,) = [line for line in p.stdout.splitlines() if "belongs to another store" in line]
    assert escaped(foreign), repr(foreign)
    assert not any(c in p.stdout + p.stderr for c in RAW)
