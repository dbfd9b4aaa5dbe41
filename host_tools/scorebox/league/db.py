"""A league on its PostgreSQL store (docs/league.md): its accounts (the clubs and their
tokens' hashes, which club each box belongs to, the log of every push), its seasons, and
what its pages read (the standings, the archers across clubs, a club's page), kept as
matches are stored. Its tables are league/migrations', made here under the store's write lock
(Store.upgrade) so that two commands never make them at once, declared for the statements in
league/tables.py; what is kept is league/keep.py's statements. It works through the Store's
connection and transactions (store/sql.py's run), and is told of a push's new matches by
add_checked's on_stored (keep)."""

import os
import time

from sqlalchemy import bindparam, delete, exists, func, select
from sqlalchemy.dialects.postgresql import insert

from scorebox.league import reads
from scorebox.league.keep import (
    CLUB,
    CLUBS_TAKE_BACK,
    COUNTS,
    FIRST,
    HOME_SIDES,
    KEEP,
    KEEP_AGAIN,
    KEPT,
    LAST,
    SEASON,
    SET_CLUBS,
    TAKE_BACK,
    D,
    M,
    X,
    club_of,
    lit,
    side_club,
)
from scorebox.league.tables import (
    TAKEN,
    league_archer_totals,
    league_archers,
    league_boxes,
    league_clubs,
    league_match_sides,
    league_pushes,
    league_seasons,
)
from scorebox.store import tables
from scorebox.store.errors import StoreError
from scorebox.store.migrate import Schema
from scorebox.store.queries import listed
from scorebox.store.sql import run

# The league's tables (league/migrations), beside the club store's on its database.
LEAGUE = Schema(
    "league", os.path.join(os.path.dirname(os.path.abspath(__file__)), "migrations"), "league_version", "league_1_0"
)

# The standings' points rule (docs/league.md): 2 a win, 1 a draw, 0 a loss.
WIN_POINTS, DRAW_POINTS = 2, 1

# The statements of keep, refile and the accounts below, each built once over league/tables.py's
# tables (and the club store's, store/tables.py), aliased as the league's SQL always named them;
# store/sql.py compiles each once for PostgreSQL. What varies is a bound parameter. What the
# pages read is league/reads.py's.
_C = league_clubs.alias("c")
_P = league_pushes.alias("p")
_in = reads.expanding

_BATCH = select(M.c.id, D.c.uid, M.c.number).select_from(M.join(D, D.c.id == M.c.device_id))
_BATCH = _BATCH.where(M.c.id.between(FIRST, LAST))
_A = tables.archers.alias("a")
_NAMES = (
    select(M.c.number, M.c.id, X.c.side.in_(HOME_SIDES), _A.c.name, CLUB)
    .select_from(side_club(club_of(M).join(X, X.c.match_id == M.c.id).join(_A, _A.c.id == X.c.archer_id)))
    .where(D.c.uid == bindparam("uid"), M.c.number.in_(_in("numbers")))
    .order_by(M.c.number, X.c.position)
)
_KEPT_SIDES = select(league_match_sides.c.archer_id, league_match_sides.c.day).where(
    league_match_sides.c.match_id == bindparam("match")
)
_UNKEEP = delete(league_match_sides).where(league_match_sides.c.match_id == bindparam("match"))
_NO_MATCHES = delete(league_archer_totals).where(
    league_archer_totals.c.matches == lit(0), league_archer_totals.c.archer_id.in_(_in("ids"))
)
# A league archer left with no match and no totals is no league archer any more.
_UNUSED = delete(league_archers).where(
    league_archers.c.id.in_(_in("ids")),
    ~exists().where(league_match_sides.c.archer_id == league_archers.c.id),
    ~exists().where(league_archer_totals.c.archer_id == league_archers.c.id),
)
_EMPTY = {table: delete(table) for table in KEPT}
_LAST_MATCH = select(func.coalesce(func.max(tables.matches.c.id), lit(0)))

_CLUB_NAMED = select(lit(1)).where(league_clubs.c.name == bindparam("name"))
# inline: no RETURNING of the new id besides (nor a bound one), nobody reads it
_ADD_CLUB = insert(league_clubs).values({c: bindparam(c) for c in ("name", "token_id", "token_hash", "added")}).inline()
_CLUB_BY_TOKEN = select(league_clubs.c.id, league_clubs.c.name, league_clubs.c.token_hash).where(
    league_clubs.c.token_id == bindparam("token_id")
)
_CLUBS = select(league_clubs.c.id, league_clubs.c.name, league_clubs.c.added).order_by(league_clubs.c.id)
_CLUB = select(league_clubs.c.id, league_clubs.c.name, league_clubs.c.added).where(
    league_clubs.c.id == bindparam("club")
)

_BOX_OWNERS = select(league_boxes.c.uid, league_boxes.c.club_id).where(league_boxes.c.uid.in_(_in("uids")))
_CLAIM = insert(league_boxes).values({c: bindparam(c) for c in ("uid", "club_id", "claimed")}).on_conflict_do_nothing()
_PUSH_SEEN = select(lit(1)).where(
    league_pushes.c.club_id == bindparam("club_id"),
    league_pushes.c.push_id == bindparam("push_id"),
    league_pushes.c.status == TAKEN,
)
_PUSH_KEYS = ("club_id", "push_id", "pushed", "remote", "sent", "stored", "held", "status", "outcome")
# a club's push taken once: the partial unique index league_pushes_once
_LOG_PUSH = (
    insert(league_pushes)
    .values({c: bindparam(c) for c in _PUSH_KEYS})
    .inline()
    .on_conflict_do_nothing(index_elements=["club_id", "push_id"], index_where=league_pushes.c.status == TAKEN)
)
_PUSHES = (
    select(_C.c.name, *(_P.c[c] for c in _PUSH_KEYS[1:]))
    .select_from(_P.outerjoin(_C, _C.c.id == _P.c.club_id))
    .order_by(_P.c.id)
)
_CLUB_PUSH_KEYS = ("pushed", "sent", "stored", "held", "status", "outcome")
_CLUB_PUSHES = (
    select(*(league_pushes.c[c] for c in _CLUB_PUSH_KEYS))
    .where(league_pushes.c.club_id == bindparam("club"))
    .order_by(league_pushes.c.id.desc())
    .limit(bindparam("n"))
)

_SEASON_NAMED = select(lit(1)).where(league_seasons.c.name == bindparam("name"))
_SEASON_OVERLAP = (
    select(league_seasons.c.name, league_seasons.c.first_day, league_seasons.c.last_day)
    .where(league_seasons.c.first_day <= bindparam("last"), league_seasons.c.last_day >= bindparam("first"))
    .order_by(league_seasons.c.first_day)
)
_ADD_SEASON = (
    insert(league_seasons)
    .values({c: bindparam(c) for c in ("name", "first_day", "last_day", "added")})
    .returning(league_seasons.c.id)
)
_SEASONS = select(
    league_seasons.c.id, league_seasons.c.name, league_seasons.c.first_day, league_seasons.c.last_day
).order_by(league_seasons.c.first_day)


class LeagueDB:
    """The league's tables on a PostgreSQL Store (store/postgres.py), through its connection
    and write transactions (Store.transaction)."""

    def __init__(self, store):
        if not hasattr(store.db, "script"):
            raise StoreError(
                "%s: a league's server runs on a PostgreSQL store: give --db postgresql://..." % store.path
            )
        self.store = store
        self.db = store.db
        store.upgrade(LEAGUE)

    # --- what is kept as matches are stored ---------------------------------------------------
    def keep(self, first, last, sides_clubs=None):
        """The league's archers, their sides, the counts per club, game and day, the totals
        per club and archer, season and game, and the report's count of matches per season
        and game (league_match_totals) of the matches with ids first..last, inside the
        caller's write transaction (a push's add_checked calls it for each batch: its
        on_stored). A match of a box no club has claimed is not the league's: nothing is kept
        of it. A match of sides_clubs, {(box uid, number): [the club id of its first side, of
        the other]}, is filed under those clubs first, so that its archers are kept as their
        clubs' from the start."""
        batch = {"first": first, "last": last}
        if sides_clubs:
            for mid, uid, number in run(self.db, _BATCH, batch).fetchall():
                clubs = sides_clubs.get((uid, number))
                if clubs is not None:
                    run(self.db, SET_CLUBS[1], {"match": mid, "home": clubs[0], "away": clubs[1]})
        for statement in KEEP:
            run(self.db, statement, batch)

    def keep_pushed(self, ranges, sides_clubs=None):
        """keep for each range (first, last) of a push's new matches, at the end of its write
        transaction: the league's totals are rows every push updates, kept by one push at a
        time from here to the transaction's end (another club's push stores its matches
        meanwhile, and keeps its totals after), so that two pushes never wait for each
        other's rows."""
        self.db.lock_totals()
        for first, last in ranges:
            self.keep(first, last, sides_clubs)

    def names(self, uid, numbers):
        """{number: (match id, [side A's names, side B's], [side A's club id, side B's])} of
        the matches of numbers the league holds from box uid, named as the league files them
        (each game's first side first); a side's club is its box's club's unless the push
        named another (league_match_clubs)."""
        numbers = sorted(set(numbers))
        if not numbers:
            return {}
        out = {}
        for number, mid, home, name, club in run(self.db, _NAMES, {"uid": uid, "numbers": numbers}):
            got = out.setdefault(number, (mid, [[], []], [None, None]))
            got[1][0 if home else 1].append(name)
            got[2][0 if home else 1] = club
        return out

    def refile(self, match_id, names=None, clubs=None):
        """File a held match under other archers or other clubs, inside the caller's write
        transaction. names: side A's and side B's as the club's store names it now (None: as
        they are), set as Store.name_match sets them (its turns and figures too); clubs: the
        club ids of its first side and its other (None: as they are). What keep kept of it is
        moved with it, by the day it was kept with (whatever the session's time zone now): its
        sides and its archers' totals (every season's), and, when its clubs change, its clubs'
        counts (a day's row taking them back, the totals less them). A league archer it leaves
        with no match is no league archer any more."""
        kept = run(self.db, _KEPT_SIDES, {"match": match_id}).fetchall()
        if not kept:  # a match of a box no club claimed: nothing kept of it
            if names is not None:
                self.store.name_match(match_id, names[0] + names[1])
            return
        old, day = sorted({r[0] for r in kept}), kept[0][1]
        args = {"first": match_id, "last": match_id, "day": day, "match": match_id, "ids": old}
        run(self.db, TAKE_BACK, args)
        if clubs is not None:
            for statement in CLUBS_TAKE_BACK:
                run(self.db, statement, args)
        run(self.db, _UNKEEP, args)
        if clubs is not None:
            args.update(home=clubs[0], away=clubs[1])
            for statement in SET_CLUBS:
                run(self.db, statement, args)
            for statement in (KEEP_AGAIN.club_days, KEEP_AGAIN.club_totals):  # its clubs' counts, as they are now
                run(self.db, statement, args)
        if names is not None:
            self.store.name_match(match_id, names[0] + names[1])
        run(self.db, _NO_MATCHES, args)
        for statement in (KEEP_AGAIN.archers, KEEP_AGAIN.sides, KEEP_AGAIN.archer_totals):
            run(self.db, statement, args)
        run(self.db, _UNUSED, args)

    def keep_all(self):
        """What keep keeps, made again from every stored match, in a write transaction of its
        own: for a league whose matches were stored another way (tests/support/leaguegen.py's
        bulk load). The league's archers keep their ids (their pages' addresses)."""
        with self.store.transaction():
            for table in KEPT:
                run(self.db, _EMPTY[table])
            last = run(self.db, _LAST_MATCH).fetchone()[0]
            self.keep(0, last)

    # --- clubs ---------------------------------------------------------------------------------
    def add_club(self, name, token_id, token_hash):
        with self.store.transaction():
            if run(self.db, _CLUB_NAMED, {"name": name}).fetchone():
                raise StoreError("the league has a club named %s already" % name)
            club = {"name": name, "token_id": token_id, "token_hash": token_hash, "added": time.time()}
            run(self.db, _ADD_CLUB, club)

    def club_by_token(self, token_id):
        """(club id, name, token hash) of the club whose token has this public part, or None."""
        return run(self.db, _CLUB_BY_TOKEN, {"token_id": token_id}).fetchone()

    def clubs(self):
        return [{"id": i, "name": n, "added": a} for i, n, a in run(self.db, _CLUBS)]

    # --- boxes ---------------------------------------------------------------------------------
    def box_owners(self, uids):
        """{uid: club id} of those of uids that a club has claimed."""
        uids = sorted(set(uids))
        if not uids:
            return {}
        return dict(run(self.db, _BOX_OWNERS, {"uids": uids}).fetchall())

    def claim_boxes(self, club_id, uids):
        """Make the boxes of uids that no club has yet club_id's; returns {uid: owner} after,
        read under the write lock (another club may have claimed one first)."""

        with self.store.transaction():
            for uid in sorted(set(uids)):
                run(self.db, _CLAIM, {"uid": uid, "club_id": club_id, "claimed": time.time()})
            return self.box_owners(uids)

    # --- the pushes' log ------------------------------------------------------------------------
    def push_seen(self, club_id, push_id):
        """Whether club_id's push push_id was taken before (a refused one may come again)."""
        return run(self.db, _PUSH_SEEN, {"club_id": club_id, "push_id": push_id}).fetchone() is not None

    def log_push(self, club_id, push_id, remote, sent, stored, held, status, outcome):
        """Log one push, refused ones too. False when this club's push push_id was taken
        already (a replay that came in at the same moment as the first)."""
        values = (club_id, push_id, time.time(), remote, sent, stored, held, status, outcome)
        return run(self.db, _LOG_PUSH, dict(zip(_PUSH_KEYS, values))).rowcount == 1

    def pushes(self):
        """The log, oldest first: dicts of club (its name, None: no club's token), push_id, pushed,
        remote, sent, stored, held, status, outcome."""
        keys = ("club",) + _PUSH_KEYS[1:]
        return [dict(zip(keys, r)) for r in run(self.db, _PUSHES)]

    # --- the league's pages (league/pages.py) --------------------------------------------------
    def standings(self, game=None, season=None):
        """Every club's line, best first: dicts of id, name, matches, wins, draws, losses,
        points. A match counts for its sides' clubs (docs/league.md, "Whose win a match is"):
        a match between two clubs for both, its side's win the other's loss, a draw both's; a
        match of one club's two sides once, for that club, its win when its HOME side won, its
        loss when the other did; a match with no result yet counts in matches only. game: one
        game's matches only (a game id); season: one season's (a dict of seasons()). Read
        from the totals kept per club, season and game (keep), not from the matches."""
        rows = run(self.db, reads.standings(game is not None), reads.bucket_args(game, season))
        return _ranked(dict(zip(("id", "name"), r[:2]), **_tally(r[2:])) for r in rows)

    # --- seasons ---------------------------------------------------------------------------------
    def add_season(self, name, first, last):
        """A season of the days first..last (dates), its totals made from what is kept of the
        matches played in its days; refused when its name is taken or its days overlap
        another's (a match falls in one season at most)."""

        with self.store.transaction():
            if run(self.db, _SEASON_NAMED, {"name": name}).fetchone():
                raise StoreError("the league has a season named %s already" % name)
            other = run(self.db, _SEASON_OVERLAP, {"first": first, "last": last}).fetchone()
            if other:
                raise StoreError(
                    "season %s (%s to %s) has some of these days: seasons do not overlap"
                    % (other[0], other[1], other[2])
                )
            season = {"name": name, "first_day": first, "last_day": last, "added": time.time()}
            sid = run(self.db, _ADD_SEASON, season).fetchone()[0]
            for statement in SEASON:  # its matches pushed before it was added
                run(self.db, statement, {"season": sid, "from_day": first, "to_day": last})

    def seasons(self):
        """The seasons, first first: dicts of id, name, first, last (dates)."""
        return [{"id": i, "name": n, "first": f, "last": la} for i, n, f, la in run(self.db, _SEASONS)]

    # --- archers across clubs ------------------------------------------------------------------
    def archers(self, game=None, season=None):
        """Every league archer who played (in the season, the game), best first as the
        standings: dicts of id, name, club_id, club, matches, wins, draws, losses, points."""
        rows = run(self.db, reads.archer_totals(game is not None), reads.bucket_args(game, season))
        keys = ("id", "name", "club_id", "club")
        return _ranked(dict(zip(keys, r[:4]), **_tally(r[4:])) for r in rows)

    def archer(self, archer_id):
        """{id, name, club_id, club} of a league archer, or None."""
        row = run(self.db, reads.ARCHER, {"archer": archer_id}).fetchone()
        return row and dict(zip(("id", "name", "club_id", "club"), row))

    def record(self, archer_id, season=None):
        """An archer's record, {game id: tally}, and "all": their tally of every game; a tally
        is a dict of matches, wins, draws, losses, points. Read from their kept totals."""
        rows = run(self.db, reads.RECORD, dict(reads.bucket_args(None, season), archer=archer_id))
        out = {g: _tally(r) for g, *r in rows}
        out["all"] = _tally([sum(t[k] for t in out.values()) for k in _TALLY_KEYS])
        return out

    def archer_matches(self, archer_id, season=None, versus=None, n=100):
        """An archer's n newest matches (by the day played, then as stored), as club_matches
        gives them, each with their side and outcome (W, D, L or None). versus: only those
        against that league archer."""
        args = dict(reads.within_args(season), archer=archer_id, versus=versus, n=n)
        theirs = {}
        for mid, side, outcome in run(self.db, reads.archer_matches(season is not None, versus is not None), args):
            theirs.setdefault(mid, (side, outcome))  # one line a match, on a side they shot twice on
        rows = {m["id"]: m for m in self._list(list(theirs))}
        return [dict(rows[mid], side=side, outcome=outcome) for mid, (side, outcome) in theirs.items()]

    def opponents(self, archer_id, season=None):
        """The league archers a league archer shot against, most matches first: dicts of id,
        name, club_id, club and the tally of the archer's matches against them."""
        rows = run(self.db, reads.opponents(season is not None), dict(reads.within_args(season), archer=archer_id))
        tallies = {r[0]: _tally(r[1:]) for r in rows}
        names = self._archers(list(tallies))
        out = [dict(names[i], **t) for i, t in tallies.items()]
        out.sort(key=lambda r: (-r["matches"], r["name"].casefold(), r["club"].casefold()))
        return out

    def _archers(self, ids):
        """{id: {id, name, club_id, club}} of these league archers."""
        rows = run(self.db, reads.ARCHERS, {"ids": ids})
        return {r[0]: dict(zip(("id", "name", "club_id", "club"), r)) for r in rows}

    # --- the league's report (league/pages.py) -----------------------------------------------
    def counts(self, season=None):
        """{matches: per game id, pushes: taken, refused: pushes refused} of the season (a
        push by the day it came, in the server's time zone), or of all."""
        # kept per season and game (keep), a match between two clubs once
        matches = dict(run(self.db, reads.MATCH_TOTALS, reads.bucket_args(None, season)).fetchall())
        pushes = reads.PUSH_COUNTS if season is None else reads.PUSH_COUNTS_WITHIN
        taken, refused = run(self.db, pushes, reads.within_args(season)).fetchone()
        return {"matches": matches, "pushes": taken, "refused": refused}

    def club(self, club_id):
        """{id, name, added} of a club, or None."""
        row = run(self.db, _CLUB, {"club": club_id}).fetchone()
        return row and {"id": row[0], "name": row[1], "added": row[2]}

    def club_boxes(self, club_id):
        """A club's boxes, first claimed first: dicts of uid, name (the box's, if it has one),
        claimed, matches."""
        rows = run(self.db, reads.CLUB_BOXES, {"club": club_id})
        return [{"uid": u, "name": n, "claimed": c, "matches": k} for u, n, c, k in rows]

    def club_matches(self, club_id, n=200):
        """A club's n newest stored matches, newest first, as _list gives them: its boxes'
        and those its archers shot as guests on other clubs' boxes (filed by those clubs: a
        match between two clubs counts for both), these read by league_match_clubs_by_club."""
        return self._list([r[0] for r in run(self.db, reads.CLUB_MATCHES, {"club": club_id, "n": n})])

    def _list(self, ids):
        """The matches of these ids, newest stored first, as Store.match_list gives them, each
        with filed_by: {id, name} of the club that filed it (its box's), or None."""
        out = listed(self.db, ids)
        uids = sorted({d["device"] for d in out})
        filers = {uid: {"id": cid, "name": name} for uid, cid, name in run(self.db, reads.FILERS, {"uids": uids})}
        for d in out:
            d["filed_by"] = filers.get(d["device"])
        return out

    def club_pushes(self, club_id, n=100):
        """A club's n latest pushes from the log, newest first, for its public page: dicts of
        pushed, sent, stored, held, status, outcome (not the address it came from: the log's
        `league pushes` keeps that)."""
        return [dict(zip(_CLUB_PUSH_KEYS, r)) for r in run(self.db, _CLUB_PUSHES, {"club": club_id, "n": n})]

    def box_club(self, uid):
        """(club id, name) of the club that owns a box, or None."""
        return run(self.db, reads.BOX_CLUB, {"uid": uid}).fetchone()


_TALLY_KEYS = COUNTS


def _tally(counts):
    """{matches, wins, draws, losses, points} of these four counts."""
    out = dict(zip(_TALLY_KEYS, counts))
    out["points"] = WIN_POINTS * out["wins"] + DRAW_POINTS * out["draws"]
    return out


def _ranked(rows):
    """Rows best first: points, then wins, then name."""
    return sorted(rows, key=lambda r: (-r["points"], -r["wins"], r["name"].casefold()))


def current(seasons, today):
    """Of seasons (first first), the one that holds today, or else the last one begun before
    it; None when none has begun."""
    begun = [x for x in seasons if x["first"] <= today]
    return begun[-1] if begun else None
