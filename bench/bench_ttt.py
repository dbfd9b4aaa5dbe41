"""Try-Tac-Toe's rules core: time per move with its shape check (CPython and MicroPython),
the board's tables at import on MicroPython (time, heap) and a game's peak heap."""

import random
import time

from bench_rules import run_mpy

from scorebox_core.games.ttt.rules import MISS, NEXT_MATCH, Game


def random_game(seed):
    """A two-match game of random moves, 1 in 10 a miss, each match to a full grid."""
    rnd = random.Random(seed)
    g = Game()
    while not g.over():
        m = g.match
        if m.over():
            g.apply(NEXT_MATCH)
        elif rnd.random() < 0.1:
            g.apply(MISS)
        else:
            g.apply(rnd.choice([i + 1 for i in range(74) if not m.marks[i]]))
    return g.events


def time_cpython(games):
    t0 = time.perf_counter()
    n = 0
    for events in games:
        g = Game()
        for ev in events:
            g.apply(ev)
        n += len(events)
    return (time.perf_counter() - t0) / n * 1e6


def run():
    games = [random_game(seed) for seed in range(20)]
    cpy_us = time_cpython(games)
    got = run_mpy("bench/mpy/ttt_bench.py", {"games": games})
    return {
        "ttt_us_per_move_cpy": round(cpy_us, 2),
        "ttt_us_per_move_mpy": round(got["us_per_move"], 2),
        "ttt_board_import_ms_mpy": round(got["import_us"] / 1000, 2),
        "ttt_board_heap_bytes_mpy": got["board_heap"],
        "ttt_heap_peak_bytes_mpy": got["heap_peak"],
    }
