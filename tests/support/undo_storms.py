"""Undo storms (issue 21, item 9) for tests/both/test_undo_storm.py and bench/bench_undo_storm.py,
the same on CPython and MicroPython: long games keyed with a slip undone at every move, which
cost time in proportion to the game's length squared while an undo replayed the game."""


def ttb_lines(size):
    """A Tic Tac BOW script of at most `size` characters: one game of misses with no round
    limit (TTB-13: it never ends), every turn `M U M M M` (a slip undone, TTB-15)."""
    out, n = [], 0
    while True:
        line = "AB"[len(out) % 2] + ": M U M M M"
        n += len(line) + 1
        if n > size:
            return out
        out.append(line)


def ttt_lines(size):
    """A Try-Tac-Toe script of at most `size` characters: match 1 of misses with no move
    limit (TTT-5), every move keyed, undone and keyed again."""
    out, n, k = [], 0, 0
    while True:
        move = "XO"[k % 2] + ": -"
        n += 2 * len(move) + len("undo") + 3
        if n > size:
            return out
        out += [move, "undo", move]
        k += 1


def ttt_events(misses, slips, marks=30):
    """A Try-Tac-Toe game's events as the box journals them: in match 1 (no move limit)
    triangles 1 to `marks` marked, then `misses` misses, then `slips` times a miss undone and
    keyed again."""
    return list(range(1, marks + 1)) + [128] * misses + [256, 128] * slips  # MISS 128, UNDO 256
