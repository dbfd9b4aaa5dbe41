"""The events' pairing rules (scorebox/events/draw.py): round robin, knockout, Swiss and
Try-Tac-Toe's teams, pinned as properties over many fields (hypothesis) and a few examples."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorebox.events.draw import (
    Pairing,
    knockout_first,
    knockout_next,
    knockout_rounds,
    round_robin,
    swiss_round,
    teams,
)

ids = st.integers(1, 10**6)


def fields(smallest, largest):
    """Distinct entrants in a random order: single archers, or teams of two (every format takes both)."""
    singles = st.lists(ids, min_size=smallest, max_size=largest, unique=True).map(lambda xs: [(x,) for x in xs])
    pairs = st.lists(ids, min_size=2 * smallest, max_size=2 * largest, unique=True).map(
        lambda xs: list(zip(xs[0::2], xs[1::2]))
    )
    return singles | pairs


def check_round(rnd, number, everyone, targets, byes_last=True):
    """What every round of every format keeps: numbered 1..k, byes off the targets (and last, but in
    a knockout's first round, numbered by bracket slot), each entrant in it exactly once, its
    matches spread over the targets."""
    assert all(p.round == number for p in rnd)
    assert [p.number for p in rnd] == list(range(1, len(rnd) + 1))
    real = [p for p in rnd if p.b]
    byes = [p for p in rnd if not p.b]
    if byes_last:
        assert rnd == real + byes
    assert all(p.target is None for p in byes)
    assert sorted(e for p in rnd for e in (p.a, p.b) if e) == sorted(everyone)
    counts = Counter(p.target for p in real)
    assert set(counts) <= set(range(1, targets + 1))
    per = [counts.get(t, 0) for t in range(1, targets + 1)]
    assert max(per) - min(per) <= 1


# Round robin


@given(fields(2, 20), st.integers(1, 8))
@settings(max_examples=80, deadline=None)
def test_round_robin_everyone_meets_everyone_once_fairly(entrants, targets):
    n = len(entrants)
    rounds = round_robin(entrants, targets)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met, byes, as_a, played = Counter(), Counter(), Counter(), Counter()
    for r, rnd in enumerate(rounds, 1):
        check_round(rnd, r, entrants, targets)
        assert len([p for p in rnd if not p.b]) == n % 2
        waves, seen = [], Counter()  # the how-manieth match on its target each is, in number order
        for p in rnd:
            if p.b:
                waves.append(seen[p.target])
                seen[p.target] += 1
                met[frozenset((p.a, p.b))] += 1
                as_a[p.a] += 1
                played.update((p.a, p.b))
            else:
                byes[p.a] += 1
        assert waves == sorted(waves)  # every target's first match, then every target's second, ...
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    assert byes == (Counter(entrants) if n % 2 else Counter())
    assert all(abs(2 * as_a[e] - played[e]) <= 1 for e in entrants)  # A in about half its matches


def test_round_robin_spreads_each_entrants_matches_over_the_targets():
    """Not a theorem: the bound the greedy choice of targets keeps over these fields (turning the
    targets one a round left some entrants on one target for every match), pinned so that it does
    not get worse."""
    for n in range(2, 21):
        entrants = [(i,) for i in range(n)]
        for targets in range(1, 9):
            on = {e: Counter() for e in entrants}
            for rnd in round_robin(entrants, targets):
                for p in rnd:
                    if p.b:
                        on[p.a][p.target] += 1
                        on[p.b][p.target] += 1
            for c in on.values():
                per = [c.get(t, 0) for t in range(1, targets + 1)]
                assert max(per) - min(per) <= 3, (n, targets)


def test_round_robin_shoots_the_first_wave_on_every_target():
    rnd = round_robin([(i,) for i in range(1, 12)], 3)[0]
    assert [(p.number, p.target) for p in rnd] == [(1, 1), (2, 2), (3, 3), (4, 1), (5, 2), (6, None)]
    assert rnd[-1].b == ()


def test_round_robin_of_two_is_one_match():
    assert round_robin([(1,), (2,)], 4) == [[Pairing(1, 1, (1,), (2,), 1)]]


# Knockout


def seed_of(entrants):
    return {e: i + 1 for i, e in enumerate(entrants)}


@pytest.mark.parametrize(
    "n, slots",
    [
        (2, [(1, 2)]),
        (4, [(1, 4), (3, 2)]),
        (8, [(1, 8), (5, 4), (3, 6), (7, 2)]),
        (16, [(1, 16), (9, 8), (5, 12), (13, 4), (3, 14), (11, 6), (7, 10), (15, 2)]),
    ],
)
def test_knockout_first_uses_the_standard_seeding_order(n, slots):
    first = knockout_first([(s,) for s in range(1, n + 1)], 2)
    assert [(p.a[0], p.b[0]) for p in first] == slots


def test_knockout_first_gives_the_byes_to_the_top_seeds():
    first = knockout_first([(s,) for s in range(1, 6)], 2)  # 5 in a bracket of 8: 3 byes
    assert [(p.number, p.a, p.b, p.target) for p in first] == [
        (1, (1,), (), None),
        (2, (5,), (4,), 1),
        (3, (3,), (), None),
        (4, (2,), (), None),
    ]


@given(fields(2, 40), st.integers(1, 8))
@settings(max_examples=80, deadline=None)
def test_knockout_first_holds_everyone_and_keeps_the_top_seeds_apart(seeded, targets):
    n = len(seeded)
    size = max(2, 1 << (n - 1).bit_length())
    first = knockout_first(seeded, targets)
    assert len(first) == size // 2
    check_round(first, 1, seeded, targets, byes_last=False)
    seed = seed_of(seeded)
    byes = [p for p in first if not p.b]
    assert sorted(seed[p.a] for p in byes) == list(range(1, size - n + 1))
    real = [p for p in first if p.b]
    assert [p.target for p in real] == [i % targets + 1 for i in range(len(real))]
    # The top 2**j seeds are in different sections of the bracket, so they cannot meet before the
    # round of 2**(j+1): seeds 1 and 2 in different halves, 1-4 in different quarters, ...
    slot = {e: p.number for p in first for e in (p.a, p.b) if e}
    j = 1
    while 2**j < size:
        width = size // 2 ** (j + 1)  # slots per section
        sections = [(slot[e] - 1) // width for e in seeded[: 2**j]]
        assert len(set(sections)) == len(sections)
        j += 1


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_knockout_played_through_ends_with_one_champion(data):
    seeded = data.draw(fields(2, 40))
    targets = data.draw(st.integers(1, 8))
    rnd = knockout_first(seeded, targets)
    rounds = 1
    while True:
        winners = {p.number: data.draw(st.sampled_from([p.a, p.b])) for p in rnd if p.b}
        advancing = [winners.get(p.number, p.a) for p in rnd]
        # Some results known: only the slots whose two feeders are decided are drawn, and drawing
        # again with every result gives those slots unchanged (targets included).
        known = data.draw(st.sets(st.sampled_from(sorted(winners)))) if winners else set()
        part = knockout_next(rnd, {k: winners[k] for k in known}, targets)
        decided = {p.number for p in rnd if not p.b or p.number in known}
        whole = knockout_next(rnd, winners, targets)
        assert {p.number for p in part} == {k for k in range(1, len(rnd) // 2 + 1) if {2 * k - 1, 2 * k} <= decided}
        assert part == [p for p in whole if p.number in {q.number for q in part}]
        if len(rnd) == 1:
            assert whole == [] and part == []
            break
        rounds += 1
        assert sorted(e for p in whole for e in (p.a, p.b)) == sorted(advancing)
        assert [(p.a, p.b) for p in whole] == list(zip(advancing[0::2], advancing[1::2]))
        check_round(whole, rounds, advancing, targets)
        assert [p.target for p in whole] == [i % targets + 1 for i in range(len(whole))]
        rnd = whole
    assert rounds == knockout_rounds(len(seeded))
    assert advancing[0] in seeded and len(advancing) == 1


def test_knockout_next_draws_a_slot_as_soon_as_its_feeders_are_shot():
    first = knockout_first([(s,) for s in range(1, 9)], 3)
    assert knockout_next(first, {1: (1,)}, 3) == []
    assert knockout_next(first, {1: (1,), 2: (4,)}, 3) == [Pairing(2, 1, (1,), (4,), 1)]
    assert knockout_next(first, {3: (6,), 4: (7,)}, 3) == [Pairing(2, 2, (6,), (7,), 2)]


def test_knockout_next_from_a_round_whose_later_slots_are_not_drawn_yet():
    second = [Pairing(2, 1, (1,), (4,), 1), Pairing(2, 2, (3,), (2,), 2)]  # slots 3 and 4 to come
    assert knockout_next(second, {1: (1,), 2: (2,)}, 2) == [Pairing(3, 1, (1,), (2,), 1)]
    assert knockout_next(second[:1], {1: (1,)}, 2) == []


def test_knockout_next_refuses_a_winner_who_was_not_in_the_match():
    first = knockout_first([(s,) for s in range(1, 5)], 1)
    with pytest.raises(ValueError, match="not one of its sides"):
        knockout_next(first, {1: (2,)}, 1)
    with pytest.raises(ValueError, match="no pairing 9"):
        knockout_next(first, {9: (1,)}, 1)


@pytest.mark.parametrize("n, rounds", [(2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (64, 6), (65, 7)])
def test_knockout_rounds(n, rounds):
    assert knockout_rounds(n) == rounds


# Swiss


def fewest_rematches(pool, met):
    """By brute force: the fewest rematches of any pairing of pool."""
    if not pool:
        return 0
    top, rest = pool[0], pool[1:]
    return min(
        (frozenset((top, other)) in met) + fewest_rematches(rest[:i] + rest[i + 1 :], met)
        for i, other in enumerate(rest)
    )


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_swiss_rounds_pair_fresh_opponents_and_spread_the_byes(data):
    entrants = data.draw(fields(2, 24))
    n = len(entrants)
    targets = data.draw(st.integers(1, 8))
    seed = seed_of(entrants)
    score = Counter()
    met, byes = set(), {}
    for r in range(1, data.draw(st.integers(1, min(n - 1, 6))) + 1):
        ranked = sorted(entrants, key=lambda e: (-score[e], seed[e]))
        rnd = swiss_round(ranked, met, byes, r, targets)
        check_round(rnd, r, entrants, targets)
        real = [p for p in rnd if p.b]
        assert all(ranked.index(p.a) < ranked.index(p.b) for p in real)  # the higher-ranked is side A
        pool = [e for e in ranked if any(e in (p.a, p.b) for p in real)]
        if n % 2:
            bye = rnd[-1].a
            fewest = min(byes.get(e, 0) for e in entrants)
            assert byes.get(bye, 0) == fewest
            assert bye == [e for e in ranked if byes.get(e, 0) == fewest][-1]  # the lowest-ranked of them
            byes[bye] = byes.get(bye, 0) + 1
            score[bye] += 2
            counts = [byes.get(e, 0) for e in entrants]
            assert max(counts) - min(counts) <= 1
        rematches = sum(frozenset((p.a, p.b)) in met for p in real)
        if len(pool) <= 10:
            assert rematches == fewest_rematches(pool, met)
        elif len(pool) >= 2 * r:
            # Each has met at most r-1 others, so each has at least len(pool)/2 fresh opponents in the
            # pool: a rematch-free pairing exists (Dirac), and the search must find it.
            assert rematches == 0
        for p in real:
            met.add(frozenset((p.a, p.b)))
            won = data.draw(st.sampled_from(["A", "B", "draw"]))
            score[p.a] += {"A": 2, "B": 0, "draw": 1}[won]
            score[p.b] += {"A": 0, "B": 2, "draw": 1}[won]


def test_swiss_round_one_pairs_neighbours_in_the_ranking():
    rnd = swiss_round([(i,) for i in range(1, 8)], set(), {}, 1, 2)
    assert [(p.number, p.a, p.b, p.target) for p in rnd] == [
        (1, (1,), (2,), 1),
        (2, (3,), (4,), 2),
        (3, (5,), (6,), 1),
        (4, (7,), (), None),
    ]


def test_swiss_round_backtracks_rather_than_leave_a_rematch():
    # Greedily 1 v 2 would leave 3 v 4, who have met: the search pairs 1 v 3 and 2 v 4 instead.
    met = {frozenset({(3,), (4,)})}
    rnd = swiss_round([(1,), (2,), (3,), (4,)], met, {}, 2, 2)
    assert [(p.a, p.b) for p in rnd] == [((1,), (3,)), ((2,), (4,))]


def test_swiss_round_allows_the_fewest_rematches_when_it_must():
    four = [(1,), (2,), (3,), (4,)]
    everyone = {frozenset({a, b}) for a in four for b in four if a != b}
    rnd = swiss_round(four, everyone - {frozenset({(1,), (2,)})}, {}, 4, 1)
    assert [(p.a, p.b) for p in rnd] == [((1,), (2,)), ((3,), (4,))]  # one rematch, not two
    rnd = swiss_round(four, everyone, {}, 4, 1)
    assert [(p.a, p.b) for p in rnd] == [((1,), (2,)), ((3,), (4,))]


def test_swiss_bye_skips_those_who_had_one():
    ranked = [(i,) for i in range(1, 6)]
    rnd = swiss_round(ranked, set(), {(5,): 1, (4,): 1}, 3, 1)
    assert rnd[-1].a == (3,) and rnd[-1].b == ()


# Teams


def test_teams_pair_the_first_with_the_last():
    assert teams([10, 20, 30, 40, 50, 60]) == [(10, 60), (20, 50), (30, 40)]
    assert teams([1, 2]) == [(1, 2)]


@given(st.lists(ids, min_size=1, max_size=30, unique=True).map(lambda xs: xs[: len(xs) // 2 * 2]).filter(bool))
@settings(max_examples=50, deadline=None)
def test_teams_hold_every_archer_once(archers):
    ts = teams(archers)
    assert sorted(a for t in ts for a in t) == sorted(archers)
    assert ts == [(archers[i], archers[-1 - i]) for i in range(len(archers) // 2)]


@pytest.mark.parametrize("archers", [[1, 2, 3], [1], []])
def test_teams_refuse_an_odd_number(archers):
    with pytest.raises(ValueError, match="even number") as e:
        teams(archers)
    assert "\n" not in str(e.value)


# Refusals


def draws(entrants, targets):
    """Every drawing function on the same field."""
    return [
        lambda: round_robin(entrants, targets),
        lambda: knockout_first(entrants, targets),
        lambda: swiss_round(entrants, set(), {}, 1, targets),
    ]


@pytest.mark.parametrize(
    "entrants, targets, message",
    [
        ([(1,)], 1, "at least 2 entrants"),
        ([], 1, "at least 2 entrants"),
        ([(1,), (2,)], 0, "at least 1 target"),
        ([(1,), (2,), (1,)], 1, r"entrant \(1,\) is in the draw twice"),
        ([(1, 2), (3, 4), (1, 2)], 2, r"entrant \(1, 2\) is in the draw twice"),
        ([(1,), ()], 1, "non-empty tuple"),
        ([(1,), [2]], 1, "non-empty tuple"),
    ],
)
def test_draws_refuse_with_one_line(entrants, targets, message):
    for draw in draws(entrants, targets):
        with pytest.raises(ValueError, match=message) as e:
            draw()
        assert "\n" not in str(e.value)


def test_refusals_of_the_other_rules():
    with pytest.raises(ValueError, match="at least 2 entrants"):
        knockout_rounds(1)
    with pytest.raises(ValueError, match="at least 1 target"):
        knockout_next(knockout_first([(1,), (2,)], 1), {}, 0)
    with pytest.raises(ValueError, match="rounds are numbered from 1"):
        swiss_round([(1,), (2,)], set(), {}, 0, 1)
    with pytest.raises(ValueError, match="listed twice"):
        teams([1, 2, 1, 3])
