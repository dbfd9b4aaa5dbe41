"""What a league keeps as matches are stored (LeagueDB.keep, league/db.py), as SQL: each
match's archers as the league's, its sides, the counts per club and day, and the totals per
club and archer, season and game, with the statements that take a match's counts back when
it is filed under other archers or clubs (LeagueDB.refile)."""

from scorebox.store.queries import GAME_SQL
from scorebox_core import games

# The side that plays for the club whose box holds the match when both sides are that
# club's: each game's first (A, X) (docs/league.md, "Whose win a match is").
HOME = tuple(g.SIDES[0] for g in games.every())
AWAY = tuple(g.SIDES[1] for g in games.every())
# The day a match was played: its box's clock (the header's, matches.started) as a date in
# the server's time zone (the store's session's: store/postgres.py); none for a match whose
# box had no clock set, or one no calendar holds.
_DAY = "CASE WHEN m.started >= 0 AND m.started < 253402300800 THEN CAST(to_timestamp(m.started) AS DATE) END"
CLUB_OF = "JOIN devices d ON d.id = m.device_id JOIN league_boxes b ON b.uid = d.uid "  # a match's box's club
# A side's club: its league_match_clubs row's (a match with a guest side), else its box's.
SIDE_CLUB = "LEFT JOIN league_match_clubs g ON g.match_id = x.match_id AND g.side = x.side "
# The day LeagueDB.refile moves a match's kept counts by (?3): the day they were kept with
# (league_match_sides.day), not the one the session's time zone gives now.
_KEPT_DAY = "CAST(?3 AS DATE)"
# What LeagueDB.keep adds for the matches with ids ?1..?2. A side's archers are its club's
# (SIDE_CLUB); an archer's outcome is W when their side won, L when the other side did, D a
# draw, none without a result. league_club_days is only added to (one batch's rows beside
# another's); the totals are kept per season (ALL: every match) and added to in place.
ALL = 0
HOME_SIDES = "(%s)" % ", ".join("'%s'" % side for side in HOME)
_SIDES = "(%s)" % ", ".join("'%s'" % side for side in HOME + AWAY)
COUNTS = "matches, wins, draws, losses"
OUTCOMES = (
    "count(*), count(CASE WHEN outcome = 'W' THEN 1 END), count(CASE WHEN outcome = 'D' THEN 1 END), "
    "count(CASE WHEN outcome = 'L' THEN 1 END)"
)
_ADDED = " DO UPDATE SET " + ", ".join("%s = t.%s + EXCLUDED.%s" % (c, c, c) for c in COUNTS.split(", "))
# Each kept day's season, and ALL: the buckets a day's counts are added to.
BUCKETS = (
    "JOIN (SELECT %d AS id, NULL AS first_day, NULL AS last_day UNION ALL "
    "SELECT id, first_day, last_day FROM league_seasons) z ON z.id = %d OR day BETWEEN z.first_day AND z.last_day "
    % (ALL, ALL)
)


def _views(day):
    """Whose win, draw or loss each match of ?1..?2 is (docs/league.md, "Whose win a match
    is"): a row (club, game, day, outcome) for its box's club, seen from its HOME side, when
    both sides are one club's; else a row for each side's club, seen from that side. day:
    the SQL of its day."""
    return (
        "SELECT coalesce(g.club_id, b.club_id) AS club_id, " + GAME_SQL + " AS game, " + day + " AS day, "
        "CASE WHEN m.winner = 'draw' THEN 'D' WHEN g.side IS NULL AND m.winner IN "
        + HOME_SIDES
        + " OR m.winner = g.side "
        "THEN 'W' WHEN m.winner IN "
        + _SIDES
        + " THEN 'L' END AS outcome FROM matches m "
        + CLUB_OF
        + "LEFT JOIN league_match_clubs g ON g.match_id = m.id WHERE m.id BETWEEN ?1 AND ?2 "
        "AND (g.side IS NULL OR g.side IN " + HOME_SIDES + " OR g.club_id <> "
        "(SELECT h.club_id FROM league_match_clubs h WHERE h.match_id = m.id AND h.side IN " + HOME_SIDES + "))"
    )


def _club_counts(day):
    """The counts of those per club, game and day: a table k of club_id, game, day and COUNTS."""
    return (
        "(SELECT club_id, game, day, " + OUTCOMES + " FROM (" + _views(day) + ") AS v GROUP BY 1, 2, 3) "
        "AS k (club_id, game, day, " + COUNTS + ") "
    )


def _club_buckets(day):
    """... added to each day's buckets."""
    return (
        "(SELECT club_id, z.id, game, sum(matches), sum(wins), sum(draws), sum(losses) FROM "
        + _club_counts(day)
        + BUCKETS
        + "GROUP BY 1, 2, 3) AS k (club_id, season_id, game, "
        + COUNTS
        + ") "
    )


def _keep(day):
    """keep's statements, each match's day the SQL day."""
    return (
        "INSERT INTO league_archers (club_id, archer_id) SELECT DISTINCT coalesce(g.club_id, b.club_id), x.archer_id "
        "FROM match_archers x JOIN matches m ON m.id = x.match_id "
        + CLUB_OF
        + SIDE_CLUB
        + "WHERE x.match_id BETWEEN ?1 AND ?2 ON CONFLICT DO NOTHING",
        "INSERT INTO league_match_sides (match_id, side, position, archer_id, game, day, outcome) "
        "SELECT x.match_id, x.side, x.position, a.id, " + GAME_SQL + ", " + day + ", "
        "CASE WHEN m.winner = x.side THEN 'W' WHEN m.winner = 'draw' THEN 'D' WHEN m.winner IS NOT NULL THEN 'L' END "
        "FROM match_archers x JOIN matches m ON m.id = x.match_id "
        + CLUB_OF
        + SIDE_CLUB
        + "JOIN league_archers a ON a.club_id = coalesce(g.club_id, b.club_id) AND a.archer_id = x.archer_id "
        "WHERE x.match_id BETWEEN ?1 AND ?2",
        "INSERT INTO league_club_days (club_id, game, day, " + COUNTS + ") SELECT * FROM " + _club_counts(day),
        # the totals: the batch's counts per club, game and day (as above) added to each day's buckets
        "INSERT INTO league_club_totals AS t (club_id, season_id, game, "
        + COUNTS
        + ") SELECT * FROM "
        + _club_buckets(day)
        + "ON CONFLICT (club_id, season_id, game)"
        + _ADDED,
        # the report's count: each match once, whatever its clubs (refile leaves it as it is)
        "INSERT INTO league_match_totals AS t (season_id, game, matches) SELECT z.id, game, count(*) FROM "
        "(SELECT " + GAME_SQL + " AS game, " + day + " AS day FROM matches m " + CLUB_OF + "WHERE m.id BETWEEN ?1 "
        "AND ?2) AS v " + BUCKETS + "GROUP BY 1, 2 ON CONFLICT (season_id, game) DO UPDATE SET matches = "
        "t.matches + EXCLUDED.matches",
        "INSERT INTO league_archer_totals AS t (archer_id, season_id, game, " + COUNTS + ") "
        "SELECT archer_id, z.id, game, "
        + OUTCOMES
        + " FROM league_match_sides "
        + BUCKETS
        + "WHERE match_id BETWEEN ?1 AND ?2 GROUP BY 1, 2, 3 ON CONFLICT (archer_id, season_id, game)"
        + _ADDED,
    )


KEEP = _keep(_DAY)
KEEP_AGAIN = _keep(_KEPT_DAY)  # a refiled match's, by the day it was kept with
# A new season's totals, from the kept days and sides (?1: its id, ?2 and ?3 its days).
SEASON = (
    "INSERT INTO league_club_totals (club_id, season_id, game, " + COUNTS + ") "
    "SELECT club_id, ?1, game, sum(matches), sum(wins), sum(draws), sum(losses) FROM league_club_days "
    "WHERE day BETWEEN ?2 AND ?3 GROUP BY 1, 2, 3",
    "INSERT INTO league_archer_totals (archer_id, season_id, game, " + COUNTS + ") "
    "SELECT archer_id, ?1, game, " + OUTCOMES + " FROM league_match_sides WHERE day BETWEEN ?2 AND ?3 "
    "GROUP BY 1, 2, 3",
    "INSERT INTO league_match_totals (season_id, game, matches) SELECT ?1, game, count(DISTINCT match_id) "
    "FROM league_match_sides WHERE day BETWEEN ?2 AND ?3 GROUP BY 1, 2",
)
# A match's archers' totals taken back (?1: its id), before it is filed under other archers
# (LeagueDB.refile), as keep added them.
TAKE_BACK = (
    "UPDATE league_archer_totals AS t SET "
    + ", ".join("%s = t.%s - k.%s" % (c, c, c) for c in COUNTS.split(", "))
    + " FROM (SELECT archer_id, z.id, game, "
    + OUTCOMES
    + " FROM league_match_sides "
    + BUCKETS
    + "WHERE match_id = ?1 GROUP BY 1, 2, 3) AS k (archer_id, season_id, game, "
    + COUNTS
    + ") WHERE t.archer_id = k.archer_id AND t.season_id = k.season_id AND t.game = k.game"
)
# A match's clubs' counts taken back (?1, ?2: its id; ?3: the day they were kept by), before
# its sides are filed under other clubs (LeagueDB.refile): a row of that day taking the
# counts away, the totals less them.
CLUBS_TAKE_BACK = (
    "INSERT INTO league_club_days (club_id, game, day, "
    + COUNTS
    + ") SELECT club_id, game, day, "
    + ", ".join("-" + c for c in COUNTS.split(", "))
    + " FROM "
    + _club_counts(_KEPT_DAY),
    "UPDATE league_club_totals AS t SET "
    + ", ".join("%s = t.%s - k.%s" % (c, c, c) for c in COUNTS.split(", "))
    + " FROM "
    + _club_buckets(_KEPT_DAY)
    + "WHERE t.club_id = k.club_id AND t.season_id = k.season_id AND t.game = k.game",
)
# A match's sides' clubs (?1: its id; ?2, ?3: its HOME side's club and the other's): a row a
# side unless both are its box's club's.
SET_CLUBS = (
    "DELETE FROM league_match_clubs WHERE match_id = ?1",
    "INSERT INTO league_match_clubs (match_id, side, club_id) SELECT DISTINCT x.match_id, x.side, "
    "CASE WHEN x.side IN " + HOME_SIDES + " THEN CAST(?2 AS BIGINT) ELSE CAST(?3 AS BIGINT) END "
    "FROM match_archers x JOIN matches m ON m.id = x.match_id "
    + CLUB_OF
    + "WHERE x.match_id = ?1 AND NOT (b.club_id = ?2 AND b.club_id = ?3)",
)
KEPT = ("league_archer_totals", "league_club_totals", "league_club_days", "league_match_sides", "league_match_totals")
