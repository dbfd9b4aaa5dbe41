"""Random but legal matches, for property tests and benchmarks (CPython side)."""

import random

from scorebox_core.games.ttb import rules
from scorebox_core.games.ttb.rules import Match, Options


def legal_moves(m):
    """Every event the rules accept now, undo and new game included."""
    moves = []
    g = m.game
    if not g.over():
        moves.append(rules.miss())
        for sq in range(1, 10):
            for v in range(4):
                moves.append(rules.hit(sq, v))
            for x in (True, False):
                ev = rules.called(sq, x)
                if m.why_not(ev) is None:
                    moves.append(ev)
    elif m.why_not(rules.NEW_GAME) is None:
        moves.append(rules.NEW_GAME)
    return moves


def pick(m, choice):
    """Map a number to a legal event, favouring arrows as archers shoot them: mostly hits
    of 1-3 in a few squares, some misses, called shots where allowed, rare undos."""
    moves = legal_moves(m)
    if choice % 23 == 0 and m.events:
        return rules.UNDO
    if choice % 31 == 0:
        return rules.NEW_FACE
    if not moves:
        return None
    called = [e for e in moves if e >> 6 == rules.CALLED]
    if called and choice % 5 == 0:
        return called[(choice // 5) % len(called)]
    return moves[(choice // 7) % len(moves)]


def random_options(rnd):
    o = Options()
    o.mode = rnd.choice([rules.NET, rules.HARD5])
    o.claim_a = rnd.choice([5, 5, 4, 6, 7])
    o.claim_b = rnd.choice([5, 5, 3, 6])
    o.arrows_a = rnd.choice([3, 3, 2, 4])
    o.arrows_b = rnd.choice([3, 3, 2, 4])
    o.flips = rnd.choice([1, 1, 0, 2])
    o.equal_turns = rnd.random() < 0.7
    o.rounds = rnd.choice([0, 0, 0, 4, 8])
    o.games = rnd.choice([1, 1, 3])
    return o


def random_match(seed, length):
    """(options, events) of a legal random match with up to `length` events."""
    rnd = random.Random(seed)
    opts = random_options(rnd)
    m = Match(opts)
    for _ in range(length):
        ev = pick(m, rnd.randrange(1 << 30))
        if ev is None:
            break
        m.apply(ev)
    return opts, list(m.log)


def box_matches(count, seed=0):
    """Realistic finished matches (tests/support/corpus.py's archer model) as the box's journal
    keeps them: header and events as keyed, slips and their undos included."""
    from corpus import match_events

    roster = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    out = []
    for i in range(count):
        rnd = random.Random(seed * 100003 + i)
        a, b = rnd.sample(roster, 2)
        opts, _, m = match_events(seed * 100003 + i)
        header = {
            "options": opts.to_dict(),
            "archers": [[a], [b]],
            "distance": [20, 20],
            "unit": "yd",
            "shaft_mm": [7.0, 7.0],
            "clock": 1790000000 + 3600 * i,
        }
        out.append({"header": header, "events": list(m.log)})
    return out
