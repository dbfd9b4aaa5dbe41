"""The archers' figures kept as matches are stored (issue 24 item 6): an archer's statistics
read their own few thousand rows here, not the store's millions of arrows.

Filled for a range of match ids (store ids are given in order: a batch of new matches is one
range) by Rows.write, by migration 6 for the matches stored before it (schema.py), and for
one match again when its archers are named (rosterdb.py's name_match: `take_back` first):
- match_results: a match's result, narrow (a matches row carries its log);
- archer_matches: per archer and match, the arrows they shot, their points (TTB-7), and the
  claims of theirs the other side flipped later in the game (TTB-8), on a row of its own;
- archer_arrows: per archer, square, called and outcome, the arrows and the sum of their
  values. Rows are only added: a match named again adds its old ones negated, so an archer's
  figures are the sums of their rows.
"""

_ARROWS = (
    "FROM arrows r JOIN turns t ON t.id = r.turn_id JOIN games g ON g.id = t.game_id "
    "JOIN matches m ON m.id = g.match_id WHERE g.match_id BETWEEN ?1 AND ?2 "
)
FILL = (
    "INSERT INTO match_results (match_id, started, winner, wins_a, wins_b, draws) "
    "SELECT id, started, winner, wins_a, wins_b, draws FROM matches WHERE id BETWEEN ?1 AND ?2",
    "INSERT INTO archer_matches (archer_id, match_id, started, arrows, points, claims_lost) "
    "SELECT t.archer_id, m.id, m.started, count(*), "
    "sum(CASE WHEN r.outcome IN ('scored', 'claimed') THEN r.value ELSE 0 END), 0 "
    + _ARROWS
    + "GROUP BY t.archer_id, m.id",
    # A flip takes the square from whoever took it last (a claim or a flip) in that game.
    "INSERT INTO archer_matches (archer_id, match_id, started, arrows, points, claims_lost) "
    "SELECT owner, match_id, started, 0, 0, count(*) FROM (SELECT m.id AS match_id, m.started, r.outcome, t.side, "
    "lag(t.side) OVER w AS owner_side, lag(t.archer_id) OVER w AS owner "
    + _ARROWS
    + "AND r.outcome IN ('claimed', 'flipped') "
    "WINDOW w AS (PARTITION BY t.game_id, r.square ORDER BY t.number, r.number)"
    ") AS takes WHERE outcome = 'flipped' AND owner_side != side GROUP BY owner, match_id, started",
)
_SQUARES = (
    "INSERT INTO archer_arrows (archer_id, square, called, outcome, arrows, value) "
    "SELECT t.archer_id, r.square, r.called, r.outcome, %s count(*), %s sum(r.value) "
    + _ARROWS
    + "GROUP BY t.archer_id, r.square, r.called, r.outcome"
)


def fill(db, first, last):
    """The figures of the matches with ids first..last, inside the caller's write transaction."""
    for sql in FILL + (_SQUARES % ("", ""),):
        db.execute(sql, (first, last))


def take_back(db, match_id):
    """Take one match's figures per archer back before its archers change (fill puts them again)."""
    db.execute("DELETE FROM archer_matches WHERE match_id = ?", (match_id,))
    db.execute("DELETE FROM match_results WHERE match_id = ?", (match_id,))
    db.execute(_SQUARES % ("-", "-"), (match_id, match_id))
