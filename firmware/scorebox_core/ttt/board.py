"""Try-Tac-Toe's board (TTT-1, docs/try-tac-toe.md): 74 triangles and every place a shape fits.

The board is six rows of the triangular lattice, 11, 13, 13, 13, 13 and 11 triangles: a
hexagon with a notch at its left and right points, symmetric top to bottom and left to
right. Drawn with 12-pixel sides it is 85 x 63 pixels, leaving the right of the 128x64
screen for the tallies.

Coordinates: a vertex (a, b) is the point a*(1, 0) + b*(1/2, sqrt(3)/2) with the y axis
pointing down, as on the screen and in SVG: b is the row line counted from the top edge
(0-6). In row r (0 = top) lattice slot t = 2a is the down-pointing triangle (a, r),
(a+1, r), (a, r+1) and t = 2a + 1 the up-pointing one (a+1, r), (a, r+1), (a+1, r+1).

Cells are numbered in reading order (row by row from the top, left to right): cell i
(0-73) is triangle number i + 1 on the printed face, the screen and in scripts.

    CELLS[i]        three (a, b) vertices of cell i
    NEIGHBOURS[i]   the cells sharing an edge with cell i, ascending
    SHAPES          the three tetriamonds (TTT-3): "triangle", "bar", "chevron"
    PLACEMENTS      bytes, 4 cell indices per placement, shape by shape: placement p is
                    PLACEMENTS[4p:4p+4]; FIRST[k] <= p < FIRST[k + 1] are those of SHAPES[k]
    COUNTS          placements per shape (52, 156, 164)
    through(i)      the placements cell i belongs to (an array slice)

CELLS and NEIGHBOURS are computed from the slot keys when asked; the placements are
computed once at import into bytes and arrays. As .mpy on the unix port the module keeps
about 10 KB of heap and imports in a 24 KB heap (bench/bench_ttt.py).
"""

from array import array

# (first, last) lattice slot t of each row, top row first.
_ROWS = ((5, 15), (3, 15), (2, 14), (1, 13), (0, 12), (0, 10))

SHAPES = ("triangle", "bar", "chevron")
TRIANGLE = 0  # a triangle of side 2: a cell and its three neighbours
BAR = 1  # four cells in a straight strip
CHEVRON = 2  # the third tetriamond, a bent strip


def _starts():
    out = [0]
    for first, last in _ROWS:
        out.append(out[-1] + last - first + 1)
    return tuple(out)


ROW_STARTS = _starts()
N = ROW_STARTS[-1]
_KEY = bytes(r << 5 | t for r in range(len(_ROWS)) for t in range(_ROWS[r][0], _ROWS[r][1] + 1))  # reading order


def _index(r, t):
    """The cell in row r at lattice slot t, or None off the board."""
    if 0 <= r < len(_ROWS):
        first, last = _ROWS[r]
        if first <= t <= last:
            return ROW_STARTS[r] + t - first
    return None


def _cell(i):
    k = _KEY[i]
    r, t = k >> 5, k & 31
    a = t >> 1
    if t & 1:  # up: its base is the top edge of the down triangle below
        return ((a + 1, r), (a, r + 1), (a + 1, r + 1))
    return ((a, r), (a + 1, r), (a, r + 1))  # down: its top edge is the base of the up one above


def _neighbours(i):
    k = _KEY[i]
    r, t = k >> 5, k & 31
    across = _index(r + 1, t - 1) if t & 1 else _index(r - 1, t + 1)
    return tuple(sorted(n for n in (_index(r, t - 1), _index(r, t + 1), across) if n is not None))


class _Table:
    """A read-only sequence of N items, each computed from the slot keys when asked: held
    as tuples, CELLS and NEIGHBOURS took about 11 KB of the box's heap."""

    def __init__(self, item):
        self._item = item

    def __len__(self):
        return N

    def __getitem__(self, i):
        if i < 0:
            i += N
        if not 0 <= i < N:
            raise IndexError(i)
        return self._item(i)

    def __iter__(self):
        for i in range(N):
            yield self._item(i)


CELLS = _Table(_cell)
NEIGHBOURS = _Table(_neighbours)


def _edge(u, v):
    """Which way the edge between neighbouring cells u and v runs: 0 across rows, 1 or 2 in
    a row (after a down triangle or after an up one). A four-cell strip whose first and last
    edges run the same way is a bar, otherwise a chevron."""
    ku, kv = _KEY[u], _KEY[v]
    if ku >> 5 != kv >> 5:
        return 0
    return 2 if min(ku, kv) & 1 else 1


def _placements():
    """(PLACEMENTS, FIRST): each placement as 4 ascending cell indices, shapes in SHAPES
    order, each shape's placements in ascending order. A placement is packed in one small
    int while sorting (no heap object per placement on MicroPython)."""
    found = ([], [], [])  # type: tuple
    nb = NEIGHBOURS
    for c in range(N):
        if len(nb[c]) == 3:  # a cell and its three neighbours: the triangle (TTT-3)
            found[TRIANGLE].append(_pack(sorted((c,) + nb[c])))
        for c1 in nb[c]:
            for c2 in nb[c1]:
                if c2 == c:
                    continue
                for c3 in nb[c2]:
                    # a strip of four, walked from its lower end (the lattice has no cycle
                    # shorter than six, so the four are distinct)
                    if c3 != c1 and c < c3:
                        shape = BAR if _edge(c, c1) == _edge(c2, c3) else CHEVRON
                        found[shape].append(_pack(sorted((c, c1, c2, c3))))
    out = bytearray()
    first = [0]
    for packed in found:
        packed.sort()
        for p in packed:
            out.extend(bytes((p >> 21, p >> 14 & 127, p >> 7 & 127, p & 127)))
        first.append(len(out) // 4)
    return bytes(out), tuple(first)


def _pack(cells):
    return cells[0] << 21 | cells[1] << 14 | cells[2] << 7 | cells[3]


def _through():
    """Placement ids of every cell, flat, and where each cell's run starts (N + 1 entries)."""
    count = [0] * (N + 1)
    for c in PLACEMENTS:
        count[c + 1] += 1
    for i in range(N):
        count[i + 1] += count[i]
    at = array("H", count)
    ids = array("H", bytes(2 * len(PLACEMENTS)))
    fill = list(count)
    for j in range(len(PLACEMENTS)):
        c = PLACEMENTS[j]
        ids[fill[c]] = j >> 2
        fill[c] += 1
    return at, ids


PLACEMENTS, FIRST = _placements()
COUNTS = tuple(FIRST[k + 1] - FIRST[k] for k in range(len(SHAPES)))
_AT, _IDS = _through()


def through(i):
    """Ids of the placements that cell i (0-73) belongs to, ascending."""
    return _IDS[_AT[i] : _AT[i + 1]]


def placement(p):
    """The 4 cell indices of placement p, ascending."""
    return tuple(PLACEMENTS[4 * p : 4 * p + 4])


def shape_of(p):
    """The index in SHAPES of placement p."""
    return 0 if p < FIRST[1] else (1 if p < FIRST[2] else 2)


def placements(shape):
    """Every placement of SHAPES[shape] as a tuple of 4 cell indices (built on demand)."""
    return tuple(placement(p) for p in range(FIRST[shape], FIRST[shape + 1]))


def row_of(i):
    """Row of cell i, 0 = top."""
    return _KEY[i] >> 5


def is_up(i):
    """True when cell i points up (its apex at the top)."""
    return bool(_KEY[i] & 1)
