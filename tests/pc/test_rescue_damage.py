"""`scorebox sync --raw` on a damaged journal (issue 13, High 3): the journal written by the
box's own code (box/journal.py, run here under CPython on a folder, as `pull` copies it),
a header damaged in the middle; the rescue goes on past it, reports the damaged match,
stores every other finished match and imports the quarantine file. Before, read_match()
raised JournalError at the damaged match and nothing after it was rescued."""

import os

import jt
import pytest

from box.journal import Journal  # the box's writer, importable under CPython
from scorebox.store.sqlite import Store
from scorebox.sync.rescue import rescue
from scorebox.sync.summary import Summary
from scorebox_core import records as R
from scorebox_core.journal import QUARANTINE_FILE, JournalError, Reader


def journal(folder, finished, open_match=True):
    j = Journal(str(folder))
    j.recover()
    for seed in range(1, finished + 1):
        jt.write(j, *jt.typical(seed))
    if open_match:  # the match in progress stays on the box
        h, evs, _ = jt.typical(99)
        j.start_match(h)
        for ev in evs[:5]:
            j.append(ev)
    j.close()
    (name,) = [n for n in os.listdir(folder) if n.endswith(".tbj")]
    return os.path.join(folder, name)


def damage(path, number):
    """Flip a bit in every record from the result of match number - 1 to the header of
    match number + 1: match number is gone, and the reader cannot find it."""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    recs = [(off, t) for off, _, t, _ in R.scan_bytes(bytes(data))]
    a = [o for o, t in recs if t == R.RESULT][number - 2]
    b = [o for o, t in recs if t == R.MATCH][number]
    for off, _ in recs:
        if a <= off < b:
            data[off + 1] ^= 0x10
    with open(path, "wb") as f:
        f.write(data)


def test_rescue_goes_on_past_a_damaged_header(tmp_path):
    folder = tmp_path / "box"
    folder.mkdir()
    path = journal(folder, 6)
    damage(path, 3)
    (folder / QUARANTINE_FILE).write_bytes(R.quarantine_records("g000001.tbj", 7, b"torn bytes"))
    r = Reader(str(folder))
    r.recover()
    with pytest.raises(JournalError):  # what stopped the rescue before
        for n in r.list_matches():
            r.read_match(n)
    store = Store(str(tmp_path / "club.sqlite"))
    s = Summary()
    rescue(str(folder), "v-test", store, s)
    stored = [n for (n,) in store.db.execute("SELECT number FROM matches ORDER BY number")]
    assert {4, 5, 6} <= set(stored) and 3 not in stored and 7 not in stored  # 7 is open: left on the box
    told = {n for n, _ in s.refused} | {n for n, _, _ in s.damaged}
    assert 3 in told and 7 not in told
    text = "\n".join(s.lines())
    assert "match 3 NOT stored" in text or "match 3 damaged" in text, text
    assert b"torn bytes" in [bytes(r[0]) for r in store.db.execute("SELECT data FROM quarantine")]
    assert s.quarantined >= 1
    again = Summary()
    rescue(str(folder), "v-test", store, again)  # a second rescue adds nothing
    assert again.new == [] and store.count() == len(stored)
