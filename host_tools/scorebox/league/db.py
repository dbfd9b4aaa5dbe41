"""A league on its PostgreSQL store (docs/league.md): its accounts (the clubs and their
tokens' hashes, which club each box belongs to, the log of every push), its seasons, and
what its pages read (the standings, the archers across clubs, a club's page), kept as
matches are stored. Its tables are league/migrations', made here under the store's write lock
(Store.upgrade) so that two commands never make them at once; what is kept is league/keep.py's
SQL. It works through the Store's connection and transactions, and is told of a push's new
matches by add_checked's on_stored (keep)."""

import os
import time

from scorebox.league.keep import (
    ALL,
    CLUB_OF,
    CLUBS_TAKE_BACK,
    HOME_SIDES,
    KEEP,
    KEEP_AGAIN,
    KEPT,
    SEASON,
    SET_CLUBS,
    SIDE_CLUB,
    TAKE_BACK,
)
from scorebox.store.errors import StoreError
from scorebox.store.migrate import Schema
from scorebox.store.queries import listed

# The league's tables (league/migrations), beside the club store's on its database.
LEAGUE = Schema(
    "league", os.path.join(os.path.dirname(os.path.abspath(__file__)), "migrations"), "league_version", "league_1_0"
)

# The standings' points rule (docs/league.md): 2 a win, 1 a draw, 0 a loss.
WIN_POINTS, DRAW_POINTS = 2, 1


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
        if sides_clubs:
            q = (
                "SELECT m.id, d.uid, m.number FROM matches m JOIN devices d ON d.id = m.device_id "
                "WHERE m.id BETWEEN ? AND ?"
            )
            for mid, uid, number in self.db.execute(q, (first, last)).fetchall():
                clubs = sides_clubs.get((uid, number))
                if clubs is not None:
                    self.db.execute(SET_CLUBS[1], (mid, clubs[0], clubs[1]))
        for sql in KEEP:
            self.db.execute(sql, (first, last))

    def names(self, uid, numbers):
        """{number: (match id, [side A's names, side B's], [side A's club id, side B's])} of
        the matches of numbers the league holds from box uid, named as the league files them
        (each game's first side first); a side's club is its box's club's unless the push
        named another (league_match_clubs)."""
        numbers = sorted(set(numbers))
        if not numbers:
            return {}
        out = {}
        rows = self.db.execute(
            "SELECT m.number, m.id, x.side IN "
            + HOME_SIDES
            + ", a.name, coalesce(g.club_id, b.club_id) FROM matches m "
            + CLUB_OF
            + "JOIN match_archers x ON x.match_id = m.id JOIN archers a ON a.id = x.archer_id "
            + SIDE_CLUB
            + "WHERE d.uid = ? AND m.number IN (%s) ORDER BY m.number, x.position" % ",".join("?" * len(numbers)),
            [uid] + numbers,
        )
        for number, mid, home, name, club in rows:
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
        kept = self.db.execute("SELECT archer_id, day FROM league_match_sides WHERE match_id = ?", (match_id,))
        kept = kept.fetchall()
        if not kept:  # a match of a box no club claimed: nothing kept of it
            if names is not None:
                self.store.name_match(match_id, names[0] + names[1])
            return
        old, day = sorted({r[0] for r in kept}), kept[0][1]
        args = (match_id, match_id, day)
        self.db.execute(TAKE_BACK, (match_id,))
        if clubs is not None:
            for sql in CLUBS_TAKE_BACK:
                self.db.execute(sql, args)
        self.db.execute("DELETE FROM league_match_sides WHERE match_id = ?", (match_id,))
        if clubs is not None:
            for sql in SET_CLUBS:
                self.db.execute(sql, (match_id, clubs[0], clubs[1]))
            for sql in KEEP_AGAIN[2:4]:  # its clubs' counts, as they are now
                self.db.execute(sql, args)
        if names is not None:
            self.store.name_match(match_id, names[0] + names[1])
        ids = ",".join("?" * len(old))
        self.db.execute("DELETE FROM league_archer_totals WHERE matches = 0 AND archer_id IN (%s)" % ids, old)
        for sql in (KEEP_AGAIN[0], KEEP_AGAIN[1], KEEP_AGAIN[-1]):  # the archers, their sides and totals
            self.db.execute(sql, args)
        self.db.execute(
            "DELETE FROM league_archers a WHERE a.id IN (%s) AND NOT EXISTS "
            "(SELECT 1 FROM league_match_sides s WHERE s.archer_id = a.id) AND NOT EXISTS "
            "(SELECT 1 FROM league_archer_totals t WHERE t.archer_id = a.id)" % ids,
            old,
        )

    def keep_all(self):
        """What keep keeps, made again from every stored match, in a write transaction of its
        own: for a league whose matches were stored another way (tests/support/leaguegen.py's
        bulk load). The league's archers keep their ids (their pages' addresses)."""
        with self.store.transaction():
            for table in KEPT:
                self.db.execute("DELETE FROM " + table)
            last = self.db.execute("SELECT coalesce(max(id), 0) FROM matches").fetchone()[0]
            self.keep(0, last)

    # --- clubs ---------------------------------------------------------------------------------
    def add_club(self, name, token_id, token_hash):
        with self.store.transaction():
            if self.db.execute("SELECT 1 FROM league_clubs WHERE name = ?", (name,)).fetchone():
                raise StoreError("the league has a club named %s already" % name)
            self.db.execute(
                "INSERT INTO league_clubs (name, token_id, token_hash, added) VALUES (?, ?, ?, ?)",
                (name, token_id, token_hash, time.time()),
            )

    def club_by_token(self, token_id):
        """(club id, name, token hash) of the club whose token has this public part, or None."""
        return self.db.execute(
            "SELECT id, name, token_hash FROM league_clubs WHERE token_id = ?", (token_id,)
        ).fetchone()

    def clubs(self):
        return [
            {"id": i, "name": n, "added": a}
            for i, n, a in self.db.execute("SELECT id, name, added FROM league_clubs ORDER BY id")
        ]

    # --- boxes ---------------------------------------------------------------------------------
    def box_owners(self, uids):
        """{uid: club id} of those of uids that a club has claimed."""
        uids = sorted(set(uids))
        if not uids:
            return {}
        q = "SELECT uid, club_id FROM league_boxes WHERE uid IN (%s)" % ",".join("?" * len(uids))
        return dict(self.db.execute(q, uids).fetchall())

    def claim_boxes(self, club_id, uids):
        """Make the boxes of uids that no club has yet club_id's; returns {uid: owner} after,
        read under the write lock (another club may have claimed one first)."""

        with self.store.transaction():
            for uid in sorted(set(uids)):
                self.db.execute(
                    "INSERT INTO league_boxes (uid, club_id, claimed) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (uid, club_id, time.time()),
                )
            return self.box_owners(uids)

    # --- the pushes' log ------------------------------------------------------------------------
    def push_seen(self, club_id, push_id):
        """Whether club_id's push push_id was taken before (a refused one may come again)."""
        q = "SELECT 1 FROM league_pushes WHERE club_id = ? AND push_id = ? AND status = 200"
        return self.db.execute(q, (club_id, push_id)).fetchone() is not None

    def log_push(self, club_id, push_id, remote, sent, stored, held, status, outcome):
        """Log one push, refused ones too. False when this club's push push_id was taken
        already (a replay that came in at the same moment as the first)."""
        cur = self.db.execute(
            "INSERT INTO league_pushes (club_id, push_id, pushed, remote, sent, stored, held, status, outcome) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (club_id, push_id) WHERE status = 200 DO NOTHING",
            (club_id, push_id, time.time(), remote, sent, stored, held, status, outcome),
        )
        return cur.rowcount == 1

    def pushes(self):
        """The log, oldest first: dicts of club (its name, None: no club's token), push_id, pushed,
        remote, sent, stored, held, status, outcome."""
        keys = ("club", "push_id", "pushed", "remote", "sent", "stored", "held", "status", "outcome")
        rows = self.db.execute(
            "SELECT c.name, p.push_id, p.pushed, p.remote, p.sent, p.stored, p.held, p.status, p.outcome "
            "FROM league_pushes p LEFT JOIN league_clubs c ON c.id = p.club_id ORDER BY p.id"
        )
        return [dict(zip(keys, r)) for r in rows]

    # --- the league's pages (league/pages.py) --------------------------------------------------
    def standings(self, game=None, season=None):
        """Every club's line, best first: dicts of id, name, matches, wins, draws, losses,
        points. A match counts for its sides' clubs (docs/league.md, "Whose win a match is"):
        a match between two clubs for both, its side's win the other's loss, a draw both's; a
        match of one club's two sides once, for that club, its win when its HOME side won, its
        loss when the other did; a match with no result yet counts in matches only. game: one
        game's matches only (a game id); season: one season's (a dict of seasons()). Read
        from the totals kept per club, season and game (keep), not from the matches."""
        on, args = _bucket("k", game, season)
        q = (
            "SELECT c.id, c.name, " + _sums("k") + " FROM league_clubs c "
            "LEFT JOIN league_club_totals k ON k.club_id = c.id" + on + " GROUP BY c.id, c.name"
        )
        return _ranked(dict(zip(("id", "name"), r[:2]), **_tally(r[2:])) for r in self.db.execute(q, args))

    # --- seasons ---------------------------------------------------------------------------------
    def add_season(self, name, first, last):
        """A season of the days first..last (dates), its totals made from what is kept of the
        matches played in its days; refused when its name is taken or its days overlap
        another's (a match falls in one season at most)."""

        with self.store.transaction():
            if self.db.execute("SELECT 1 FROM league_seasons WHERE name = ?", (name,)).fetchone():
                raise StoreError("the league has a season named %s already" % name)
            other = self.db.execute(
                "SELECT name, first_day, last_day FROM league_seasons WHERE first_day <= ? AND last_day >= ? "
                "ORDER BY first_day",
                (last, first),
            ).fetchone()
            if other:
                raise StoreError(
                    "season %s (%s to %s) has some of these days: seasons do not overlap"
                    % (other[0], other[1], other[2])
                )
            sid = self.db.execute(
                "INSERT INTO league_seasons (name, first_day, last_day, added) VALUES (?, ?, ?, ?) RETURNING id",
                (name, first, last, time.time()),
            ).fetchone()[0]
            for sql in SEASON:  # its matches pushed before it was added
                self.db.execute(sql, (sid, first, last))

    def seasons(self):
        """The seasons, first first: dicts of id, name, first, last (dates)."""
        rows = self.db.execute("SELECT id, name, first_day, last_day FROM league_seasons ORDER BY first_day")
        return [{"id": i, "name": n, "first": f, "last": la} for i, n, f, la in rows]

    # --- archers across clubs ------------------------------------------------------------------
    def archers(self, game=None, season=None):
        """Every league archer who played (in the season, the game), best first as the
        standings: dicts of id, name, club_id, club, matches, wins, draws, losses, points."""
        on, args = _bucket("k", game, season)
        q = (
            "SELECT a.id, s.name, c.id, c.name, " + _sums("k") + " FROM league_archer_totals k "
            "JOIN league_archers a ON a.id = k.archer_id JOIN archers s ON s.id = a.archer_id "
            "JOIN league_clubs c ON c.id = a.club_id WHERE 1 = 1" + on + " GROUP BY a.id, s.name, c.id, c.name"
        )
        keys = ("id", "name", "club_id", "club")
        return _ranked(dict(zip(keys, r[:4]), **_tally(r[4:])) for r in self.db.execute(q, args))

    def archer(self, archer_id):
        """{id, name, club_id, club} of a league archer, or None."""
        row = self.db.execute(
            "SELECT a.id, s.name, c.id, c.name FROM league_archers a JOIN archers s ON s.id = a.archer_id "
            "JOIN league_clubs c ON c.id = a.club_id WHERE a.id = ?",
            (archer_id,),
        ).fetchone()
        return row and dict(zip(("id", "name", "club_id", "club"), row))

    def record(self, archer_id, season=None):
        """An archer's record, {game id: tally}, and "all": their tally of every game; a tally
        is a dict of matches, wins, draws, losses, points. Read from their kept totals."""
        on, args = _bucket("k", None, season)
        q = "SELECT game, " + _sums("k") + " FROM league_archer_totals k WHERE archer_id = ?" + on + " GROUP BY game"
        out = {g: _tally(r) for g, *r in self.db.execute(q, [archer_id] + args)}
        out["all"] = _tally([sum(t[k] for t in out.values()) for k in _TALLY_KEYS])
        return out

    def archer_matches(self, archer_id, season=None, versus=None, n=100):
        """An archer's n newest matches (by the day played, then as stored), as club_matches
        gives them, each with their side and outcome (W, D, L or None). versus: only those
        against that league archer."""
        on, args = _within("s", season)
        q = "SELECT s.match_id, s.side, s.outcome FROM league_match_sides s "
        if versus is not None:
            q += "JOIN league_match_sides o ON o.match_id = s.match_id AND o.side <> s.side AND o.archer_id = ? "
            args.insert(0, versus)
        q += "WHERE s.archer_id = ?" + on + " ORDER BY s.day DESC NULLS LAST, s.match_id DESC LIMIT ?"
        args.insert(1 if versus is not None else 0, archer_id)
        theirs = {}
        for mid, side, outcome in self.db.execute(q, args + [n]):
            theirs.setdefault(mid, (side, outcome))  # one line a match, on a side they shot twice on
        rows = {m["id"]: m for m in self._list(list(theirs))}
        return [dict(rows[mid], side=side, outcome=outcome) for mid, (side, outcome) in theirs.items()]

    def opponents(self, archer_id, season=None):
        """The league archers a league archer shot against, most matches first: dicts of id,
        name, club_id, club and the tally of the archer's matches against them."""
        on, args = _within("s", season)
        q = (
            "SELECT o.archer_id, count(*), count(CASE WHEN s.outcome = 'W' THEN 1 END), "
            "count(CASE WHEN s.outcome = 'D' THEN 1 END), count(CASE WHEN s.outcome = 'L' THEN 1 END) "
            "FROM league_match_sides s JOIN league_match_sides o ON o.match_id = s.match_id AND o.side <> s.side "
            "WHERE s.archer_id = ?" + on + " GROUP BY o.archer_id"
        )
        tallies = {r[0]: _tally(r[1:]) for r in self.db.execute(q, [archer_id] + args)}
        names = self._archers(list(tallies))
        out = [dict(names[i], **t) for i, t in tallies.items()]
        out.sort(key=lambda r: (-r["matches"], r["name"].casefold(), r["club"].casefold()))
        return out

    def _archers(self, ids):
        """{id: {id, name, club_id, club}} of these league archers."""
        rows = self.db.execute(
            "SELECT a.id, s.name, c.id, c.name FROM league_archers a JOIN archers s ON s.id = a.archer_id "
            "JOIN league_clubs c ON c.id = a.club_id WHERE a.id IN (%s)" % (", ".join("?" * len(ids)) or "NULL"),
            ids,
        )
        return {r[0]: dict(zip(("id", "name", "club_id", "club"), r)) for r in rows}

    # --- the league's report (league/pages.py) -----------------------------------------------
    def counts(self, season=None):
        """{matches: per game id, pushes: taken, refused: pushes refused} of the season (a
        push by the day it came, in the server's time zone), or of all."""
        on, args = _bucket("k", None, season)
        # kept per season and game (keep), a match between two clubs once
        q = "SELECT game, matches FROM league_match_totals k WHERE 1 = 1" + on
        matches = dict(self.db.execute(q, args).fetchall())
        q = (
            "SELECT count(CASE WHEN status = 200 THEN 1 END), count(CASE WHEN status <> 200 THEN 1 END) "
            "FROM league_pushes"
        )
        args = []
        if season is not None:
            q += " WHERE CAST(to_timestamp(pushed) AS DATE) BETWEEN ? AND ?"
            args = [season["first"], season["last"]]
        taken, refused = self.db.execute(q, args).fetchone()
        return {"matches": matches, "pushes": taken, "refused": refused}

    def club(self, club_id):
        """{id, name, added} of a club, or None."""
        row = self.db.execute("SELECT id, name, added FROM league_clubs WHERE id = ?", (club_id,)).fetchone()
        return row and {"id": row[0], "name": row[1], "added": row[2]}

    def club_boxes(self, club_id):
        """A club's boxes, first claimed first: dicts of uid, name (the box's, if it has one),
        claimed, matches."""
        rows = self.db.execute(
            "SELECT b.uid, d.name, b.claimed, (SELECT count(*) FROM matches m WHERE m.device_id = d.id) "
            "FROM league_boxes b LEFT JOIN devices d ON d.uid = b.uid WHERE b.club_id = ? ORDER BY b.claimed, b.uid",
            (club_id,),
        )
        return [{"uid": u, "name": n, "claimed": c, "matches": k} for u, n, c, k in rows]

    def club_matches(self, club_id, n=200):
        """A club's n newest stored matches, newest first, as _list gives them: its boxes'
        and those its archers shot as guests on other clubs' boxes (filed by those clubs: a
        match between two clubs counts for both), these read by league_match_clubs_by_club."""
        # Its sides' rows, newest first, whose match's box is none of the club's: each row's box
        # looked up as the index gives it, against the club's boxes read once (a join was
        # planned as a merge reading the matches' whole index).
        q = (
            "SELECT id FROM (SELECT m.id FROM matches m " + CLUB_OF + "WHERE b.club_id = ?1 "
            "ORDER BY m.id DESC LIMIT ?2) AS own UNION ALL SELECT id FROM (SELECT g.match_id AS id "
            "FROM league_match_clubs g WHERE g.club_id = ?1 AND (SELECT m.device_id FROM matches m "
            "WHERE m.id = g.match_id) NOT IN (SELECT d.id FROM devices d JOIN league_boxes b ON b.uid = d.uid "
            "WHERE b.club_id = ?1) ORDER BY g.match_id DESC LIMIT ?2) AS away ORDER BY id DESC LIMIT ?2"
        )
        return self._list([r[0] for r in self.db.execute(q, (club_id, n))])

    def _list(self, ids):
        """The matches of these ids, newest stored first, as Store.match_list gives them, each
        with filed_by: {id, name} of the club that filed it (its box's), or None."""
        out = listed(self.db, ids)
        uids = sorted({d["device"] for d in out})
        filers = self.db.execute(
            "SELECT b.uid, c.id, c.name FROM league_boxes b JOIN league_clubs c ON c.id = b.club_id "
            "WHERE b.uid IN (%s)" % (", ".join("?" * len(uids)) or "NULL"),
            uids,
        )
        filers = {uid: {"id": cid, "name": name} for uid, cid, name in filers}
        for d in out:
            d["filed_by"] = filers.get(d["device"])
        return out

    def club_pushes(self, club_id, n=100):
        """A club's n latest pushes from the log, newest first, for its public page: dicts of
        pushed, sent, stored, held, status, outcome (not the address it came from: the log's
        `league pushes` keeps that)."""
        keys = ("pushed", "sent", "stored", "held", "status", "outcome")
        rows = self.db.execute(
            "SELECT pushed, sent, stored, held, status, outcome FROM league_pushes "
            "WHERE club_id = ? ORDER BY id DESC LIMIT ?",
            (club_id, n),
        )
        return [dict(zip(keys, r)) for r in rows]

    def box_club(self, uid):
        """(club id, name) of the club that owns a box, or None."""
        return self.db.execute(
            "SELECT c.id, c.name FROM league_boxes b JOIN league_clubs c ON c.id = b.club_id WHERE b.uid = ?", (uid,)
        ).fetchone()


_TALLY_KEYS = ("matches", "wins", "draws", "losses")


def _sums(alias):
    """The sums of a kept table's four counts, as SQL."""
    return ", ".join("coalesce(sum(%s.%s), 0)" % (alias, k) for k in _TALLY_KEYS)


def _bucket(alias, game, season):
    """(SQL, args) of the conditions on a kept totals table's season and game: " AND ..."."""
    sql, args = " AND %s.season_id = ?" % alias, [ALL if season is None else season["id"]]
    if game is not None:
        sql, args = sql + " AND %s.game = ?" % alias, args + [game]
    return sql, args


def _within(alias, season):
    """(SQL, args) of the condition on league_match_sides' day: " AND ...", or none."""
    if season is None:
        return "", []
    return " AND %s.day BETWEEN ? AND ?" % alias, [season["first"], season["last"]]


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
