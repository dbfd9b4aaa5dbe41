"""What the league's pages read (LeagueDB's standings, archers, an archer's record, matches and
opponents, the report's counts, a club's page: league/db.py), as statements in SQLAlchemy Core
over league/tables.py's tables and the club store's (store/tables.py), each built once (or
once for each of its shapes: a game or all, a season or all) and compiled by store/sql.py for
PostgreSQL. Their tables are aliased as the league's SQL always named them. What varies is a
bound parameter, named where it is made (an IN list an expanding one)."""

import functools

from sqlalchemy import Date, and_, bindparam, case, cast, desc, func, select, union_all

from scorebox.league.keep import ALL, COUNTS, ONE, B, D, G, M, club_of, lit, outcomes
from scorebox.league.tables import (
    TAKEN,
    league_archer_totals,
    league_archers,
    league_club_totals,
    league_clubs,
    league_match_sides,
    league_match_totals,
    league_pushes,
)
from scorebox.store import tables

_C = league_clubs.alias("c")
_K_CLUB = league_club_totals.alias("k")
_K_ARCHER = league_archer_totals.alias("k")
_LA = league_archers.alias("a")
_S = league_match_sides.alias("s")
_O = league_match_sides.alias("o")
_NAMED = tables.archers.alias("s")  # a league archer's name: the club store's archer


def expanding(name):
    """An IN list's bound parameter: a list given as name."""
    return bindparam(name, expanding=True)


def _archer(source):
    """source (holding a, a league archer) joined to their name (s) and club (c)."""
    return source.join(_NAMED, _NAMED.c.id == _LA.c.archer_id).join(_C, _C.c.id == _LA.c.club_id)


def _sums(k):
    """The sums of a kept table's four counts (0 where there are none)."""
    return [func.coalesce(func.sum(k.c[c]), lit(0)) for c in COUNTS]


def _bucket(k, by_game):
    """The conditions on a kept totals table k's season (season) and, by_game, game (game)."""
    return [k.c.season_id == bindparam("season")] + ([k.c.game == bindparam("game")] if by_game else [])


def bucket_args(game, season):
    """_bucket's parameters: a game id or None, a season (a dict of seasons()) or None."""
    return {"season": ALL if season is None else season["id"], "game": game}


@functools.cache
def standings(by_game):
    """Every club's sums (a LEFT JOIN: a club with none too), of a season and, by_game, a game."""
    on = and_(_K_CLUB.c.club_id == _C.c.id, *_bucket(_K_CLUB, by_game))
    return (
        select(_C.c.id, _C.c.name, *_sums(_K_CLUB)).select_from(_C.outerjoin(_K_CLUB, on)).group_by(_C.c.id, _C.c.name)
    )


@functools.cache
def archer_totals(by_game):
    """Every league archer's sums who has any, of a season and, by_game, a game."""
    k = _K_ARCHER
    return (
        select(_LA.c.id, _NAMED.c.name, _C.c.id, _C.c.name, *_sums(k))
        .select_from(_archer(k.join(_LA, _LA.c.id == k.c.archer_id)))
        .where(*_bucket(k, by_game))
        .group_by(_LA.c.id, _NAMED.c.name, _C.c.id, _C.c.name)
    )


_ARCHER = select(_LA.c.id, _NAMED.c.name, _C.c.id, _C.c.name).select_from(_archer(_LA))
ARCHER = _ARCHER.where(_LA.c.id == bindparam("archer"))  # a league archer's id, name, club id, club
ARCHERS = _ARCHER.where(_LA.c.id.in_(expanding("ids")))  # ... of these
# an archer's sums of each game (season: its id, ALL for every match)
RECORD = (
    select(_K_ARCHER.c.game, *_sums(_K_ARCHER))
    .where(_K_ARCHER.c.archer_id == bindparam("archer"), *_bucket(_K_ARCHER, False))
    .group_by(_K_ARCHER.c.game)
)


def _within(s, season):
    """The condition on league_match_sides s's day: within the season's days (from_day,
    to_day), or none."""
    return [s.c.day.between(bindparam("from_day"), bindparam("to_day"))] if season else []


def within_args(season):
    """_within's parameters: a season (a dict of seasons()) or None."""
    return {} if season is None else {"from_day": season["first"], "to_day": season["last"]}


@functools.cache
def archer_matches(of_season, versus):
    """An archer's (archer) n newest kept sides, as the index league_match_sides_by_archer
    gives them: of_season, within from_day..to_day; versus, only against that archer."""
    source = _S
    if versus:
        source = _S.join(
            _O, and_(_O.c.match_id == _S.c.match_id, _O.c.side != _S.c.side, _O.c.archer_id == bindparam("versus"))
        )
    return (
        select(_S.c.match_id, _S.c.side, _S.c.outcome)
        .select_from(source)
        .where(_S.c.archer_id == bindparam("archer"), *_within(_S, of_season))
        .order_by(_S.c.day.desc().nulls_last(), _S.c.match_id.desc())  # league_match_sides_by_archer's order
        .limit(bindparam("n"))
    )


@functools.cache
def opponents(of_season):
    """An archer's (archer) tally against each other archer of their matches (of_season: within
    from_day..to_day)."""
    return (
        select(_O.c.archer_id, *outcomes(_S.c.outcome))
        .select_from(_S.join(_O, and_(_O.c.match_id == _S.c.match_id, _O.c.side != _S.c.side)))
        .where(_S.c.archer_id == bindparam("archer"), *_within(_S, of_season))
        .group_by(_O.c.archer_id)
    )


# the report's count of matches per game (season: its id, ALL for every match)
MATCH_TOTALS = select(league_match_totals.c.game, league_match_totals.c.matches).where(
    league_match_totals.c.season_id == bindparam("season")
)
# the pushes taken and refused
PUSH_COUNTS = select(
    func.count(case((league_pushes.c.status == TAKEN, ONE))), func.count(case((league_pushes.c.status != TAKEN, ONE)))
)
# ... of a season's days (a push by the day it came, in the server's time zone)
PUSH_COUNTS_WITHIN = PUSH_COUNTS.where(
    cast(func.to_timestamp(league_pushes.c.pushed), Date).between(bindparam("from_day"), bindparam("to_day"))
)
# a club's boxes, with their names and their matches' counts
CLUB_BOXES = (
    select(
        B.c.uid,
        D.c.name,
        B.c.claimed,
        select(func.count()).select_from(M).where(M.c.device_id == D.c.id).scalar_subquery(),
    )
    .select_from(B.outerjoin(D, D.c.uid == B.c.uid))
    .where(B.c.club_id == bindparam("club"))
    .order_by(B.c.claimed, B.c.uid)
)


def _club_matches():
    """A club's n newest matches' ids: its sides' rows, newest first, whose match's box is
    none of the club's (away), beside its boxes' (own). Each away row's box looked up as the
    index gives it, against the club's boxes read once (a join was planned as a merge
    reading the matches' whole index)."""
    club, n = bindparam("club"), bindparam("n")
    own = select(M.c.id).select_from(club_of(M)).where(B.c.club_id == club)
    own = own.order_by(M.c.id.desc()).limit(n).subquery("own")
    box = select(M.c.device_id).where(M.c.id == G.c.match_id).scalar_subquery()
    boxes = select(D.c.id).select_from(D.join(B, B.c.uid == D.c.uid)).where(B.c.club_id == club)
    away = (
        select(G.c.match_id.label("id"))
        .where(G.c.club_id == club, box.not_in(boxes))
        .order_by(G.c.match_id.desc())
        .limit(n)
    ).subquery("away")
    return union_all(select(own.c.id), select(away.c.id)).order_by(desc("id")).limit(n)


CLUB_MATCHES = _club_matches()
# a box's club, and the clubs of these boxes (uids)
_BOX_CLUBS = B.join(_C, _C.c.id == B.c.club_id)
BOX_CLUB = select(_C.c.id, _C.c.name).select_from(_BOX_CLUBS).where(B.c.uid == bindparam("uid"))
FILERS = select(B.c.uid, _C.c.id, _C.c.name).select_from(_BOX_CLUBS).where(B.c.uid.in_(expanding("uids")))
