"""Damaged journals on MicroPython's LittleFS2: random bit flips, random garbage and torn
tails are detected and reported, never crash the reader, and the rest of the data is
recovered (tests/mpy/journal_damage.py)."""

import pytest
from journal_support import run_script

pytestmark = pytest.mark.micropython


def trials(mode, n, seed):
    _, res = run_script("journal_damage.py", mode, n, seed, heapsize="32M")
    assert res["matches"] == 29
    assert len(res["trials"]) == n
    return res["trials"]


@pytest.mark.parametrize("mode,n,seed", [("flip", 150, 1), ("garbage", 100, 2)])
def test_damage_is_reported_and_the_rest_recovered(mode, n, seed):
    newest = 0
    for t in trials(mode, n, seed):
        assert "error" not in t, t
        assert t["reported"] > 0, "damage not reported: %r" % t
        # a match read otherwise than it was written is flagged (damaged or stray) ...
        assert set(t["differ"]) <= set(t["flagged"]), t
        # ... and only the damaged match and the one before it can be touched
        assert len(set(t["differ"]) | set(t["missing"])) <= 2, t
        for k in t["missing"]:  # a match whose header went: its events went to the match
            assert k - 1 in t["flagged"] or k in t["flagged"], t  # before, which says so
        if mode == "flip":
            assert t["missing"] == [], "one bit must not lose a whole match: %r" % t
        if t["newest"]:
            newest += 1
            assert t["quarantined"] > 0 and t["in_quarantine"] >= t["quarantined"], t
        assert t["continued"], "the journal must go on after damage: %r" % t
        assert t["after_damage"] == 0, "recovered once, clean after: %r" % t
    assert newest > 0, "some trials must hit the file being written"


def test_matches_run_together_over_a_damaged_seam_are_told_apart():
    """Issue 13, item 6: a result and the next match's header lost together. Before, the
    second match's arrows were read as the first's and the second was missing."""
    for t in trials("seam", 60, 4):
        assert "error" not in t, t
        assert t["missing"] == [] and t["events_differ"] == [], t
        assert set(t["differ"]) <= set(t["flagged"]) and len(t["differ"]) == 2, t
        assert t["continued"] and t["after_damage"] == 0, t


def test_torn_tail_is_set_aside_and_the_match_resumes():
    torn = whole = 0
    for t in trials("truncate", 60, 3):
        assert "error" not in t, t
        assert t["open_events"] == t["kept_events"], "open match back to its last whole record: %r" % t
        if t["boundary"]:
            whole += 1
            assert t["reported"] == 0, t  # whole records gone: nothing to see
        else:
            torn += 1
            assert t["reported"] > 0 and t["in_quarantine"] > 0, "torn record not set aside: %r" % t
        assert t["continued"], t
    assert torn > 20 and whole > 0, (torn, whole)
