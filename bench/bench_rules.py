"""Rules core: time per arrow (CPython and MicroPython) and MicroPython peak heap."""

import json
import os
import random
import tempfile
import time

import mpy

from scorebox_core.games.ttb import rules
from scorebox_core.games.ttb.rules import Match, Options
from scorebox_core.games.ttb.snapshot import squares


def best_of_nine(seed):
    """One random best-of-9 match, played out: its events (arrows and new games)."""
    opts = Options()
    opts.games = 9
    rnd = random.Random(seed)
    m = Match(opts)
    while not m.over():
        g = m.game
        if g.over():
            m.apply(rules.NEW_GAME)
            continue
        theirs = [i + 1 for i in range(9) if g.owner[i] == 1 - g.shooter() and g.flippable(i)]
        if theirs and rnd.random() < 0.3:  # a called shot at the opponent's square, 1 in 3 hit
            m.apply(rules.called(rnd.choice(theirs), rnd.random() < 0.33))
        elif rnd.random() < 0.1:
            m.apply(rules.miss())
        else:
            m.apply(rules.hit(rnd.randint(1, 9), rnd.choice((0, 1, 1, 2, 2, 3))))
    return m.events


def game_of(n):
    """A single game that lasts exactly n arrows: low scores spread over the face."""
    for seed in range(1000):
        rnd = random.Random(seed)
        m = Match()
        while len(m.events) < n and not m.game.over():
            m.apply(rules.hit(rnd.randint(1, 9), rnd.choice((0, 1, 1, 2))))
        if len(m.events) == n:
            return m.events
    raise RuntimeError("no %d-arrow game found" % n)


def time_cpython(opts, matches):
    t0 = time.perf_counter()
    n = 0
    for events in matches:
        m = Match(opts)
        for ev in events:
            m.apply(ev)
            squares(m.game)
        n += len(events)
    return (time.perf_counter() - t0) / n * 1e6


def run_mpy(script, data):
    """What a bench/mpy script prints (one JSON object) when run on MicroPython with data in a
    JSON file."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    try:
        p = mpy.run([script, f.name])
    finally:
        os.unlink(f.name)
    if p.returncode:
        raise RuntimeError(p.stderr)
    return json.loads(p.stdout)


def run():
    opts = Options()
    opts.games = 9
    matches = [best_of_nine(seed) for seed in range(20)]
    game60 = game_of(60)
    cpy_us = time_cpython(opts, matches)
    got = run_mpy("bench/mpy/rules_bench.py", {"options": opts.to_dict(), "matches": matches, "game60": game60})
    return {
        "rules_us_per_arrow_cpy": round(cpy_us, 2),
        "rules_us_per_arrow_mpy": round(got["us_per_arrow"], 2),
        "rules_heap_peak_bytes_mpy": got["heap_peak"],
    }
