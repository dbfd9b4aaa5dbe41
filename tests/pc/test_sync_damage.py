"""Damaged records in a journal file, as a sync prepares and stores them (issue 13, item 6):
a lost result is replayed from the events and a lost header falls back to the rules'
defaults and placeholder names, the match stored and flagged, its arrows usable; a match
whose header went with the previous match's result is acknowledged with the whole file
kept, so that the box can free the file. Before, each of these was quarantine bytes only
(or listed by the box for ever). The journal is the box's own writer's, under CPython."""

import json

from test_rescue_damage import R, journal

from scorebox.store.db import Store
from scorebox.sync.pull import Progress, Summary, prepare, store_batch


def flip(path, rtype, index, at):
    """Flip a bit at offset at inside the index-th record of type rtype."""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    offs = [off for off, _, t, _ in R.scan_bytes(bytes(data)) if t == rtype]
    data[offs[index] + at] ^= 0x10
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
    flip(path, R.RESULT, 1, 3)  # match 2's result
    data = flip(path, R.MATCH, 3, 4)  # match 4's header
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


def test_a_match_whose_header_went_with_the_result_before_is_acknowledged_with_its_file_kept(tmp_path):
    path = journal(tmp_path, 4, open_match=False)
    flip(path, R.RESULT, 1, 3)  # match 2's result ...
    data = flip(path, R.MATCH, 2, 4)  # ... and match 3's header: their arrows run together
    store, s, done = sync_file(tmp_path, data, [1, 2, 3, 4])
    assert 3 in done  # acknowledged: the box can free the file at last
    assert [d[0] for d in s.damaged] == [3]
    kept = [bytes(r[0]) for r in store.db.execute("SELECT data FROM quarantine")]
    assert data in kept  # the whole file, byte for byte
