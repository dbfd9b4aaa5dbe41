"""Damaged records in a journal file, as a sync prepares and stores them (issue 13, item 6):
a lost result is replayed from the events and a lost header falls back to the rules'
defaults and placeholder names, the match stored and flagged, its arrows usable; a match
whose header went with the previous match's result is acknowledged with the whole file
kept, so that the box can free the file. Before, each of these was quarantine bytes only
(or listed by the box for ever). The journal is the box's own writer's, under CPython."""

import json

import jt
from test_rescue_damage import Journal, R, journal

from scorebox import cli
from scorebox.store.sqlite import Store
from scorebox.sync.decode import decode_file
from scorebox.sync.storing import prepare, store_batch
from scorebox.sync.summary import Progress, Summary
from scorebox_core.journal import Reader


def flip(path, rtype, index, at, *more):
    """Flip a bit at offset at inside the index-th record of type rtype (and so on for
    each further (rtype, index, at) in more), the records counted before any flip."""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    recs = list(R.scan_bytes(bytes(data)))
    for kind, k, byte in ((rtype, index, at),) + more:
        data[[off for off, _, t, _ in recs if t == kind][k] + byte] ^= 0x10
    with open(path, "wb") as f:
        f.write(data)
    return bytes(data)


def sync_file(tmp_path, data, wanted):
    store = Store(str(tmp_path / "club.sqlite"))
    s = Summary()
    done = store_batch(store, "v-test", [prepare(1, "g000001.tbj", data, set(wanted))], s, Progress(0))
    return store, s, done


def test_a_lost_result_and_a_lost_header_are_stored_flagged(tmp_path):
    path = journal(tmp_path, 4, open_match=False)
    data = flip(path, R.RESULT, 1, 3, (R.MATCH, 3, 4))  # match 2's result, match 4's header
    store, s, done = sync_file(tmp_path, data, [1, 2, 3, 4])
    assert sorted(done) == [1, 2, 3, 4] and s.damaged == []
    rows = {
        n: (json.loads(h), json.loads(x)) for n, h, x in store.db.execute("SELECT number, header, extras FROM matches")
    }
    assert sorted(rows) == [1, 2, 3, 4]
    assert rows[2][1]["lost"] == ["result"]
    assert rows[4][1]["lost"] == ["header"] and rows[4][0]["archers"] == [["A?"], ["B?"]]
    text = "\n".join(s.lines())
    assert "match 2: result replayed from its events" in text and "its header record lost" in text
    arrows = store.db.execute(
        "SELECT count(*) FROM arrows a JOIN turns t ON t.id = a.turn_id JOIN games g ON g.id = t.game_id "
        "JOIN matches m ON m.id = g.match_id WHERE m.number = 4"
    ).fetchone()[0]
    assert arrows > 0  # its arrows are rows the reports read
    store.close()
    # Its names are placeholders: `show --names` names it without --force (as a match shot A v B).
    assert cli.main(["show", "v-test/4", "--names", "Ann,Bob", "--add", "--db", str(tmp_path / "club.sqlite")]) == 0


def stored(store):
    """{number: (header, log, extras)} of the matches in the store."""
    rows = store.db.execute("SELECT number, header, log, extras FROM matches")
    return {n: (json.loads(h), json.loads(g), json.loads(x)) for n, h, g, x in rows}


def test_matches_run_together_over_a_lost_result_and_header_are_split_where_the_damage_was(tmp_path):
    path = journal(tmp_path, 4, open_match=False)
    data = flip(path, R.RESULT, 1, 3, (R.MATCH, 2, 4))  # match 2's result and 3's header: their arrows run together
    store, s, done = sync_file(tmp_path, data, [1, 2, 3, 4])
    assert sorted(done) == [1, 2, 3, 4] and s.damaged == []  # acknowledged: the box can free the file
    rows = stored(store)
    assert sorted(rows) == [1, 2, 3, 4]
    for n in (2, 3):  # each match's own arrows, none of the other's
        assert rows[n][1] == jt.typical(n)[1], n
    assert rows[2][2]["lost"] == ["result"] and rows[3][2]["lost"] == ["header"]
    assert rows[3][0]["archers"] == [["A?"], ["B?"]] and rows[2][0] == jt.typical(2)[0]
    assert rows[3][2]["result"] == jt.typical(3)[2]  # the result read after the damage is match 3's


def test_two_matches_lost_between_headers_are_split_at_the_two_longest_stretches(tmp_path):
    path = journal(tmp_path, 5, open_match=False)
    arrow = len(jt.typical(1)[1]) + 5  # an arrow of match 2 (3 bytes): not where a match begins
    cuts = ((R.RESULT, 1, 3), (R.MATCH, 2, 4), (R.RESULT, 2, 3), (R.MATCH, 3, 4))  # results of 2, 3; headers of 3, 4
    data = flip(path, R.EVENT, arrow, 1, *cuts)
    store, s, done = sync_file(tmp_path, data, [1, 2, 3, 4, 5])
    rows = stored(store)
    assert sorted(rows) == [1, 2, 3, 4, 5] and sorted(done) == [1, 2, 3, 4, 5]
    assert rows[2][1] == [e for i, e in enumerate(jt.typical(2)[1]) if i != 5]
    assert rows[3][1] == jt.typical(3)[1] and rows[4][1] == jt.typical(4)[1]
    assert [rows[n][2]["lost"] for n in (2, 3, 4)] == [["result"], ["header", "result"], ["header"]]


def test_a_file_whose_last_match_lost_its_header_with_the_result_before_is_split_by_its_end(tmp_path):
    path = journal(tmp_path, 3, open_match=False)
    data = flip(path, R.RESULT, 1, 3, (R.MATCH, 2, 4))  # match 3 is the file's last: no header after it says so
    store = Store(str(tmp_path / "club.sqlite"))
    s = Summary()
    wanted = {1, 2, 3}
    done = store_batch(store, "v-test", [prepare(1, "g000001.tbj", data, wanted, upto=3)], s, Progress(0))
    rows = stored(store)
    assert sorted(done) == [1, 2, 3] and rows[3][1] == jt.typical(3)[1] and rows[2][1] == jt.typical(2)[1]


def test_a_match_that_damage_took_whole_is_acknowledged_with_its_file_kept(tmp_path):
    path = journal(tmp_path, 4, open_match=False)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    recs = [(off, t) for off, _, t, _ in R.scan_bytes(bytes(data))]
    a = [o for o, t in recs if t == R.RESULT][1]  # match 2's result ...
    b = [o for o, t in recs if t == R.MATCH][3]  # ... to match 4's header: match 3 is gone
    for off, _ in recs:
        if a <= off < b:
            data[off + 1] ^= 0x10
    data = bytes(data)
    store, s, done = sync_file(tmp_path, data, [1, 2, 3, 4])
    assert 3 in done  # acknowledged: the box can free the file at last
    assert [d[0] for d in s.damaged] == [3]
    kept = [bytes(r[0]) for r in store.db.execute("SELECT data FROM quarantine")]
    assert data in kept  # the whole file, byte for byte


def test_the_box_reader_splits_them_too(tmp_path):
    """The box's own reader (scorebox_core.journal, as on the box's history screen and at
    boot): match 3 is read whole, and the open match after it resumes with its own arrows."""
    path = journal(tmp_path, 4)
    flip(path, R.RESULT, 1, 3, (R.MATCH, 2, 4))
    r = Reader(str(tmp_path))
    r.recover()
    assert r.list_matches() == [1, 2, 3, 4] and r.open_match()[2] == jt.typical(99)[1][:5]
    h2, ev2, x2 = r.read_match(2)
    h3, ev3, x3 = r.read_match(3)
    assert (h2, ev2, x2["result"], x2["damaged"]) == (
        jt.typical(2)[0],
        jt.typical(2)[1],
        None,
        2,
    )  # result, next header
    assert (h3, ev3, x3["result"], x3["header_lost"]) == ({}, jt.typical(3)[1], jt.typical(3)[2], True)
    assert [m[0] for m in r.iter_matches()] == [1, 2, 3, 4]


def test_after_the_box_sets_the_damage_aside_the_split_holds(tmp_path):
    """At boot the box's recovery moves the damaged bytes to the quarantine and leaves GAP
    records (box/recovery.py): the matches are cut at the gaps as they were at the damage."""
    path = journal(tmp_path, 4)
    flip(path, R.RESULT, 1, 3, (R.MATCH, 2, 4))
    j = Journal(str(tmp_path))
    rep = j.recover()
    assert rep["quarantined"] > 0 and j.open_match()[2] == jt.typical(99)[1][:5]
    assert [j.read_match(n)[1] for n in (2, 3)] == [jt.typical(2)[1], jt.typical(3)[1]]
    j.close()


def test_a_match_lost_whole_after_a_sound_result_does_not_split_the_one_before(tmp_path):
    """Match 2 has a damaged arrow but its result is sound; match 3 is damaged from its header
    to its last record. Number 3 is missing before header 4, but the damage after match 2's
    result explains it: match 2 stays whole (a review found it cut at its damaged arrow, its
    result given to a made-up match 3). At the file's end (upto) alike."""
    path = journal(tmp_path, 4, open_match=False)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    recs = list(R.scan_bytes(bytes(data)))
    heads = [off for off, _, t, _ in recs if t == R.MATCH]
    arrow = [off for off, _, t, _ in recs if t == R.EVENT and heads[1] < off][5]  # an arrow of match 2
    data[arrow + 1] ^= 0x10
    for off, _, _, _ in recs:
        if heads[2] <= off < heads[3]:  # every record of match 3
            data[off + 1] ^= 0x10
    data = bytes(data)
    store, s, done = sync_file(tmp_path, data, [1, 2, 3, 4])
    rows = stored(store)
    assert sorted(rows) == [1, 2, 4] and [d[0] for d in s.damaged] == [3]
    assert rows[2][2]["result"] == jt.typical(2)[2] and "lost" not in rows[2][2]
    assert len(rows[2][1]) == len(jt.typical(2)[1]) - 1  # its own arrows but the damaged one
    tail = data[: heads[3]]  # the file ends after match 3's damage: upto says 3 was there
    got = decode_file(tail, 1, 3)["matches"]
    assert [(m[0], m[3]["result"] == jt.typical(m[0])[2]) for m in got] == [(1, True), (2, True)]
