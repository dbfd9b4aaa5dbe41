"""Try-Tac-Toe's placement tables, worked out from the board's lattice once, here, instead
of at every import on the box (about 370 ms of the Pico's time when a game starts).

    python tools/ttt_tables.py write    rewrite firmware/scorebox_core/games/ttt/tables.py
    python tools/ttt_tables.py check    exit 1 when the committed tables differ

Every placement of the three tetriamonds (TTT-3) is found by walking the cells' neighbours
(scorebox_core/games/ttt/board.py): a cell with three neighbours makes a triangle with them, and
a strip of four cells is a bar when its first and last edges run the same way, else a
chevron. tests/mpy/ttt_checks.py checks the tables against a brute force over every
connected set of four cells, classified by geometry; tests/pc/test_ttt_tables.py runs `check`.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from scorebox_core.games.ttt import board  # noqa: E402

PATH = os.path.join(ROOT, "firmware", "scorebox_core", "games", "ttt", "tables.py")


def edge(u, v):
    """Which way the edge between neighbouring cells u and v runs: 0 across rows, 1 or 2 in
    a row (after a down triangle or after an up one)."""
    ku, kv = board._KEY[u], board._KEY[v]
    if ku >> 5 != kv >> 5:
        return 0
    return 2 if min(ku, kv) & 1 else 1


def placements():
    """(PLACEMENTS, FIRST): 4 ascending cell indices a placement, shapes in board.SHAPES
    order, each shape's placements ascending."""
    found = (set(), set(), set())
    nb = board.NEIGHBOURS
    for c in range(board.N):
        if len(nb[c]) == 3:
            found[board.TRIANGLE].add(tuple(sorted((c,) + nb[c])))
        for c1 in nb[c]:
            for c2 in nb[c1]:
                for c3 in nb[c2] if c2 != c else ():
                    # a strip of four walked from its lower end (the lattice has no cycle
                    # shorter than six, so the four are distinct)
                    if c3 != c1 and c < c3:
                        shape = board.BAR if edge(c, c1) == edge(c2, c3) else board.CHEVRON
                        found[shape].add(tuple(sorted((c, c1, c2, c3))))
    out, first = bytearray(), [0]
    for shape in found:
        for p in sorted(shape):
            out.extend(p)
        first.append(len(out) // 4)
    return bytes(out), tuple(first)


def through(table):
    """(AT, IDS): the ids of the placements each cell belongs to, ascending, flat in IDS;
    cell i's are IDS[AT[i]:AT[i + 1]]."""
    runs = [[] for _ in range(board.N)]
    for j, c in enumerate(table):
        runs[c].append(j // 4)
    at, ids = [0], []
    for r in runs:
        ids += r
        at.append(len(ids))
    return at, ids


def _literal(data):
    """A bytes literal as ruff formats it: double quotes, \\xNN for all but plain characters."""
    return 'b"%s"' % "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else "\\x%02x" % b for b in data)


def _literals(data, indent):
    """data as bytes literals of 24 bytes a line."""
    return [indent + _literal(data[i : i + 24]) for i in range(0, len(data), 24)]


def _bytes(name, data, comment):
    return "\n".join(["# %s" % comment, "%s = (" % name] + _literals(data, "    ") + [")"])


def _pieces(name, pieces, comment):
    """A tuple of bytes literals, each piece's lines in its own parentheses."""
    lines = ["# %s" % comment, "%s = (" % name]
    for data in pieces:
        lines += ["    ("] + _literals(data, "        ") + ["    ),"]
    return "\n".join(lines + [")"])


def _words(values):
    return b"".join(i.to_bytes(2, "little") for i in values)


def source():
    """The tables in pieces, none larger than about 650 bytes: where the box loads them as
    compiled files (the sim, CircuitPython) each piece is one block of a heap long in use,
    found whole or not at all, every time a match of the game opens."""
    table, first = placements()
    at, ids = through(table)
    rows = board.ROW_STARTS
    return (
        "\n\n".join(
            [
                '"""Try-Tac-Toe\'s placements (TTT-3), written by `python tools/ttt_tables.py write`:'
                ' do not edit.\nscorebox_core/games/ttt/board.py says what they are."""',
                "FIRST = %r  # placements of SHAPES[k] are FIRST[k] <= p < FIRST[k + 1]" % (first,),
                _pieces(
                    "PLACEMENTS",
                    [table[4 * first[k] : 4 * first[k + 1]] for k in range(len(first) - 1)],
                    "shape k's placements, 4 cells each: placement p is PLACEMENTS[k][4(p - FIRST[k]):][:4]",
                ),
                _bytes("AT", _words(at), "where each cell's run of IDS begins (N + 1 of them): array('H') bytes"),
                _pieces(
                    "IDS",
                    [_words(ids[at[rows[r]] : at[rows[r + 1]]]) for r in range(len(rows) - 1)],
                    "row r's placement ids, cell by cell, each cell's ascending: array('H') bytes;\n"
                    "# cell i's begin at AT[i] - AT[ROW_STARTS[r]] in its row's",
                ),
            ]
        )
        + "\n"
    )


def main(argv):
    what = argv[0] if argv else ""
    if what == "write":
        with open(PATH, "w") as f:
            f.write(source())
        return 0
    if what == "check":
        with open(PATH) as f:
            if f.read() != source():
                print("%s is out of date: run `python tools/ttt_tables.py write`" % os.path.relpath(PATH, ROOT))
                return 1
        return 0
    print(__doc__.strip().splitlines()[2].strip() + "\n" + __doc__.strip().splitlines()[3].strip())
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
