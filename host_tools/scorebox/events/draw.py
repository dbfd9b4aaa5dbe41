"""The formats' pairing rules: a round robin, a single-elimination knockout, a Swiss round, and
Try-Tac-Toe's teams. Pure: entrants in, pairings out; the store keeps what was drawn and shot.

An entrant is a tuple of archer ids, (7,) for one archer or (7, 9) for a team, so that every
format draws teams as it draws archers; () is no entrant: a bye's missing opponent."""

from __future__ import annotations

from typing import NamedTuple


class Pairing(NamedTuple):
    round: int  # 1-based
    number: int  # 1-based within its round: the order the pairings are shot in on a target
    a: tuple  # side A's entrant
    b: tuple  # side B's entrant; () for a bye (a has no opponent this round)
    target: int | None  # 1..targets; None for a bye


def _check(entrants, targets):
    """Refuse what no draw can be made of, with a one-line message."""
    if len(entrants) < 2:
        raise ValueError("a draw needs at least 2 entrants, got %d" % len(entrants))
    if not isinstance(targets, int) or targets < 1:
        raise ValueError("a draw needs at least 1 target, got %r" % (targets,))
    seen = set()
    for e in entrants:
        # () marks a bye, so it cannot be an entrant too; a list is not hashable, nor comparable to a tuple.
        if not isinstance(e, tuple) or not e:
            raise ValueError("an entrant is a non-empty tuple of archer ids, got %r" % (e,))
        if e in seen:
            raise ValueError("entrant %r is in the draw twice" % (e,))
        seen.add(e)


def _target(j, targets):
    """The target of the j-th match (0-based) of a round or of a knockout's slots: consecutive matches
    take consecutive targets, so their matches per target differ by at most 1, and the first
    `targets` of them are shot at once."""
    return j % targets + 1


def _spread_over_targets(matches, targets, shot_on):
    """The targets (1-based) of one round's matches, and shot_on (entrant -> matches per target so far)
    updated. Each target takes k // targets matches or one more, so a round's matches per target differ
    by at most 1. Within that, each match takes the target its two entrants have shot on least, the
    matches of the most unevenly spread entrants choosing first; ties go to the j-th match's plain
    turn (j % targets). A greedy: over 2..40 entrants and 1..8 targets it keeps each entrant's matches
    per target within 3 of each other (mostly 2). Turning the targets one a round instead left some
    entrants on one target for every match (8 entrants on 2 targets, say): the circle walks each
    entrant along the pairs one a round too, in step with the turn."""
    fewer, extra = divmod(len(matches), targets)  # each target takes `fewer`; `extra` of them one more
    load = [0] * targets
    chosen = [0] * len(matches)

    def uneven(j):
        return max(max(shot_on[e]) - min(shot_on[e]) for e in matches[j])

    for j in sorted(range(len(matches)), key=uneven, reverse=True):  # stable: ties keep the pairs' order
        sa, sb = (shot_on[e] for e in matches[j])  # its two entrants' matches per target so far
        free = [t for t in range(targets) if load[t] < fewer or (load[t] == fewer and extra)]
        t = min(free, key=lambda t: (sa[t] + sb[t], max(sa[t], sb[t]), (t - j) % targets))
        if load[t] == fewer:
            extra -= 1
        load[t] += 1
        sa[t] += 1
        sb[t] += 1
        chosen[j] = t + 1
    return chosen


def round_robin(entrants: list[tuple], targets: int) -> list[list[Pairing]]:
    """Every round of a round robin: everyone meets everyone once, n-1 rounds for an even number of
    entrants and n for an odd one (one bye a round, each entrant's in a different round).

    The circle method: one seat stays, the others turn one seat a round, and seat i meets the seat
    opposite it. Side A is the upper half's seat, so each turning entrant is A in half its matches;
    the fixed seat alternates sides round by round (each entrant's A and B differ by at most 1). With
    an odd number the fixed seat is the bye's, so each entrant meets it once.

    Targets: in each round the matches per target differ by at most 1, and over the event each
    entrant's matches are spread over the targets as evenly as a round-by-round choice manages
    (_spread_over_targets). Several matches on one target are shot one after another: a round's
    pairings are numbered in the order they are shot, each target's first match (by target), then
    each target's second, ...; byes come last."""
    _check(entrants, targets)
    seats = list(entrants)
    if len(seats) % 2:
        seats.insert(0, None)
    m = len(seats)
    fixed, turning = seats[0], seats[1:]
    shot_on = {e: [0] * targets for e in entrants}  # each entrant's matches per target so far
    rounds = []
    for r in range(m - 1):
        circle = [fixed] + turning[r:] + turning[:r]
        matches, byes = [], []
        for i in range(m // 2):
            a, b = circle[i], circle[m - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a
            if a is None or b is None:
                byes.append(a if b is None else b)
            else:
                matches.append((a, b))
        on = _spread_over_targets(matches, targets, shot_on)
        # The shooting order: the j-th match on its target is shot in the j-th wave.
        wave, before = [], [0] * (targets + 1)
        for t in on:
            wave.append(before[t])
            before[t] += 1
        order = sorted(range(len(matches)), key=lambda j: (wave[j], on[j]))
        pairings = [Pairing(r + 1, k + 1, *matches[j], on[j]) for k, j in enumerate(order)]
        pairings += [Pairing(r + 1, len(matches) + k + 1, e, (), None) for k, e in enumerate(byes)]
        rounds.append(pairings)
    return rounds


def _bracket(size):
    """The seeds in bracket order, top line first: 1, 2 for 2; 1, 4, 3, 2 for 4; 1, 8, 5, 4, 3, 6, 7, 2
    for 8 (as Ianseo and World Archery draw them). Each doubling puts beside each seed s the seed it
    then meets first, size+1-s, on alternate sides so that seed 1 stays on top and seed 2 at the foot:
    seeds 1 and 2 can meet only in the final, 1 to 4 only in the semi-finals, and so on."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for i, s in enumerate(order) for x in ((s, n + 1 - s) if i % 2 == 0 else (n + 1 - s, s))]
    return order


def knockout_rounds(n: int) -> int:
    """How many rounds a knockout of n entrants has: ceil(log2 n), at least 1 (n must be 2 or more)."""
    if n < 2:
        raise ValueError("a draw needs at least 2 entrants, got %d" % n)
    return (n - 1).bit_length()


def knockout_first(seeded: list[tuple], targets: int) -> list[Pairing]:
    """Round 1 of a single-elimination knockout; seeded is best first.

    The bracket is the next power of two >= len(seeded), its slots in the standard seeding order
    (_bracket: 1 v N, ...). The seeds past len(seeded) are missing: their opponents, the top seeds,
    have byes (a = the entrant, b = (), target None). Pairing.number is the bracket slot, 1..size/2,
    byes included, and side A is the slot's upper line. The real matches take targets in slot order,
    cycling 1..targets."""
    _check(seeded, targets)
    n = len(seeded)
    order = _bracket(1 << (n - 1).bit_length())
    pairings, played = [], 0
    for number, (s1, s2) in enumerate(zip(order[0::2], order[1::2]), 1):
        a = seeded[s1 - 1] if s1 <= n else ()
        b = seeded[s2 - 1] if s2 <= n else ()
        if not a or not b:  # at most one side is missing: n is more than half the bracket
            pairings.append(Pairing(1, number, a or b, (), None))
        else:
            pairings.append(Pairing(1, number, a, b, _target(played, targets)))
            played += 1
    return pairings


def knockout_next(previous: list[Pairing], winners: dict[int, tuple], targets: int) -> list[Pairing]:
    """The pairings of the next round that can be drawn now.

    previous is one whole round (every slot, byes included; a round whose later slots are not drawn
    yet does no harm, as slot k needs only slots 2k-1 and 2k); winners maps a previous pairing's
    number to the entrant that won it (a bye is won by its a without being in winners).

    Next-round slot k pairs the winners of previous slots 2k-1 (side A) and 2k (side B), and is
    returned only when both are decided, so the caller can draw a slot as soon as its two matches
    are shot. Its target is its slot's (cycling 1..targets), not its place among those drawn, so
    that it does not change as the later slots are drawn. [] after the final (a previous round of
    one pairing)."""
    if not isinstance(targets, int) or targets < 1:
        raise ValueError("a draw needs at least 1 target, got %r" % (targets,))
    # Only what the rule needs is checked, not that previous is a whole round (see above).
    numbers = [p.number for p in previous]
    if not previous or len(set(numbers)) != len(numbers) or min(numbers) < 1 or len({p.round for p in previous}) > 1:
        raise ValueError("previous must be one knockout round: its pairings numbered 1, 2, ... once each")
    if len(previous) == 1:
        return []  # the final was the previous round
    by_number = {p.number: p for p in previous}
    for number in winners:
        if number not in by_number:
            raise ValueError("there is no pairing %r in the previous round" % (number,))
    won = {}
    for p in previous:
        w = winners.get(p.number, p.a if not p.b else None)
        if w is None:
            continue  # not shot yet
        if w not in ((p.a, p.b) if p.b else (p.a,)):
            raise ValueError("the winner of pairing %d, %r, is not one of its sides" % (p.number, w))
        won[p.number] = w
    nxt = previous[0].round + 1
    return [
        Pairing(nxt, k, won[2 * k - 1], won[2 * k], _target(k - 1, targets))
        for k in range(1, max(numbers) // 2 + 1)
        if 2 * k - 1 in won and 2 * k in won
    ]


def _odd_groups(pool, met):
    """How many of the groups that pool falls into, of entrants linked by opponents they have not
    met, have an odd number. Each such group pairs one of its own with an outsider, whom that one
    has met (or they would be in one group), and a rematch serves two groups: so a pairing of pool
    has at least half this many rematches. It lets the search give up early on the branches that
    cannot make do with what is allowed (the late rounds, where many have met nearly everyone)."""
    left, odd = set(pool), 0
    while left:
        group, todo = 0, [left.pop()]
        while todo:
            e = todo.pop()
            group += 1
            fresh = [o for o in left if frozenset((e, o)) not in met]
            left.difference_update(fresh)
            todo += fresh
        odd += group % 2
    return odd


def _pair(pool, met, allowed, dead):
    """Pair pool (a tuple in ranking order) top first, each with the nearest in the ranking it may
    meet, using at most `allowed` rematches: a depth-first search that backtracks when a choice leaves
    the rest unpairable. None if there is no such pairing. dead remembers the (pool, allowed) that
    failed: the same entrants left over fail the same way, however they were reached, which spares
    the search most of its repeated work when it must backtrack a lot. It is still a search: a round
    takes milliseconds in a Swiss of 64 over 10 rounds, but can take seconds in the late rounds of a
    long one (40 entrants, 20 rounds and more), where each has met most of the field."""
    if not pool:
        return []
    if (pool, allowed) in dead:
        return None
    if _odd_groups(pool, met) > 2 * allowed:
        dead.add((pool, allowed))
        return None
    top, rest = pool[0], pool[1:]
    # The fresh opponents first, nearest first; then, if a rematch is allowed, those met before,
    # nearest first: the top takes a farther fresh opponent rather than a rematch.
    again = [frozenset((top, other)) in met for other in rest]
    for i in sorted(range(len(rest)), key=lambda i: again[i]):
        if again[i] > allowed:
            break
        tail = _pair(rest[:i] + rest[i + 1 :], met, allowed - again[i], dead)
        if tail is not None:
            return [(top, rest[i])] + tail
    dead.add((pool, allowed))
    return None


def swiss_round(
    ranked: list[tuple], met: set[frozenset], byes: dict[tuple, int], round: int, targets: int
) -> list[Pairing]:
    """One Swiss round. ranked is every entrant still in the event, best record first; met holds
    frozenset({a, b}) for each match shot; byes counts each entrant's byes so far.

    With an odd number the bye goes to the lowest-ranked among those with the fewest byes, so nobody
    has a second bye before everyone has had one. The others are paired top first, each with the
    nearest below it in the ranking that it has not met (the higher-ranked is side A), backtracking
    when a choice would leave someone without a fresh opponent. If no pairing without a rematch
    exists, the round has as few rematches as possible rather than failing: the search allows 1,
    then 2, ... Targets as in round_robin for one round; the bye comes last."""
    _check(ranked, targets)
    if round < 1:
        raise ValueError("rounds are numbered from 1, got %r" % (round,))
    pool = list(ranked)
    bye = None
    if len(pool) % 2:
        fewest = min(byes.get(e, 0) for e in pool)
        bye = [e for e in pool if byes.get(e, 0) == fewest][-1]
        pool.remove(bye)
    dead = set()
    for allowed in range(len(pool) // 2 + 1):  # with every pair allowed to be a rematch, it succeeds
        pairs = _pair(tuple(pool), met, allowed, dead)
        if pairs is not None:
            break
    pairings = [Pairing(round, j + 1, a, b, _target(j, targets)) for j, (a, b) in enumerate(pairs)]
    if bye is not None:
        pairings.append(Pairing(round, len(pairs) + 1, bye, (), None))
    return pairings


def teams(archers: list[int]) -> list[tuple]:
    """Try-Tac-Toe's teams of two from archers in the order given (seeded or drawn): the 1st with the
    last, the 2nd with the second-to-last, ..., so that the teams are about as strong as each other."""
    if len(archers) < 2 or len(archers) % 2:
        raise ValueError("teams of two need an even number of archers (2 or more), got %d" % len(archers))
    if len(set(archers)) != len(archers):
        raise ValueError("an archer is listed twice: %r" % (sorted(a for a in set(archers) if archers.count(a) > 1),))
    half = len(archers) // 2
    return [(archers[i], archers[-1 - i]) for i in range(half)]
