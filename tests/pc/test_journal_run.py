"""Telling a box's journal wiped by hand from a fake in the store (issue 21 item 8, as reviewed):
sync/plan.py journal_run compares every listed number the store holds, in order, until one
is the same match; only when none is (and one could be read) did the journal start again.
Before, only the box's oldest match was compared: a wiped journal whose first match could
not be read whole was never spotted (its matches "NOT acknowledged" for ever), and a fake
in the store at the box's oldest number was taken for a wipe (the box's matches stored
again, as another run). A box cannot list a number of the next run (check_list).

The journals are written by the box's own writer (box/journal.py under CPython) into a
folder, as `scorebox sync --raw` copies them, and rescued into a real store."""

import json
import os

import jt
import pytest

from box.journal import Journal  # the box's writer, importable under CPython
from scorebox.device.link import DeviceError
from scorebox.store.sqlite import Store
from scorebox.sync.plan import RUN
from scorebox.sync.protocol import check_list
from scorebox.sync.rescue import rescue
from scorebox.sync.summary import Summary
from scorebox_core import records as R

UID = "e6614103e7a1b2c3"


def journal(folder, seeds):
    """The box's journal of the matches jt.typical(seed) in folder, numbered from 1."""
    os.makedirs(folder)
    j = Journal(str(folder))
    j.recover()
    for seed in seeds:
        jt.write(j, *jt.typical(seed))
    j.close()
    return str(folder)


def rescued(folder, store):
    s = Summary()
    rescue(folder, UID, store, s)
    return s


def numbers(store):
    return [n for (n,) in store.db.execute("SELECT number FROM matches ORDER BY number")]


def test_a_wiped_journal_whose_first_match_is_damaged_is_spotted(tmp_path):
    store = Store(str(tmp_path / "club.sqlite"))
    rescued(journal(tmp_path / "before", (1, 2, 3, 4)), store)
    assert numbers(store) == [1, 2, 3, 4]
    after = journal(tmp_path / "after", (11, 12, 13))  # wiped, keyed again: 1, 2, 3
    path = os.path.join(after, "g000001.tbj")
    data = bytearray(open(path, "rb").read())
    first = [off for off, _, t, _ in R.scan_bytes(bytes(data)) if t == R.MATCH][0]
    data[first + 1] ^= 0x10  # match 1's header damaged: its copy cannot be read whole
    with open(path, "wb") as f:
        f.write(data)
    s = rescued(after, store)
    assert s.restarted == (2, RUN), s.lines()
    assert numbers(store)[:4] == [1, 2, 3, 4] and {RUN + 2, RUN + 3} <= set(numbers(store))
    assert not s.differ
    text = "\n".join(s.lines())
    assert "  match 2 (stored as %d): " % (RUN + 2) in text, text


def test_a_fake_at_the_boxs_oldest_number_is_no_wipe(tmp_path):
    """The store's match 1 replaced (a hand-edited import): the box's 2-4 are the store's,
    so only match 1 differs (not acknowledged); nothing is stored again as another run."""
    store = Store(str(tmp_path / "club.sqlite"))
    folder = journal(tmp_path / "box", (1, 2, 3, 4))
    rescued(folder, store)
    _, evs, _ = jt.typical(1)
    store.db.execute("UPDATE matches SET log = ? WHERE number = 1", (json.dumps(list(reversed(evs))),))
    s = rescued(folder, store)
    assert s.restarted is None and s.new == [], s.lines()
    assert [n for n, _ in s.differ] == [1]
    assert numbers(store) == [1, 2, 3, 4]


def test_a_box_lists_no_number_of_the_next_run():
    """A match number of RUN or more would be stored in the box's next run (base + n):
    refused in one line, as every bad LIST is."""
    reply = {"ranges": [[5, 5], [RUN - 1, RUN - 1]], "files": [], "more": False}
    assert check_list(reply, 0, 0)["matches"] == [5, RUN - 1]
    with pytest.raises(DeviceError) as e:
        check_list({"ranges": [[5, 5], [RUN, RUN]], "files": [], "more": False}, 0, 0)
    assert str(e.value) == "the box's reply to LIST is not valid (run [%d, %d] after 5): is it a Scorebox?" % (RUN, RUN)
