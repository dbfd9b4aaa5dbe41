"""The archers' figures kept as matches are stored: an archer's statistics
read their own rows here, a few dozen and one per match they shot in, not the store's
millions of arrows.

Filled for a range of match ids (store ids are given in order: a batch of new matches is one
range) by Store.add_checked, and for one match again when its archers are named
(rosterdb.py's name_match: take_back first). archer_matches holds, per archer and match,
the arrows they shot and their points (TTB-7): the series of their trend. The other tables
are sums per archer, kept as rows that are only added: a match named again adds its old
rows negated, so an archer's figures are the sums of their rows:
- archer_results, archer_games: matches and games by the archer's side and the winner;
- archer_opponents: matches against each archer of the other side, and the games of them;
- archer_arrows: arrows and the sum of their values by square, called and outcome;
- archer_claims: claims of theirs the other side flipped later in the game (TTB-8).
"""

from sqlalchemy import Text, and_, bindparam, case, delete, func, insert, literal_column, select

from scorebox.store import sql, tables


def _lit(value):
    """A constant written into the statement, not a parameter."""
    return literal_column("'%s'" % value, Text)


_X, _Y = tables.match_archers.alias("x"), tables.match_archers.alias("y")
_M = tables.matches.alias("m")
_G = tables.games.alias("g")
_T = tables.turns.alias("t")
_R = tables.arrows.alias("r")
_RANGE = _X.c.match_id.between(bindparam("first"), bindparam("last"))
_ARROWS = _R.join(_T, _T.c.id == _R.c.turn_id).join(_G, _G.c.id == _T.c.game_id)
_ARROWS_RANGE = _G.c.match_id.between(bindparam("first"), bindparam("last"))
_AB = _X.c.side.in_((_lit("A"), _lit("B")))


def _sums(sign):
    """Each sum's statement for the matches first..last; sign -1 takes them back."""

    def n(count):
        return -count if sign < 0 else count

    x, y, m, g, t, r = _X, _Y, _M, _G, _T, _R
    results = insert(tables.archer_results).from_select(
        ("archer_id", "side", "winner", "matches"),
        select(x.c.archer_id, x.c.side, m.c.winner, n(func.count()))
        .select_from(x.join(m, m.c.id == x.c.match_id))
        .where(_AB, _RANGE)
        .group_by(x.c.archer_id, x.c.side, m.c.winner),
    )
    game_rows = insert(tables.archer_games).from_select(
        ("archer_id", "side", "winner", "games"),
        select(x.c.archer_id, x.c.side, g.c.winner, n(func.count()))
        .select_from(x.join(g, g.c.match_id == x.c.match_id))
        .where(_RANGE)
        .group_by(x.c.archer_id, x.c.side, g.c.winner),
    )

    def of_side(a, b):  # the archer's side's figure, a; the other side's, b
        return func.sum(case({_lit("A"): a}, value=x.c.side, else_=b))

    opponents = insert(tables.archer_opponents).from_select(
        ("archer_id", "opponent_id", "side", "winner", "matches", "won", "lost", "drawn"),
        select(
            x.c.archer_id,
            y.c.archer_id,
            x.c.side,
            m.c.winner,
            n(func.count()),
            n(of_side(m.c.wins_a, m.c.wins_b)),
            n(of_side(m.c.wins_b, m.c.wins_a)),
            n(func.sum(m.c.draws)),
        )
        .select_from(
            x.join(y, and_(y.c.match_id == x.c.match_id, y.c.side != x.c.side)).join(m, m.c.id == x.c.match_id)
        )
        .where(_AB, _RANGE)
        .group_by(x.c.archer_id, y.c.archer_id, x.c.side, m.c.winner),
    )
    arrows = insert(tables.archer_arrows).from_select(
        ("archer_id", "square", "called", "outcome", "arrows", "value"),
        select(t.c.archer_id, r.c.square, r.c.called, r.c.outcome, n(func.count()), n(func.sum(r.c.value)))
        .select_from(_ARROWS)
        .where(_ARROWS_RANGE)
        .group_by(t.c.archer_id, r.c.square, r.c.called, r.c.outcome),
    )
    # A flip takes the square from whoever took it last (a claim or a flip) in that game.
    w = dict(partition_by=(t.c.game_id, r.c.square), order_by=(t.c.number, r.c.number))
    takes = (
        select(
            r.c.outcome,
            t.c.side,
            func.lag(t.c.side).over(**w).label("owner_side"),
            func.lag(t.c.archer_id).over(**w).label("owner"),
        )
        .select_from(_ARROWS)
        .where(_ARROWS_RANGE, r.c.outcome.in_((_lit("claimed"), _lit("flipped"))))
        .subquery("takes")
    )
    claims = insert(tables.archer_claims).from_select(
        ("archer_id", "lost"),
        select(takes.c.owner, n(func.count()))
        .where(takes.c.outcome == _lit("flipped"), takes.c.owner_side != takes.c.side)
        .group_by(takes.c.owner),
    )
    return (results, game_rows, opponents, arrows, claims)


SUMS, TAKEN_BACK = _sums(1), _sums(-1)
SERIES = insert(tables.archer_matches).from_select(
    ("archer_id", "match_id", "started", "arrows", "points"),
    select(
        _T.c.archer_id,
        _G.c.match_id,
        _M.c.started,
        func.count(),
        func.sum(case((_R.c.outcome.in_((_lit("scored"), _lit("claimed"))), _R.c.value), else_=literal_column("0"))),
    )
    .select_from(_ARROWS.join(_M, _M.c.id == _G.c.match_id))
    .where(_ARROWS_RANGE)
    .group_by(_T.c.archer_id, _G.c.match_id, _M.c.started),
)
_SERIES_TAKEN_BACK = delete(tables.archer_matches).where(tables.archer_matches.c.match_id == bindparam("match_id"))


def fill(db, first, last):
    """The figures of the matches with ids first..last, inside the caller's write transaction."""
    for statement in SUMS + (SERIES,):
        sql.run(db, statement, {"first": first, "last": last})


def take_back(db, match_id):
    """Take one match's figures back before its archers change (fill puts them again)."""
    for statement in TAKEN_BACK:
        sql.run(db, statement, {"first": match_id, "last": match_id})
    sql.run(db, _SERIES_TAKEN_BACK, {"match_id": match_id})
