"""Statistics against three matches worked out by hand (tests/support/handmatches.py).

Arrow by arrow, the figures below were counted on paper from the scripts:

Match 1 (Ann A v Ben B, net, claim 5): Ann shoots 12 arrows, every one scores in an open
square: 3+2+2 +3+3+2 +3+2+3 +2+3+3 = 31 points; she claims 5, 1, 2, 6, 8, 7 (6 claims)
and Ben flips 1 and 5 (2 claims lost). Ben: 3+2+1 +0(1:X)+3+1 +3+2+1 +0(5:X)+0+0 = 16
points in 12 arrows; claims 3, 9, 4; 2 flips called, 2 hit; 2 misses. B wins on 1 5 9.
Match 2 (Cat A v Ann B, claim 3, 2 arrows): Cat 5:3 1:3 9:X 3:3 = 9 points in 4 arrows,
claims 5, 1, 3, flips 9 (Ann's). Ann 9:3 (claim, 3 points) 5:2 (dead: Cat's square) 5:-
(flip missed) M = 3 points in 4 arrows, 1 claim lost. A wins on 1 5 9.
Match 3 (Ben A v Cat B, one round): Ben 5:1 x3 = 3 points; Cat 5:1, (5:3 undone), 5:0, M =
1 point in 3 arrows. Draw at the round limit.
"""

import pytest
from handmatches import fill

from scorebox.report import stats
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database


@pytest.fixture()
def store(store_at):
    s = fill(open_store(store_at, create=True))
    yield s
    s.close()


def test_ann(store):
    ann = stats.compute(store, min_hits=2, recent=1)["Ann"]
    assert ann["matches"] == {"played": 2, "won": 0, "drawn": 0, "lost": 2, "unfinished": 0}
    assert ann["games"] == {"played": 2, "won": 0, "drawn": 0, "lost": 2, "unfinished": 0}
    assert ann["arrows"] == 12 + 4
    assert ann["points"] == 31 + 3
    assert ann["points_per_arrow"] == round(34 / 16, 3)  # 2.125
    assert ann["claims"] == 6 + 1
    assert ann["claims_lost"] == 2 + 1
    assert (ann["flip_attempts"], ann["flip_hits"]) == (1, 0)
    assert (ann["misses"], ann["dead"]) == (1, 1)
    assert (ann["hits"], ann["hit_value"]) == (14, 36)
    # Hits per square: 1: 2+3, 2: 3+2, 5: 3+2 and the dead 2, 6: 3+2, 7: 3+3, 8: 3+2, 9: 3.
    sq = {q["square"]: (q["hits"], q["hit_value"]) for q in ann["squares"]}
    assert sq == {1: (2, 5), 2: (2, 5), 3: (0, 0), 4: (0, 0), 5: (3, 7), 6: (2, 5), 7: (2, 6), 8: (2, 5), 9: (1, 3)}
    assert [q["claims"] for q in ann["squares"]] == [1, 1, 0, 0, 1, 1, 1, 1, 1]
    # Points that counted per square: the dead 5:2 does not.
    assert [q["points"] for q in ann["squares"]] == [5, 5, 0, 0, 5, 5, 6, 5, 3]
    assert ann["favourite"] == 7  # mean 3.0, squares with 2 hits or more
    assert ann["weakest"] == 5  # mean 7/3
    # Trend: last match 3/4 = 0.75 against the match before, 31/12 = 2.583.
    assert ann["recent_points_per_arrow"] == 0.75
    assert ann["earlier_points_per_arrow"] == 2.583
    assert ann["trend"] == -1.833
    assert [p[1] for p in ann["over_time"]] == [2.583, 0.75]


def test_ben_and_cat(store):
    got = stats.compute(store, min_hits=2, recent=1)
    assert set(got) == {"Ann", "Ben", "Cat"}
    ben, cat = got["Ben"], got["Cat"]
    assert ben["matches"] == {"played": 2, "won": 1, "drawn": 1, "lost": 0, "unfinished": 0}
    assert (ben["arrows"], ben["points"], ben["points_per_arrow"]) == (15, 19, 1.267)
    assert (ben["claims"], ben["claims_lost"], ben["flip_attempts"], ben["flip_hits"]) == (3, 0, 2, 2)
    assert ben["misses"] == 2
    assert ben["flip_rate"] == 1.0
    assert cat["matches"] == {"played": 2, "won": 1, "drawn": 1, "lost": 0, "unfinished": 0}
    assert (cat["arrows"], cat["points"], cat["points_per_arrow"]) == (7, 10, 1.429)
    assert (cat["claims"], cat["claims_lost"], cat["flip_attempts"], cat["flip_hits"]) == (3, 0, 1, 1)
    assert (cat["hits"], cat["hit_value"], cat["misses"]) == (5, 10, 1)
    # The undone 5:3 is not an arrow: square 5 holds 5:3 (match 2), 5:1 and 5:0.
    assert cat["squares"][4]["hits"] == 3 and cat["squares"][4]["hit_value"] == 4


def test_one_archer_and_min_hits(store):
    only = stats.compute(store, "Cat")
    assert list(only) == ["Cat"]
    assert only["Cat"]["favourite"] is None  # no square has 10 hits
    assert stats.compute(store, "Nobody") == {}


def test_head_to_head(store):
    h = stats.head_to_head(store)
    assert h[("Ann", "Ben")]["matches"]["lost"] == 1
    assert h[("Ben", "Ann")]["matches"]["won"] == 1
    assert h[("Cat", "Ann")]["matches"]["won"] == 1
    assert h[("Ben", "Cat")]["matches"]["drawn"] == 1
    assert h[("Ben", "Cat")]["games"] == {"played": 1, "won": 0, "drawn": 1, "lost": 0, "unfinished": 0}
    assert ("Ann", "Ann") not in h
    assert len(h) == 6


def test_stats_command(store, capsys):
    from scorebox import cli

    assert cli.main(["stats", "--db", store.path]) == 0
    out = capsys.readouterr().out
    assert "Ann" in out and "0-0-2" in out and "2.12" in out
    assert cli.main(["stats", "Ann", "--db", store.path]) == 0
    out = capsys.readouterr().out
    assert "7 made, 3 lost to a flip" in out
    assert cli.main(["stats", "Zed", "--db", store.path]) == 2
