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
    FIRST           placements p of SHAPES[k] are FIRST[k] <= p < FIRST[k + 1]
    placement(p)    the 4 cell indices of placement p
    COUNTS          placements per shape (52, 156, 164)
    through(i)      the placements cell i belongs to (an array slice)

CELLS and NEIGHBOURS are computed from the slot keys when asked. The placements are worked
out from the neighbours by tools/ttt_tables.py into tables.py (a cell with three
neighbours makes a triangle with them; a strip of four is a bar when its first and last
edges run the same way, else a chevron), once, not at every import: that took about 370 ms
of the Pico's time as a game started. tests/mpy/ttt_checks.py checks them against a brute
force over every connected set of four cells.
"""

from array import array

from scorebox_core.games.ttt import tables

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


FIRST = tables.FIRST
COUNTS = tuple(FIRST[k + 1] - FIRST[k] for k in range(len(SHAPES)))
_AT = array("H", tables.AT)


def through(i):
    """Ids of the placements that cell i (0-73) belongs to, ascending (an array('H'))."""
    r = _KEY[i] >> 5
    base = _AT[ROW_STARTS[r]]
    return array("H", tables.IDS[r][2 * (_AT[i] - base) : 2 * (_AT[i + 1] - base)])


def placement(p):
    """The 4 cell indices of placement p, ascending."""
    k = shape_of(p)
    at = 4 * (p - FIRST[k])
    return tuple(tables.PLACEMENTS[k][at : at + 4])


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
