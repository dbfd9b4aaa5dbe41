"""Random but legal matches, for property tests and benchmarks (CPython side)."""

import random

from ttb import rules
from ttb.rules import Match, Options


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


def finished_match(seed, names=(("Ann",), ("Ben",))):
    """(options, events) of a legal match played to its end, as archers would: mostly
    hits, some misses, called shots at the opponent's squares, an occasional undo."""
    rnd = random.Random(seed)
    opts = Options()
    opts.games = rnd.choice([1, 1, 1, 3])
    opts.mode = rnd.choice([rules.NET, rules.NET, rules.HARD5])
    m = Match(opts, names)
    while not m.over():
        g = m.game
        if g.over():
            m.apply(rules.NEW_GAME)
            continue
        theirs = [i + 1 for i in range(9) if g.owner[i] == 1 - g.shooter() and g.flippable(i)]
        if m.events and rnd.random() < 0.02:
            m.apply(rules.UNDO)
        elif theirs and rnd.random() < 0.3:
            m.apply(rules.called(rnd.choice(theirs), rnd.random() < 0.33))
        elif rnd.random() < 0.1:
            m.apply(rules.miss())
        else:
            m.apply(rules.hit(rnd.randint(1, 9), rnd.choice((0, 1, 1, 2, 2, 3))))
    return opts, list(m.log)


def box_matches(count, seed=0):
    """Matches as the box's journal keeps them: header and events as keyed."""
    roster = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    out = []
    for i in range(count):
        rnd = random.Random(seed * 100003 + i)
        a, b = rnd.sample(roster, 2)
        opts, events = finished_match(seed * 100003 + i, ((a,), (b,)))
        header = {
            "options": opts.to_dict(),
            "archers": [[a], [b]],
            "distance": [20, 20],
            "unit": "yd",
            "shaft_mm": [7.0, 7.0],
            "clock": 1790000000 + 3600 * i,
        }
        out.append({"header": header, "events": events})
    return out
