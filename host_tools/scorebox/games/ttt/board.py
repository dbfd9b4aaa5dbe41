"""A Try-Tac-Toe board drawn as text for a terminal (`scorebox replay`): each triangle as its
number while empty and as X or O once marked, rows offset as on the face; then the tallies
and the scores."""

from scorebox.text import plural
from scorebox_core.games.ttt import board
from scorebox_core.games.ttt.rules import MATCHES, SHAPES, SIDES, O, X, side_name, token
from scorebox_core.match import result_text

_W = 3  # characters per triangle; neighbours in a row are half a side apart


def draw(match):
    """The board of one match: a line per row, each cell at its place across the face."""
    lines = []
    starts = board.ROW_STARTS
    # Centre of each cell across the face, in half sides: the mean of its vertices' 2a + b.
    col = [sum(2 * a + b for a, b in board.CELLS[i]) // 3 for i in range(board.N)]
    left = min(col)
    for r in range(len(starts) - 1):
        line = " " * (_W * (col[starts[r]] - left))
        for i in range(starts[r], starts[r + 1]):
            owner = match.owner(i)
            text = str(i + 1) if owner is None else SIDES[owner]
            line += " " * (_W - len(text)) + text
        lines.append(line)
    return "\n".join(lines)


def _tally(match, side):
    t = match.tally[side]
    parts = ", ".join("%s %d" % (SHAPES[k], t[k]) for k in range(len(SHAPES)))
    return "%s: %s = %d" % (SIDES[side], parts, match.score(side))


def status(game):
    """Lines under the board: the match, who moves, the last move, tallies and scores."""
    m = game.match
    n = len(game.matches)
    opts = game.opts
    values = ", ".join("%s %d" % (SHAPES[k], opts.values[k]) for k in range(len(SHAPES)))
    limit = ", move limit %d" % opts.moves if opts.moves else ""
    lines = ["Match %d of %d, %s - values %s%s" % (n, MATCHES, plural(len(m.moves), "move"), values, limit)]
    if m.moves:
        made = [SHAPES[board.shape_of(p)] for p in m.made[-1]]
        lines.append("Last move: %s%s" % (token(m.moves[-1]), " made " + ", ".join(made) if made else ""))
    if m.over():
        lines.append("Match %d over: %s" % (n, m.reason))
    else:
        side = m.mover()
        lines.append("Next: %s (%s)" % (SIDES[side], game.archer()))
        if m.dead():
            lines.append("No shape is possible for either side any more: the match can end (TTT-5)")
    lines.append("Tally " + _tally(m, X))
    lines.append("Tally " + _tally(m, O))
    score = game.score()
    per = ", ".join("%d-%d" % (mm.score(X), mm.score(O)) for mm in game.matches)
    lines.append("Score: X %d - O %d (matches %s)" % (score[X], score[O], per))
    if game.over():
        lines.append("Game over: " + result_text(side_name(game.winner())))
    elif m.over():
        lines.append("Next: `match 2` (O starts it)")
    return "\n".join(lines)


def replay_text(game):
    """`scorebox replay`: the board of the match under way and the game's status."""
    return draw(game.match) + "\n" + status(game)
