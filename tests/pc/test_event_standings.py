"""An event's standings (scorebox/events/standings.py): RULE's order, shared places, byes and
draws, pinned by examples and as properties over random results (hypothesis)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorebox.events.standings import RULE, Result, Row, standings

A, B, C, D = (1,), (2,), (3,), (4,)


def order(rows):
    return [(r.place, r.entrant) for r in rows]


def test_rule_says_what_the_order_is():
    assert RULE.startswith("wins (a draw counts half)") and "points difference" in RULE and "\n" not in RULE


def test_entrants_level_on_everything_share_a_place():
    assert order(standings([A, B, C], [])) == [(1, A), (1, B), (1, C)]  # in their order in entrants
    # B and C each beat D and lost to A by the same scores, and have not met: 1, 2, 2, 4.
    results = [
        Result(A, B, "A", 6, 4),
        Result(A, C, "A", 6, 4),
        Result(B, D, "A", 6, 4),
        Result(C, D, "A", 6, 4),
    ]
    assert order(standings([C, D, B, A], results)) == [(1, A), (2, C), (2, B), (4, D)]


def test_head_to_head_breaks_a_two_way_tie_on_wins():
    # A and B have a win each; B's points difference is far better, but A beat B.
    results = [Result(A, B, "A", 5, 4), Result(B, C, "A", 20, 0)]
    rows = standings([B, C, A], results)
    assert order(rows) == [(1, A), (2, B), (3, C)]
    assert rows[1] == Row(2, B, 2, 1, 0, 1, 24, 5)


def test_points_difference_breaks_a_three_way_circular_tie():
    # A beat B, B beat C, C beat A: level on wins and in their mini-table, so the difference decides.
    results = [Result(A, B, "A", 10, 8), Result(B, C, "A", 10, 5), Result(C, A, "A", 10, 9)]
    rows = standings([A, B, C], results)
    assert order(rows) == [(1, B), (2, A), (3, C)]
    assert [r.points_for - r.points_against for r in rows] == [3, 1, -4]


def test_points_scored_break_a_tie_on_the_difference():
    results = [Result(A, C, "A", 5, 3), Result(B, D, "A", 10, 8)]
    assert order(standings([A, B, C, D], results)) == [(1, B), (2, A), (3, D), (4, C)]


def test_a_draw_counts_half():
    results = [Result(A, B, "draw", 5, 5), Result(C, D, "A", 5, 4)]
    rows = standings([A, B, C, D], results)
    assert order(rows) == [(1, C), (2, A), (2, B), (4, D)]
    assert rows[1] == Row(2, A, 1, 0, 1, 0, 5, 5)
    # A's two draws level it with D's win and loss (they have not met): the difference decides.
    results = [Result(A, B, "draw", 5, 5), Result(A, C, "draw", 5, 5), Result(D, B, "A", 9, 1), Result(C, D, "A", 6, 5)]
    rows = standings([A, B, C, D], results)
    assert [(r.place, r.entrant, r.won, r.drawn) for r in rows] == [
        (1, C, 1, 1),
        (2, D, 1, 0),
        (3, A, 0, 2),
        (4, B, 0, 1),
    ]


def test_byes_count_as_wins_without_points():
    rows = standings([A, B, C], [Result(B, C, "A", 3, 2)], byes={A: 1})
    assert rows[1] == Row(2, A, 1, 1, 0, 0, 0, 0)
    assert order(rows) == [(1, B), (2, A), (3, C)]  # level on wins, no match between them: +1 over 0


def test_results_not_shot_yet_are_ignored():
    rows = standings([A, B], [Result(A, B, None, 3, 4)])
    assert rows == [Row(1, A, 0, 0, 0, 0, 0, 0), Row(1, B, 0, 0, 0, 0, 0, 0)]


def test_a_withdrawn_opponents_results_still_count_for_those_listed():
    rows = standings([A, B], [Result(A, D, "A", 6, 2), Result(D, B, "A", 6, 5)], byes={D: 1})
    assert rows == [Row(1, A, 1, 1, 0, 0, 6, 2), Row(2, B, 1, 0, 0, 1, 5, 6)]


@pytest.mark.parametrize(
    "entrants, results, message",
    [
        ([A, B, A], [], "listed twice"),
        ([A, B], [Result(A, B, "a", 1, 0)], "winner is 'A', 'B', 'draw' or None"),
        ([A, B], [Result(A, A, "A", 1, 0)], "against itself"),
    ],
)
def test_standings_refuse_with_one_line(entrants, results, message):
    with pytest.raises(ValueError, match=message) as e:
        standings(entrants, results)
    assert "\n" not in str(e.value)


@st.composite
def events(draw):
    """Entrants (single archers or teams) with random results among them, some not shot yet, and byes."""
    n = draw(st.integers(1, 12))
    ids = draw(st.lists(st.integers(1, 10**6), min_size=2 * n, max_size=2 * n, unique=True))
    entrants = [(i,) for i in ids[:n]] if draw(st.booleans()) else list(zip(ids[0::2], ids[1::2]))
    match = st.tuples(st.sampled_from(entrants), st.sampled_from(entrants)).filter(lambda ab: ab[0] != ab[1])
    results = []
    if n > 1:
        for a, b in draw(st.lists(match, max_size=30)):
            winner = draw(st.sampled_from(["A", "B", "draw", None]))
            results.append(Result(a, b, winner, draw(st.integers(0, 30)), draw(st.integers(0, 30))))
    byes = draw(st.dictionaries(st.sampled_from(entrants), st.integers(0, 3), max_size=n))
    return entrants, results, byes


@given(events())
@settings(max_examples=100, deadline=None)
def test_standings_rank_everyone_by_wins(event):
    entrants, results, byes = event
    rows = standings(entrants, results, byes)
    assert sorted(r.entrant for r in rows) == sorted(entrants)
    assert all(r.won + r.drawn + r.lost == r.played for r in rows)
    wins = [r.won + r.drawn / 2 for r in rows]
    assert wins == sorted(wins, reverse=True)
    # Places: 1 first; then each row shares the place above it or takes its own position, and only
    # rows level on everything share one (in their order in entrants).
    assert rows[0].place == 1
    for i in range(1, len(rows)):
        above, row = rows[i - 1], rows[i]
        assert row.place in (above.place, i + 1)
        if row.place == above.place:
            assert (row.won, row.drawn, row.points_for, row.points_against) == (
                above.won,
                above.drawn,
                above.points_for,
                above.points_against,
            )
            assert entrants.index(row.entrant) > entrants.index(above.entrant)
    # Every match shot is counted once for each side; every bye as a win.
    shot = [r for r in results if r.winner is not None]
    assert sum(r.played for r in rows) == 2 * len(shot) + sum(byes.values())
    assert sum(r.won for r in rows) == sum(r.lost for r in rows) + sum(byes.values())
    assert sum(r.points_for for r in rows) == sum(r.points_against for r in rows)
    # The order of the results does not matter.
    assert standings(entrants, results[::-1], byes) == rows
