"""What a league keeps as matches are stored (LeagueDB.keep, league/db.py), as statements in
SQLAlchemy Core over league/tables.py's tables (PostgreSQL's, the one database a league runs
on: store/sql.py compiles them): each match's archers as the league's, its sides, the counts
per club and day, and the totals per club and archer, season and game, with the statements
that take a match's counts back when it is filed under other archers or clubs
(LeagueDB.refile). Each is built once; what varies is a bound parameter:

    KEEP, KEEP_AGAIN  first, last: the matches' ids; KEEP_AGAIN also day (the day kept with)
    SEASON            season: its id; from_day, to_day: its days
    TAKE_BACK         match: its id
    CLUBS_TAKE_BACK   first, last: its id (both); day: the day kept with
    SET_CLUBS         match: its id; home, away: its HOME side's club and the other's
"""

from collections import namedtuple

from sqlalchemy import (
    BigInteger,
    Date,
    Text,
    and_,
    bindparam,
    case,
    cast,
    delete,
    func,
    literal_column,
    null,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.dialects.postgresql import insert

from scorebox.league.tables import (
    league_archer_totals,
    league_archers,
    league_boxes,
    league_club_days,
    league_club_totals,
    league_match_clubs,
    league_match_sides,
    league_match_totals,
    league_seasons,
)
from scorebox.store import tables
from scorebox.store.sql import json_text
from scorebox_core import games


def lit(value):
    """A constant of the code's (a side, an outcome) written into the statement, as the SQL
    said it: the same text each run, which a partial index or a GROUP BY can match."""
    return literal_column("'%s'" % value, Text) if isinstance(value, str) else literal_column(str(value))


M = tables.matches.alias("m")
D = tables.devices.alias("d")
X = tables.match_archers.alias("x")
B = league_boxes.alias("b")
G = league_match_clubs.alias("g")
FIRST, LAST = bindparam("first"), bindparam("last")
ONE = lit(1)

# The side that plays for the club whose box holds the match when both sides are that
# club's: each game's first (A, X) (docs/league.md, "Whose win a match is").
HOME = tuple(g.SIDES[0] for g in games.every())
AWAY = tuple(g.SIDES[1] for g in games.every())
HOME_SIDES = tuple(map(lit, HOME))  # as the statements say them: x.side IN ('A', 'X')
_SIDES = HOME_SIDES + tuple(map(lit, AWAY))
# A match's game: its header's, or the registry's first's for a header without one.
GAME = func.coalesce(json_text(M.c.header, "game"), lit(games.GAMES[0][0]))
# The day a match was played: its box's clock (the header's, matches.started) as a date in
# the server's time zone (the store's session's: store/postgres.py); none for a match whose
# box had no clock set, or one no calendar holds.
_DAY = case((and_(M.c.started >= lit(0), M.c.started < lit(253402300800)), cast(func.to_timestamp(M.c.started), Date)))
# The day LeagueDB.refile moves a match's kept counts by: the day they were kept with
# (league_match_sides.day), not the one the session's time zone gives now.
_KEPT_DAY = cast(bindparam("day"), Date)


def club_of(source):
    """A match's box's club (b): source (holding m) joined to its box (d) and the box's
    league_boxes row."""
    return source.join(D, D.c.id == M.c.device_id).join(B, B.c.uid == D.c.uid)


def side_club(source):
    """A side's club: its league_match_clubs row's (g, a match with a guest side), else its
    box's: source (holding x and b) left-joined to g."""
    return source.outerjoin(G, and_(G.c.match_id == X.c.match_id, G.c.side == X.c.side))


CLUB = func.coalesce(G.c.club_id, B.c.club_id)  # a side's club, of side_club's join

# What LeagueDB.keep adds for the matches with ids first..last. A side's archers are its
# club's (side_club); an archer's outcome is W when their side won, L when the other side did,
# D a draw, none without a result. league_club_days is only added to (one batch's rows beside
# another's); the totals are kept per season (ALL: every match) and added to in place.
ALL = 0
COUNTS = ("matches", "wins", "draws", "losses")


def outcomes(outcome):
    """The four counts of rows whose outcome column is outcome: COUNTS' labels."""
    return (
        func.count().label("matches"),
        func.count(case((outcome == lit("W"), ONE))).label("wins"),
        func.count(case((outcome == lit("D"), ONE))).label("draws"),
        func.count(case((outcome == lit("L"), ONE))).label("losses"),
    )


# Each kept day's season, and ALL: the buckets a day's counts are added to.
Z = union_all(
    select(lit(ALL).label("id"), null().label("first_day"), null().label("last_day")),
    select(league_seasons.c.id, league_seasons.c.first_day, league_seasons.c.last_day),
).subquery("z")


def in_buckets(day):
    """The join condition of a row of day (a column) to its buckets z."""
    return or_(Z.c.id == lit(ALL), day.between(Z.c.first_day, Z.c.last_day))


def _views(day):
    """Whose win, draw or loss each match of first..last is (docs/league.md, "Whose win a
    match is"): a row (club_id, game, day, outcome) for its box's club, seen from its HOME
    side, when both sides are one club's; else a row for each side's club, seen from that
    side. day: its day's expression."""
    h = league_match_clubs.alias("h")
    home_club = select(h.c.club_id).where(h.c.match_id == M.c.id, h.c.side.in_(HOME_SIDES)).scalar_subquery()
    outcome = case(
        (M.c.winner == lit("draw"), lit("D")),
        (or_(and_(G.c.side.is_(None), M.c.winner.in_(HOME_SIDES)), M.c.winner == G.c.side), lit("W")),
        (M.c.winner.in_(_SIDES), lit("L")),
    )
    return (
        select(CLUB.label("club_id"), GAME.label("game"), day.label("day"), outcome.label("outcome"))
        .select_from(club_of(M).outerjoin(G, G.c.match_id == M.c.id))
        .where(
            M.c.id.between(FIRST, LAST),
            or_(G.c.side.is_(None), G.c.side.in_(HOME_SIDES), G.c.club_id != home_club),
        )
        .subquery("v")
    )


def _club_counts(day):
    """The counts of those per club, game and day: a table k of club_id, game, day and COUNTS."""
    v = _views(day)
    return (
        select(v.c.club_id, v.c.game, v.c.day, *outcomes(v.c.outcome))
        .group_by(v.c.club_id, v.c.game, v.c.day)
        .subquery("k")
    )


def _club_buckets(day):
    """... added to each day's buckets: a table k of club_id, season_id, game and COUNTS."""
    k = _club_counts(day)
    return (
        select(k.c.club_id, Z.c.id.label("season_id"), k.c.game, *(func.sum(k.c[c]).label(c) for c in COUNTS))
        .select_from(k.join(Z, in_buckets(k.c.day)))
        .group_by(k.c.club_id, Z.c.id, k.c.game)
        .subquery("k")
    )


def _added(table, keys, rows):
    """The statement that adds rows (a select) to a kept totals table, its counts added to
    a row of the same keys already there."""
    columns = [c.name for c in rows.selected_columns]
    # in the keys' order: two clubs pushing at once lock the rows they share in the same
    # order, one waiting for the other, never each for the other
    rows = rows.order_by(*(rows.selected_columns[k] for k in keys))
    statement = insert(table).from_select(columns, rows)
    counts = [c for c in columns if c not in keys]
    return statement.on_conflict_do_update(
        index_elements=keys, set_={c: table.c[c] + statement.excluded[c] for c in counts}
    )


Keep = namedtuple("Keep", "archers sides club_days club_totals match_totals archer_totals")


def _keep(day):
    """keep's statements, each match's day the expression day."""
    sides = X.join(M, M.c.id == X.c.match_id)
    archers = (
        insert(league_archers)
        .from_select(
            ["club_id", "archer_id"],
            select(CLUB, X.c.archer_id)
            .distinct()
            .select_from(side_club(club_of(sides)))
            .where(X.c.match_id.between(FIRST, LAST)),
        )
        .on_conflict_do_nothing()
    )
    a = league_archers.alias("a")
    outcome = case(
        (M.c.winner == X.c.side, lit("W")),
        (M.c.winner == lit("draw"), lit("D")),
        (M.c.winner.is_not(None), lit("L")),
    )
    kept_sides = insert(league_match_sides).from_select(
        ["match_id", "side", "position", "archer_id", "game", "day", "outcome"],
        select(X.c.match_id, X.c.side, X.c.position, a.c.id, GAME, day, outcome)
        .select_from(side_club(club_of(sides)).join(a, and_(a.c.club_id == CLUB, a.c.archer_id == X.c.archer_id)))
        .where(X.c.match_id.between(FIRST, LAST)),
    )
    k = _club_counts(day)
    club_days = insert(league_club_days).from_select([c.name for c in k.c], select(k))
    club_totals = _added(league_club_totals, ["club_id", "season_id", "game"], select(_club_buckets(day)))
    # the report's count: each match once, whatever its clubs (refile leaves it as it is)
    v = (
        select(GAME.label("game"), day.label("day"))
        .select_from(club_of(M))
        .where(M.c.id.between(FIRST, LAST))
        .subquery("v")
    )
    match_totals = _added(
        league_match_totals,
        ["season_id", "game"],
        select(Z.c.id.label("season_id"), v.c.game, func.count().label("matches"))
        .select_from(v.join(Z, in_buckets(v.c.day)))
        .group_by(Z.c.id, v.c.game),
    )
    s = league_match_sides
    archer_totals = _added(
        league_archer_totals,
        ["archer_id", "season_id", "game"],
        select(s.c.archer_id, Z.c.id.label("season_id"), s.c.game, *outcomes(s.c.outcome))
        .select_from(s.join(Z, in_buckets(s.c.day)))
        .where(s.c.match_id.between(FIRST, LAST))
        .group_by(s.c.archer_id, Z.c.id, s.c.game),
    )
    return Keep(archers, kept_sides, club_days, club_totals, match_totals, archer_totals)


KEEP = _keep(_DAY)
KEEP_AGAIN = _keep(_KEPT_DAY)  # a refiled match's, by the day it was kept with


def _season():
    """A new season's totals, from the kept days and sides (season: its id; from_day and
    to_day: its days)."""
    season = bindparam("season")
    within = [bindparam("from_day"), bindparam("to_day")]
    c, s = league_club_days, league_match_sides
    return (
        insert(league_club_totals).from_select(
            ["club_id", "season_id", "game", *COUNTS],
            select(c.c.club_id, season, c.c.game, *(func.sum(c.c[n]) for n in COUNTS))
            .where(c.c.day.between(*within))
            .group_by(c.c.club_id, c.c.game),
        ),
        insert(league_archer_totals).from_select(
            ["archer_id", "season_id", "game", *COUNTS],
            select(s.c.archer_id, season, s.c.game, *outcomes(s.c.outcome))
            .where(s.c.day.between(*within))
            .group_by(s.c.archer_id, s.c.game),
        ),
        insert(league_match_totals).from_select(
            ["season_id", "game", "matches"],
            select(season, s.c.game, func.count(s.c.match_id.distinct()))
            .where(s.c.day.between(*within))
            .group_by(s.c.game),
        ),
    )


SEASON = _season()


def _taken_back(table, keys, rows):
    """The statement that takes from a kept totals table the counts of rows (a subquery k
    of keys and COUNTS), from its rows of the same keys."""
    return (
        update(table)
        .values({c: table.c[c] - rows.c[c] for c in COUNTS})
        .where(*(table.c[key] == rows.c[key] for key in keys))
    )


# A match's archers' totals taken back (match: its id), before it is filed under other
# archers (LeagueDB.refile), as keep added them.
_s = league_match_sides
TAKE_BACK = _taken_back(
    league_archer_totals,
    ("archer_id", "season_id", "game"),
    select(_s.c.archer_id, Z.c.id.label("season_id"), _s.c.game, *outcomes(_s.c.outcome))
    .select_from(_s.join(Z, in_buckets(_s.c.day)))
    .where(_s.c.match_id == bindparam("match"))
    .group_by(_s.c.archer_id, Z.c.id, _s.c.game)
    .subquery("k"),
)


def _clubs_take_back():
    """A match's clubs' counts taken back (first, last: its id; day: the day they were kept
    by), before its sides are filed under other clubs (LeagueDB.refile): a row of that day
    taking the counts away, the totals less them."""
    k = _club_counts(_KEPT_DAY)
    return (
        insert(league_club_days).from_select(
            ["club_id", "game", "day", *COUNTS], select(k.c.club_id, k.c.game, k.c.day, *(-k.c[c] for c in COUNTS))
        ),
        _taken_back(league_club_totals, ("club_id", "season_id", "game"), _club_buckets(_KEPT_DAY)),
    )


CLUBS_TAKE_BACK = _clubs_take_back()


def _set_clubs():
    """A match's sides' clubs (match: its id; home, away: its HOME side's club and the
    other's): a row a side unless both are its box's club's."""
    match, home, away = bindparam("match"), cast(bindparam("home"), BigInteger), cast(bindparam("away"), BigInteger)
    return (
        delete(league_match_clubs).where(league_match_clubs.c.match_id == match),
        insert(league_match_clubs).from_select(
            ["match_id", "side", "club_id"],
            select(X.c.match_id, X.c.side, case((X.c.side.in_(HOME_SIDES), home), else_=away))
            .distinct()
            .select_from(club_of(X.join(M, M.c.id == X.c.match_id)))
            .where(X.c.match_id == match, ~and_(B.c.club_id == home, B.c.club_id == away)),
        ),
    )


SET_CLUBS = _set_clubs()
KEPT = (league_archer_totals, league_club_totals, league_club_days, league_match_sides, league_match_totals)
