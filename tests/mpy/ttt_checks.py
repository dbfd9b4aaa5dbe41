"""Try-Tac-Toe's board and rules (TTT-1 to TTT-6), checked the same way on both interpreters.

Each check_NAME() raises Mismatch on a failure and returns how many things it checked;
tests/both/test_ttt.py calls them under CPython and runs this file under MicroPython:

    micropython tests/mpy/ttt_checks.py              (prints PASS/FAIL NAME per check)
    micropython tests/mpy/ttt_checks.py snapshot     (prints the snapshot of a set game)

Expected values come from geometry and brute force here, not from the rules core's own
tables, so a wrong table fails.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import json
import sys

from scorebox_core.games.ttt import board, rules
from scorebox_core.games.ttt.rules import END, MISS, NEXT_MATCH, UNDO, Game, Options, Refused
from scorebox_core.games.ttt.script import Reader, ScriptError, read_lines
from scorebox_core.games.ttt.snapshot import snapshot


class Mismatch(Exception):
    pass


def want(cond, text):
    if not cond:
        raise Mismatch(text)


class Rand:
    """A tiny LCG: the same numbers on both interpreters."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


# --- geometry, from the vertices alone -------------------------------------------------
def edges(i):
    v = board.CELLS[i]
    return [tuple(sorted((v[j], v[(j + 1) % 3]))) for j in range(3)]


def geometric_neighbours():
    by_edge = {}
    for i in range(board.N):
        for e in edges(i):
            by_edge.setdefault(e, []).append(i)
    out = [[] for _ in range(board.N)]
    for cells in by_edge.values():
        if len(cells) == 2:
            out[cells[0]].append(cells[1])
            out[cells[1]].append(cells[0])
    return [tuple(sorted(n)) for n in out]


def centre(i):
    """3 x the cell's centre in (x2, y) units: x2 = 2a + b (half sides), y = b (rows)."""
    v = board.CELLS[i]
    return sum(2 * a + b for a, b in v), sum(b for a, b in v)


def shape_by_geometry(cells):
    """Classify 4 connected cells by their vertices: the triangle of side 2 has a cell
    touching the other three; the bar's six vertices lie on two parallel lattice lines."""
    nb = board.NEIGHBOURS
    for c in cells:
        if sum(1 for d in cells if d in nb[c]) == 3:
            return board.TRIANGLE
    pts = set()
    for c in cells:
        for p in board.CELLS[c]:
            pts.add(p)
    for f in (lambda p: p[1], lambda p: p[0], lambda p: p[0] + p[1]):
        if len(set(f(p) for p in pts)) == 2:
            return board.BAR
    return board.CHEVRON


def connected_fours():
    """Every set of 4 edge-joined cells, grown cell by cell: {sorted tuple}."""
    found = set()
    nb = board.NEIGHBOURS
    frontier = set((c,) for c in range(board.N))
    for _ in range(3):
        nxt = set()
        for s in frontier:
            for c in s:
                for d in nb[c]:
                    if d not in s:
                        nxt.add(tuple(sorted(s + (d,))))
        frontier = nxt
    for s in frontier:
        found.add(s)
    return found


def check_board_cells():
    """TTT-1: 74 unit triangles of the lattice, rows 11/13/13/13/13/11, numbered in reading
    order, every edge-neighbour found from the vertices, one connected region."""
    n = 0
    want(board.N == 74 and len(board.CELLS) == 74 and len(board.NEIGHBOURS) == 74, "not 74 cells")
    rows = [board.ROW_STARTS[r + 1] - board.ROW_STARTS[r] for r in range(6)]
    want(rows == [11, 13, 13, 13, 13, 11], "rows %r" % rows)
    for i in range(board.N):
        v = board.CELLS[i]
        want(len(v) == 3 and len(set(v)) == 3, "cell %d vertices %r" % (i + 1, v))
        for a, b in v:
            want(isinstance(a, int) and isinstance(b, int), "cell %d: vertices not integers" % (i + 1))
        # unit side in lattice terms: the difference of any two vertices is a unit vector
        for j in range(3):
            da, db = v[j][0] - v[(j + 1) % 3][0], v[j][1] - v[(j + 1) % 3][1]
            want(
                (da, db) in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)),
                "cell %d not a unit triangle" % (i + 1),
            )
        n += 1
    for i in range(board.N - 1):  # reading order: rows top to bottom, left to right in a row
        (x1, y1), (x2, y2) = centre(i), centre(i + 1)
        want(
            y2 // 3 > y1 // 3 or (y2 // 3 == y1 // 3 and x2 > x1), "cells %d, %d out of reading order" % (i + 1, i + 2)
        )
        want(board.row_of(i) == y1 // 3, "row_of(%d)" % i)
        want(board.is_up(i) == (y1 % 3 == 2), "is_up(%d)" % i)  # an up cell's centre is low in its row
    want(list(board.NEIGHBOURS) == geometric_neighbours(), "NEIGHBOURS differ from the shared edges")
    seen = {0}
    todo = [0]
    while todo:
        for d in board.NEIGHBOURS[todo.pop()]:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    want(len(seen) == 74, "the board is not one connected region")
    return n + 3


def check_board_fits_screen():
    """TTT-1: drawn with 12-pixel sides the board fits 128x64 with room for tallies."""
    xs = [(2 * a + b) * 6 for v in board.CELLS for a, b in v]  # 12 * (a + b/2)
    ys = [b for v in board.CELLS for a, b in v]
    width = max(xs) - min(xs) + 1
    height = int((max(ys) - min(ys)) * 12 * 0.8660254) + 1
    want(width <= 85 and height <= 64, "board %dx%d px" % (width, height))
    return 1


def check_placements():
    """TTT-3: every placement of every tetriamond, turned and mirrored, on this board: the
    same set as a brute force over all connected 4-cell sets, classified by geometry."""
    got = [set(board.placements(k)) for k in range(3)]
    brute = [set(), set(), set()]
    for s in connected_fours():
        brute[shape_by_geometry(s)].add(s)
    for k in range(3):
        want(got[k] == brute[k], "%s: %d placements, brute force %d" % (board.SHAPES[k], len(got[k]), len(brute[k])))
    want(board.COUNTS == (52, 156, 164), "counts %r" % (board.COUNTS,))
    want(tuple(len(b) for b in brute) == board.COUNTS, "COUNTS")
    for p in range(board.FIRST[-1]):
        want(board.shape_of(p) == (0 if p < 52 else (1 if p < 208 else 2)), "shape_of(%d)" % p)
        for c in board.placement(p):
            want(p in list(board.through(c)), "through(%d) lacks %d" % (c, p))
    total = sum(len(board.through(c)) for c in range(board.N))
    want(total == 4 * board.FIRST[-1], "through() has %d entries" % total)
    return 3 + board.FIRST[-1]


def check_no_dead_corner():
    """TTT-1: every triangle is part of some placement of each of the three shapes."""
    for k in range(3):
        covered = set()
        for p in board.placements(k):
            covered.update(p)
        want(len(covered) == 74, "%s misses cells %r" % (board.SHAPES[k], sorted(set(range(74)) - covered)))
    return 3


def check_values():
    """TTT-4: default values = commonest count / own count, rounded half up; an option."""
    want(rules.default_values((52, 156, 164)) == (3, 1, 1), "values of this board")
    want(rules.default_values((10, 25, 50)) == (5, 2, 1), "2.5 rounds up")
    o = Options()
    want(o.values == [3, 1, 1] and o.moves == 0, "defaults")
    o.set("bar", "2")
    o.set("moves", "40")
    want(o.to_dict() == {"triangle": 3, "bar": 2, "chevron": 1, "moves": 40}, "set")
    want(Options.from_dict(o.to_dict()).to_dict() == o.to_dict(), "round trip")
    for name, text in (("bar", "x"), ("bar", "100"), ("size", "1"), ("moves", "-1")):
        try:
            o.set(name, text)
            raise Mismatch("option %s=%s accepted" % (name, text))
        except ValueError:
            pass
    return 8


def brute_tally(marks, side):
    out = [0, 0, 0]
    for p in range(board.FIRST[-1]):
        if all(marks[c] == side + 1 for c in board.placement(p)):
            out[board.shape_of(p)] += 1
    return out


def brute_possible(marks, side):
    n = 0
    for p in range(board.FIRST[-1]):
        cells = board.placement(p)
        if all(marks[c] in (0, side + 1) for c in cells) and any(marks[c] == 0 for c in cells):
            n += 1
    return n


def random_game(seed, misses=True):
    """One game of random moves: both matches to a full grid."""
    rnd = Rand(seed)
    g = Game()
    while not g.over():
        m = g.match
        if m.over():
            g.apply(NEXT_MATCH)
            continue
        empty = [i for i in range(74) if not m.marks[i]]
        if misses and rnd.below(8) == 0:
            g.apply(MISS)
        else:
            g.apply(empty[rnd.below(len(empty))] + 1)
    return g


def check_scoring_random():
    """TTT-3, TTT-6: in random games the tallies after every move are exactly the shapes
    each side holds (each counted once), the possible placements are those the other side
    has not touched, and the scores add up."""
    n = 0
    for seed in (1, 2, 3):
        rnd = Rand(seed)
        g = Game()
        m = g.match
        while not m.over():
            if rnd.below(10) == 0:
                g.apply(MISS)
            else:
                empty = [i for i in range(74) if not m.marks[i]]
                g.apply(empty[rnd.below(len(empty))] + 1)
            if len(m.moves) % 7 == 0 or m.over():
                for side in (0, 1):
                    want(m.tally[side] == brute_tally(m.marks, side), "seed %d move %d tally" % (seed, len(m.moves)))
                    want(m.possible(side) == brute_possible(m.marks, side), "seed %d possible" % seed)
                n += 1
        made = sum(len(x) for x in m.made)
        want(made == sum(m.tally[0]) + sum(m.tally[1]), "every shape scored once, on one move")
        want(m.reason == rules.GRID_FULL and m.marked == 74, "TTT-5: grid full ends the match")
        x = m.tally[0]
        want(m.score(0) == 3 * x[0] + x[1] + x[2], "TTT-6: tally x value")
    return n


def two_shapes(k1, k2, common):
    """(p, q, tally): a placement of shape k1 and one of k2 sharing `common` cells, whose
    union holds as few other shapes as the board allows (its tally by brute force)."""
    best = None
    for p in board.placements(k1):
        for q in board.placements(k2):
            if p != q and len(set(p) & set(q)) == common:
                marks = bytearray(74)
                for c in set(p) | set(q):
                    marks[c] = 1
                t = brute_tally(marks, 0)
                if best is None or sum(t) < sum(best[2]):
                    best = (p, q, t)
    return best


def x_marks(cells):
    """Script lines: X marks cells (0-based) in order, O misses in between."""
    lines = []
    for c in cells:
        lines.append("X: %d" % (c + 1))
        lines.append("O: -")
    return read_lines(lines[:-1])


def check_one_mark_two_shapes():
    """TTT-3: one mark completing a triangle and a bar (and whatever else their union
    holds) scores every shape it completes, each with its value."""
    tri, bar, tally = two_shapes(board.TRIANGLE, board.BAR, 1)
    last = (set(tri) & set(bar)).pop()
    g = x_marks([c for c in sorted(set(tri) | set(bar)) if c != last] + [last])
    m = g.match
    made = m.made[-1]
    want(tri in [board.placement(p) for p in made] and bar in [board.placement(p) for p in made], "both made")
    want(sum(len(x) for x in m.made[:-1]) == 0 and len(made) == sum(tally) >= 2, "all on the last mark")
    want(m.tally[0] == tally, "tally %r, brute force %r" % (m.tally[0], tally))
    want(m.score(0) == 3 * tally[0] + tally[1] + tally[2] and g.score() == [m.score(0), 0], "TTT-6 score")
    s = snapshot(g)
    want(s["last"]["token"] == str(last + 1) and len(s["last"]["shapes"]) == len(made), "last %r" % s["last"])
    want(s["tally"]["X"] == {"triangle": tally[0], "bar": tally[1], "chevron": tally[2]}, "snapshot tally")
    return 6


def check_shared_triangles():
    """TTT-3: two chevrons sharing two triangles both score, each once, on its own fourth
    mark; marks away from them score nothing again."""
    p, q, tally = two_shapes(board.CHEVRON, board.CHEVRON, 2)
    g = x_marks(sorted(p) + sorted(set(q) - set(p)))
    m = g.match
    want(m.tally[0] == tally and tally[2] >= 2, "tally %r, brute force %r" % (m.tally[0], tally))
    want(len(m.made[6]) >= 1 and p in [board.placement(x) for x in m.made[6]], "p on X's 4th mark")
    want(q in [board.placement(x) for x in m.made[10]], "q on X's 6th mark")
    want(sum(len(x) for x in m.made) == sum(tally), "each shape once")
    g.apply(MISS)
    far = [c for c in range(74) if not m.marks[c] and all(not m.marks[d] for d in board.NEIGHBOURS[c])]
    g.apply(far[0] + 1)
    want(m.tally[0] == tally, "made once only")
    return 5


def check_blocking_and_dead():
    """TTT-5: a mark blocks the other side's placements through it; when neither side can
    make a shape the box says so (dead), and `end` then gives the reason."""
    g = Game()
    m = g.match
    want(m.possible(0) == 372 and m.possible(1) == 372 and not m.dead(), "fresh board")
    g.apply(1)
    want(m.possible(1) == 372 - len(board.through(0)), "O loses the placements through 1")
    # Checkerboard-like play until dead: each side takes cells that block the other most.
    rnd = Rand(7)
    while not m.dead() and not m.over():
        empty = [i for i in range(74) if not m.marks[i]]
        g.apply(empty[rnd.below(len(empty))] + 1)
    want(m.dead() == (brute_possible(m.marks, 0) == 0 and brute_possible(m.marks, 1) == 0), "dead is exact")
    n = 3
    if not m.over():
        want(g.why_not(END) is None, "end allowed")
        g.apply(END)
        want(m.over() and m.reason == rules.NO_SHAPE, "reason %r" % m.reason)
        n += 1
    g2 = Game()
    g2.apply(5)
    g2.apply(END)
    want(g2.match.reason == rules.AGREED, "an early end is by agreement (time limit)")
    want(g2.why_not(7) == "match 1 is over: start match 2", "moves after the end: %r" % g2.why_not(7))
    return n + 2


def check_move_limit():
    """TTT-5: an agreed move limit ends the match; misses count as moves."""
    g = read_lines(["options: moves=4", "X: 1", "O: -", "X: 3", "O: 4"])
    m = g.match
    want(m.over() and m.reason == rules.MOVE_LIMIT, "reason %r" % m.reason)
    want(g.mover() is None, "no one moves")
    try:
        read_lines(["options: moves=2", "X: 1", "O: 2", "X: 3"])
        raise Mismatch("a move after the limit was accepted")
    except ScriptError as e:
        want(e.line == 4 and "match 1 is over" in e.message, e.message)
    return 3


def check_full_game_rotation():
    """TTT-2, TTT-6: teams seated X1, O1, X2, O2; X starts match 1 and O match 2, play goes
    round the table in both; game score = both matches; the winner once both are over."""
    g = Game(None, (("Ann", "Bob"), ("Cat", "Dan")))
    order = []
    rnd = Rand(11)
    while not g.over():
        m = g.match
        if m.over():
            want(g.mover() is None and g.archer() is None, "no one moves between matches")
            g.apply(NEXT_MATCH)
            continue
        order.append((len(g.matches), rules.SIDES[g.mover()], g.archer()))
        empty = [i for i in range(74) if not m.marks[i]]
        g.apply(empty[rnd.below(len(empty))] + 1)
    m1 = [p for k, s, p in order if k == 1][:6]
    m2 = [p for k, s, p in order if k == 2][:6]
    want(m1 == ["Ann", "Cat", "Bob", "Dan", "Ann", "Cat"], "match 1 order %r" % m1)
    want(m2 == ["Cat", "Bob", "Dan", "Ann", "Cat", "Bob"], "match 2 order %r" % m2)
    want(order[0][1] == "X" and [s for k, s, p in order if k == 2][0] == "O", "X starts 1, O starts 2")
    a, b = g.matches
    want(len(a.moves) == 74 and len(b.moves) == 74, "both to a full grid")
    score = g.score()
    want(score == [a.score(0) + b.score(0), a.score(1) + b.score(1)], "game score = both matches")
    w = g.winner()
    want(w == (rules.DRAW if score[0] == score[1] else (0 if score[0] > score[1] else 1)), "winner")
    want(g.why_not(1) == "the game is over" and g.why_not(NEXT_MATCH) == "the game is over", "over")
    s = snapshot(g)
    want(s["matches"] == [{"X": a.score(0), "O": a.score(1)}, {"X": b.score(0), "O": b.score(1)}], "matches")
    want(s["score"] == {"X": score[0], "O": score[1]} and s["winner"] == rules.side_name(w), "snapshot")
    return 9


def check_undo():
    """Undo takes back the last event in effect, even the start of match 2, and
    is logged; a refused event changes nothing."""
    g = random_game(5)
    events = list(g.events)
    n = 0
    for k in (1, 2, 3):
        before = Game.replay(events[: len(events) - k])
        g.apply(UNDO)
        want(snapshot(g) == snapshot(before), "undo %d" % k)
        n += 1
    want(g.log[-3:] == [UNDO, UNDO, UNDO] and len(g.events) == len(events) - 3, "undos logged")
    cut = events.index(NEXT_MATCH)
    h = Game.replay(events[: cut + 1])
    h.apply(UNDO)
    want(len(h.matches) == 1 and h.match.over(), "undo of match 2's start")
    k = Game.replay(events)
    steps = []
    step = k._step
    k._step = lambda ev: steps.append(ev) or step(ev)
    k.apply(UNDO)
    want(steps == [], "an undo folds no move again (#21 item 9: it takes its move back)")
    want(snapshot(k) == snapshot(Game.replay(events[:-1])), "and lands where a replay does")
    want(Game().why_not(UNDO) == "nothing to undo", "nothing to undo")
    g = read_lines(["X: 1", "O: 2", "undo", "O: 3"])
    want(g.match.owner(1) is None and g.match.owner(2) == 1, "undo in a script")
    log = list(g.log)
    for bad in (3, 0, 75, 258, NEXT_MATCH):
        try:
            g.apply(bad)
            raise Mismatch("%d accepted" % bad)
        except Refused:
            pass
    want(g.log == log, "a refused event changed the log")
    want("triangle 3 is O's" in g.why_not(3), g.why_not(3))
    return n + 6


def check_replay_lenient():
    """The journal's events replay; refused ones name their place, or are skipped."""
    evs = [1, 2, 2, 3]
    try:
        Game.replay(evs)
        raise Mismatch("replayed a move into a marked triangle")
    except Refused as e:
        want(str(e).startswith("event 3 (2): triangle 2 is O's"), str(e))
    g = Game.replay(evs, lenient=True)
    want(g.skipped == [2] and g.events == [1, 2, 3], "lenient %r" % g.skipped)
    return 2


def check_script_errors():
    """Scripts name the line at fault."""
    cases = (
        (["X: 1", "X: 2"], 2, "O moves now, not X"),
        (["O: 1"], 1, "X moves now, not O"),
        (["X: 75"], 1, "bad move '75'"),
        (["X: 1", "O: 1"], 2, "triangle 1 is X's"),
        (["X: 1", "match 2"], 2, "match 1 is still on"),
        (["options: bar=x"], 1, "bar must be a whole number"),
        (["options: game=tictacbow"], 1, "game must be try-tac-toe"),
        (["X: 1", "options: bar=2"], 2, "options must come before the first move"),
        (["hello"], 1, "expected `X: N`"),
        (["A: 5:1"], 1, "unknown line 'A'"),
    )
    for lines, line, text in cases:
        try:
            read_lines(lines)
            raise Mismatch("%r accepted" % lines)
        except ScriptError as e:
            want(e.line == line and text in e.message, "%r: line %d %r" % (lines, e.line, e.message))
    r = Reader()
    r.feed(1, "options: game=try-tac-toe triangle=5  # comment")
    want(r.finish().opts.values == [5, 1, 1], "options line")
    return len(cases) + 1


def check_header_and_result():
    """The journal's header says `game` for Try-Tac-Toe only, and reads back its options and
    X/O players; the result record holds the game score and each match's (TTT-6)."""
    from scorebox_core import match
    from scorebox_core.games.ttb.rules import Face
    from scorebox_core.games.ttb.rules import Options as TtbOptions

    o = Options()
    o.set("moves", "30")
    h = match.header(o, (("Ann", "Bob"), ("Cat",)), (20, 20), "yd", (70, 70), Face(), rules.GAME)
    want(h["game"] == "try-tac-toe" and match.game_of(h) == rules.GAME, "game in the header")
    opts, players, _ = match.from_header(h)
    want(opts.to_dict() == o.to_dict() and players == (("Ann", "Bob"), ("Cat",)), "read back")
    bare = match.from_header({"options": {}, "game": "try-tac-toe"})
    want(bare[1] == (("X",), ("O",)) and bare[0].values == [3, 1, 1], "defaults X and O")
    ttb = match.header(TtbOptions(), (("A",), ("B",)), (20, 20), "yd", (70, 70), Face())
    want("game" not in ttb and match.game_of(ttb) == "tictacbow", "Tic Tac BOW's header unchanged")
    try:
        match.game_of({"game": "chess"})
        raise Mismatch("unknown game accepted")
    except ValueError:
        pass
    g = random_game(4)
    r = match.result(g)
    want(r["score"] == g.score() and r["winner"] == rules.side_name(g.winner()), "result %r" % r)
    want([m["reason"] for m in r["matches"]] == ["grid full", "grid full"], "reasons")
    want(match.effective(g.log) == g.events, "effective() folds the undos")
    return 8


CHECKS = (
    check_board_cells,
    check_board_fits_screen,
    check_placements,
    check_no_dead_corner,
    check_values,
    check_scoring_random,
    check_one_mark_two_shapes,
    check_shared_triangles,
    check_blocking_and_dead,
    check_move_limit,
    check_full_game_rotation,
    check_undo,
    check_replay_lenient,
    check_script_errors,
    check_header_and_result,
)


def main(argv):
    if argv and argv[0] == "snapshot":
        print(json.dumps(snapshot(random_game(int(argv[1]) if len(argv) > 1 else 3))))
        return 0
    failed = 0
    for f in CHECKS:
        name = f.__name__[6:]
        try:
            print("PASS %s %d" % (name, f()))
        except Exception as e:  # a failing check is reported, the others still run
            failed += 1
            print("FAIL %s %s: %s" % (name, type(e).__name__, e))
    return failed


if __name__ == "__main__":
    sys.exit(1 if main(sys.argv[1:]) else 0)
