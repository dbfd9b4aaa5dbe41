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

_RANGE = "x.match_id BETWEEN ?1 AND ?2 "
_ARROWS = (
    "FROM arrows r JOIN turns t ON t.id = r.turn_id JOIN games g ON g.id = t.game_id "
    "WHERE g.match_id BETWEEN ?1 AND ?2 "
)
# Each sum's rows for the matches first..last; {sign}: "-" takes them back.
SUMS = (
    "INSERT INTO archer_results (archer_id, side, winner, matches) "
    "SELECT x.archer_id, x.side, m.winner, {sign}count(*) FROM match_archers x JOIN matches m ON m.id = x.match_id "
    "WHERE x.side IN ('A', 'B') AND " + _RANGE + "GROUP BY x.archer_id, x.side, m.winner",
    "INSERT INTO archer_games (archer_id, side, winner, games) "
    "SELECT x.archer_id, x.side, g.winner, {sign}count(*) FROM match_archers x JOIN games g ON g.match_id = x.match_id "
    "WHERE " + _RANGE + "GROUP BY x.archer_id, x.side, g.winner",
    "INSERT INTO archer_opponents (archer_id, opponent_id, side, winner, matches, won, lost, drawn) "
    "SELECT x.archer_id, y.archer_id, x.side, m.winner, {sign}count(*), "
    "{sign}sum(CASE x.side WHEN 'A' THEN m.wins_a ELSE m.wins_b END), "
    "{sign}sum(CASE x.side WHEN 'A' THEN m.wins_b ELSE m.wins_a END), {sign}sum(m.draws) "
    "FROM match_archers x JOIN match_archers y ON y.match_id = x.match_id AND y.side != x.side "
    "JOIN matches m ON m.id = x.match_id WHERE x.side IN ('A', 'B') AND "
    + _RANGE
    + "GROUP BY x.archer_id, y.archer_id, x.side, m.winner",
    "INSERT INTO archer_arrows (archer_id, square, called, outcome, arrows, value) "
    "SELECT t.archer_id, r.square, r.called, r.outcome, {sign}count(*), {sign}sum(r.value) "
    + _ARROWS
    + "GROUP BY t.archer_id, r.square, r.called, r.outcome",
    # A flip takes the square from whoever took it last (a claim or a flip) in that game.
    "INSERT INTO archer_claims (archer_id, lost) SELECT owner, {sign}count(*) FROM ("
    "SELECT r.outcome, t.side, lag(t.side) OVER w AS owner_side, lag(t.archer_id) OVER w AS owner "
    + _ARROWS
    + "AND r.outcome IN ('claimed', 'flipped') "
    "WINDOW w AS (PARTITION BY t.game_id, r.square ORDER BY t.number, r.number)"
    ") AS takes WHERE outcome = 'flipped' AND owner_side != side GROUP BY owner",
)
SERIES = (
    "INSERT INTO archer_matches (archer_id, match_id, started, arrows, points) "
    "SELECT t.archer_id, g.match_id, m.started, count(*), "
    "sum(CASE WHEN r.outcome IN ('scored', 'claimed') THEN r.value ELSE 0 END) "
    + _ARROWS.replace("WHERE", "JOIN matches m ON m.id = g.match_id WHERE")
    + "GROUP BY t.archer_id, g.match_id, m.started"
)


def fill(db, first, last):
    """The figures of the matches with ids first..last, inside the caller's write transaction."""
    for sql in SUMS:
        db.execute(sql.format(sign=""), (first, last))
    db.execute(SERIES, (first, last))


def take_back(db, match_id):
    """Take one match's figures back before its archers change (fill puts them again)."""
    for sql in SUMS:
        db.execute(sql.format(sign="-"), (match_id, match_id))
    db.execute("DELETE FROM archer_matches WHERE match_id = ?", (match_id,))
