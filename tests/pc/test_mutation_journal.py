"""The journal's reader (firmware/scorebox_core/journal.py, docs/journal.md) pinned whole,
where `make mutate` found parts no CPython test held (issue 21, item 16): every field of a
folded match (a stray record, a damaged stretch, a lost header), and what a Reader says of a
journal of two group files, journal.ack included. The files are made record by record with
records.py, the very format the box writes."""

import pytest
from journalfold import fold

from scorebox_core import records as R
from scorebox_core.journal import EXTRAS, JournalError, Reader, group_first, group_name


class File:
    """A group file's bytes, built record by record; offsets of each record kept by name."""

    def __init__(self):
        self.data = bytearray()
        self.at = {}

    def add(self, rec, name=None):
        if name:
            self.at[name] = len(self.data)
        self.data += rec
        return self


def extras(**kw):
    x = {
        "result": None,
        "confirmed": [False, False],
        "notes": [],
        "face": None,
        "damaged": 0,
        "stray": 0,
        "header_lost": False,
    }
    x.update(kw)
    return x


def test_a_clean_file_folds_field_by_field():
    f = File().add(R.group_record(1))
    f.add(R.match_record(1, {"game": "g1"}), "m1").add(R.event_record(5)).add(R.event_record(300))
    f.add(R.value_record(R.NOTE, "wind")).add(R.value_record(R.FACE, {"id": 9}))
    f.add(R.value_record(R.RESULT, {"winner": "A"})).add(R.confirm_record(1), "c1")
    f.add(R.event_record(6), "stray")  # after the result: kept as a stray, not an event
    f.add(R.match_record(2, {"face": {"id": 3}}), "m2").add(R.confirm_record(0))  # confirmed before a result
    f.add(R.event_record(7))
    out, fo = fold(f.data)
    assert [m[:3] for m in out] == [[1, {"game": "g1"}, [5, 300]], [2, {"face": {"id": 3}}, [7]]]
    x1, x2 = out[0][EXTRAS], out[1][EXTRAS]
    want1 = extras(result={"winner": "A"}, confirmed=[False, True], notes=["wind"], face={"id": 9}, stray=1)
    assert x1 == dict(want1, offset=f.at["m1"], end=f.at["m2"])
    assert x2 == dict(extras(stray=1), offset=f.at["m2"], end=len(f.data))
    assert fo.first == 1 and fo.last == 2 and fo.stray == 0
    assert fo.index == [(1, f.at["m1"]), (2, f.at["m2"])]
    assert fo.spans == [[0, len(f.data)]] and fo.damage == [] and fo.gaps == []
    assert fo.finished == 1 and fo.finished_bytes == f.at["c1"] - f.at["m1"]  # to its result's end
    assert fo.face == ({"id": 3}, 2, True)


def test_damage_inside_a_match_and_a_lost_header():
    f = File().add(R.group_record(4))
    f.add(R.match_record(4, {}), "m4").add(R.event_record(1))
    f.add(b"\x00" * 5, "bad1")  # type 0 is never written: damage
    f.add(R.event_record(2)).add(R.value_record(R.RESULT, {"winner": "B"}), "r4")
    f.add(b"\xff" * 7, "bad2")  # took match 5's header
    f.add(R.event_record(3), "e5").add(R.value_record(R.RESULT, {"winner": "draw"}))
    f.add(R.value_record(R.FACE, {"id": 1}), "face")
    out, fo = fold(f.data)
    assert [m[:3] for m in out] == [[4, {}, [1, 2]], [5, {}, [3]]]
    assert out[0][EXTRAS] == dict(
        extras(result={"winner": "B"}, damaged=2),
        offset=f.at["m4"],
        end=f.at["r4"] + len(R.value_record(R.RESULT, {"winner": "B"})),
    )
    assert out[1][EXTRAS] == dict(
        extras(result={"winner": "draw"}, damaged=1, header_lost=True, face={"id": 1}),
        offset=f.at["e5"],
        end=len(f.data),
    )
    assert fo.damage == [(f.at["bad1"], 5), (f.at["bad2"], 7)]
    assert fo.spans == [[0, f.at["bad1"]], [f.at["bad1"] + 5, f.at["bad2"]], [f.at["bad2"] + 7, len(f.data)]]
    assert fo.last == 5 and fo.stray == 0 and fo.face == ({"id": 1}, 5, False)


def test_records_before_any_match_are_strays_and_a_header_lost_first_takes_the_files_number():
    f = File().add(R.group_record(7)).add(R.confirm_record(0)).add(R.value_record(R.FACE, {"id": 2}))
    out, fo = fold(f.data)
    assert out == [] and fo.stray == 1 and fo.face == ({"id": 2}, 0, False)  # a face is no stray
    f.add(b"\x00\x00\x00").add(R.event_record(8), "e")
    out, fo = fold(f.data)
    assert [m[:3] for m in out] == [[7, {}, [8]]] and out[0][EXTRAS]["header_lost"]


def test_group_file_names():
    assert group_name(12) == "g000012.tbj" and group_first("g000012.tbj") == 12
    assert group_first("g1.tbj") is None and group_first("x000012.tbj") is None and group_first("g00001x.tbj") is None
    assert group_first("g0000123.tbj") == 123 and group_first("g000012.tbx") is None


def journal(tmp_path, ack=None, open_match=True, confirm4=0, damage3=False):
    """Two group files: matches 1-3 (1 and 2 confirmed, 3 by A only) and 4-5 (4 confirmed
    by one side, A unless confirm4 is 1; 5 open with two arrows, unless not open_match; the
    face put up before match 5). damage3: a damaged stretch between match 3's arrows."""
    g1 = File().add(R.group_record(1))
    for n in (1, 2, 3):
        g1.add(R.match_record(n, {"n": n})).add(R.event_record(n))
        if n == 3 and damage3:
            g1.add(b"\x00" * 6).add(R.event_record(33))
        g1.add(R.value_record(R.RESULT, {"winner": "A"})).add(R.confirm_record(0))
        if n < 3:
            g1.add(R.confirm_record(1))
    g4 = File().add(R.group_record(4))
    g4.add(R.match_record(4, {"n": 4})).add(R.event_record(4)).add(R.value_record(R.RESULT, {"winner": "B"}))
    g4.add(R.confirm_record(confirm4))
    g4.add(R.value_record(R.FACE, {"id": 4}))
    if open_match:
        g4.add(R.match_record(5, {"n": 5})).add(R.event_record(50)).add(R.event_record(51))
    (tmp_path / "g000001.tbj").write_bytes(bytes(g1.data))
    (tmp_path / "g000004.tbj").write_bytes(bytes(g4.data))
    (tmp_path / "notes.txt").write_text("not a group file")
    if ack is not None:
        (tmp_path / "journal.ack").write_bytes(bytes(R.value_record(R.ACK, ack)))
    return Reader(str(tmp_path) + "/")


def test_a_reader_of_two_group_files(tmp_path):
    r = journal(tmp_path, ack={"floor": 1, "acked": [[3, 3]], "next": 6})
    rep = r.recover()
    assert rep == {
        "damage": [],
        "quarantined": 0,
        "removed": [],
        "freed": [],
        "groups": 2,
        "matches": 5,
        "open": 5,
        "arrows": 2,
        "unconfirmed": None,  # the newest match is open
        "next": 6,
        "notes": [],
    }
    assert r.last() == 5 and r.open_match() == (5, {"n": 5}, [50, 51])
    assert r.face() == ({"id": 4}, 4, False)  # the newest face record, after match 4
    assert r.unconfirmed() is None
    assert r.list_matches() == [1, 2, 3, 4] and r.list_matches(2) == [3, 4] and list(r.numbers(3)) == [4]
    assert [r.acked(n) for n in range(1, 6)] == [True, False, True, False, False]
    h, events, x = r.read_match(3)
    assert (h, events) == ({"n": 3}, [3])
    assert (x["number"], x["confirmed"], x["acked"], x["open"], x["group"]) == (
        3,
        [True, False],
        True,
        False,
        "g000001.tbj",
    )
    assert r.read_match(2)[2]["confirmed"] == [True, True] and not r.read_match(2)[2]["acked"]
    assert r.read_match(1)[1] == [1]  # before the match read last, in the same file
    # Each match's bytes in its file, however the reader got there (from a header it knew).
    heads = {}
    for name in ("g000001.tbj", "g000004.tbj"):
        for off, _, t, v in R.scan_bytes((tmp_path / name).read_bytes()):
            if t == R.MATCH:
                heads[v[0]] = off
    assert {n: r.read_match(n)[2]["offset"] for n in (3, 2, 1, 5, 4)} == heads
    x5 = r.read_match(5)[2]
    assert x5["open"] and x5["result"] is None and x5["group"] == "g000004.tbj"
    got = [(n, h, ev, x["acked"]) for n, h, ev, x in r.iter_matches(1)]
    assert got == [(2, {"n": 2}, [2], False), (3, {"n": 3}, [3], True), (4, {"n": 4}, [4], False)]
    assert [m[0] for m in r.iter_matches(3)] == [4]
    assert r.verify() == {"groups": 2, "matches": 5, "damage": []}
    with pytest.raises(JournalError, match="no match 6 on the box"):
        r.read_match(6)
    with pytest.raises(JournalError, match="no match 0 on the box"):
        r.read_match(0)


def test_the_newest_match_finished_and_not_confirmed_by_both(tmp_path):
    r = journal(tmp_path, ack={"floor": 4}, open_match=False)
    rep = r.recover()
    assert (rep["open"], rep["unconfirmed"], rep["next"], rep["matches"]) == (None, 4, 5, 4)
    assert r.unconfirmed() == (4, {"winner": "B"}, [True, False]) and r.open_match() is None
    assert r.list_matches() == [1, 2, 3, 4] and all(r.acked(n) for n in range(1, 5)) and not r.acked(5)
    b_only = journal(tmp_path, open_match=False, confirm4=1)
    assert b_only.recover()["unconfirmed"] == 4 and b_only.unconfirmed() == (4, {"winner": "B"}, [False, True])


def test_damage_inside_a_files_last_match_does_not_split_it(tmp_path):
    """The file of matches 1-3 ends with match 3 (the next file begins at 4): damage between
    its arrows is damage inside it, not matches lost there."""
    r = journal(tmp_path, damage3=True)
    h, events, x = r.read_match(3)
    assert (h, events, x["result"], x["damaged"]) == ({"n": 3}, [3, 33], {"winner": "A"}, 1)
    assert [(n, ev) for n, _, ev, _ in r.iter_matches(2)] == [(3, [3, 33]), (4, [4])]
    at = x["offset"] + len(R.match_record(3, {"n": 3})) + 3  # after match 3's header and first arrow
    assert r.verify()["damage"] == [{"file": "g000001.tbj", "offset": at, "bytes": 6}]


def test_recover_reads_the_journal_afresh(tmp_path):
    r = journal(tmp_path)
    assert r.recover()["open"] == 5
    with open(tmp_path / "g000004.tbj", "ab") as f:  # match 5 ends, both confirm
        f.write(R.value_record(R.RESULT, {"winner": "A"}) + R.confirm_record(0) + R.confirm_record(1))
    rep = r.recover()
    assert rep["open"] is None and rep["arrows"] == 0 and r.open_match() is None
    assert r.list_matches() == [1, 2, 3, 4, 5]


def test_a_fold_without_a_first_number_numbers_a_lost_header_0():
    """No group record and no file name to say where numbers start: 0, never a real number."""
    f = File().add(b"\x00\x00").add(R.event_record(1)).add(R.value_record(R.RESULT, {"winner": "A"}))
    out, _ = fold(f.data)
    assert [(m[0], m[2], m[EXTRAS]["header_lost"]) for m in out] == [(0, [1], True)]


def test_an_unreadable_ack_file_acknowledges_nothing(tmp_path):
    r = journal(tmp_path)
    (tmp_path / "journal.ack").write_bytes(b"\x00\x01\x02")
    rep = r.recover()
    assert rep["notes"] == ["journal.ack unreadable: nothing counts as acknowledged"]
    assert rep["damage"] == [{"file": "journal.ack", "offset": 0, "bytes": 3}]
    assert not any(r.acked(n) for n in range(1, 6)) and rep["next"] == 6


@pytest.mark.parametrize("what", ["an ack record of a list", "a note record of an ack's dict"])
def test_an_ack_file_of_another_record_or_value_acknowledges_nothing(tmp_path, what):
    """docs/journal.md: journal.ack holds the acknowledgement record, a dict; a sound record
    of another type or value there is no acknowledgement (the reader neither fails on it
    nor takes it as one)."""
    r = journal(tmp_path)
    wrong = R.value_record(R.ACK, [[1, 4]]) if what.startswith("an ack") else R.value_record(R.NOTE, {"floor": 4})
    (tmp_path / "journal.ack").write_bytes(bytes(wrong))
    rep = r.recover()
    assert rep["notes"] == ["journal.ack unreadable: nothing counts as acknowledged"]
    assert not any(r.acked(n) for n in range(1, 6)) and rep["next"] == 6
