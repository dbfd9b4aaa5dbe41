"""The sync frames' runs of match numbers (firmware/scorebox_core/frames.py runs(), protocol 2:
docs/sync.md, LIST with "ranges" and an ACK of a run), on CPython, where `make mutate` found
them pinned by no CPython test (issue 21, item 16): the PC acknowledges the matches it stored
as these runs, so a run too long would acknowledge a match it never stored."""

from scorebox_core.frames import runs


def test_numbers_become_sorted_runs_of_consecutive_numbers():
    assert runs([]) == []
    assert runs([7]) == [[7, 7]]
    assert runs([10, 8, 2, 1, 7, 3, 2, 5]) == [[1, 3], [5, 5], [7, 8], [10, 10]]  # a repeat: once
    assert runs(range(1, 1001)) == [[1, 1000]]
    assert runs([1, 3, 5]) == [[1, 1], [3, 3], [5, 5]]  # a gap of one number splits


def test_the_runs_hold_exactly_the_numbers_given():
    numbers = {1, 2, 4, 5, 6, 9, 11, 12, 40}
    got = runs(sorted(numbers, reverse=True))
    assert {n for a, b in got for n in range(a, b + 1)} == numbers
    assert all(got[i][1] + 1 < got[i + 1][0] for i in range(len(got) - 1))  # disjoint, apart
