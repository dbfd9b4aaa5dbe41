"""A league's PostgreSQL store of many matches, fast (issue 26 item 5: bench/bench_league_1m.py
fills 1,000,000; tests/pc/test_leaguegen.py a few dozen).

Storing a million matches one push at a time (Store.add_checked, about 250 a second) would
take over an hour here. Instead:

1. a pool of real matches is played (tests/support/storegen.py's archer model, Try-Tac-Toe
   games from ttt_history.py one in ten), checked by the rules core and stored with the
   Store's add_checked, as a push stores them, from the league's boxes: its rows and the
   archers' figures are the store's own;
2. every other match is one of the pool's, played again on another box of the league: its
   own box, number, club, clock and archers (of its club, in the same places on each side),
   the same events and so the same games, turns and arrows. Its matches row (the header
   with its clock and archers) and its archers go in with COPY (psycopg's cursor.copy); its
   games, turns and arrows are made from the pool's on the server (INSERT ... SELECT), the
   archer of each turn the copy's archer in that place. The heavy tables' keys, indexes and
   foreign keys are dropped for the load and made again after it, as the migrations made
   them; the triggers that check a turn's and an arrow's references on PostgreSQL
   (store/pgrefs.py) are off for the load (with no key to find a row by, each statement's
   check would read the whole table a row) and on again after it, every reference then
   checked at once, as adding a foreign key checks it;
3. the copies' archer figures are filled by store/figures.py over their ids, and the
   league's records of them (its archers, their sides, the counts per club, archer and day)
   by LeagueDB.keep, as add_checked fills both for a push's batch; the league's tables hold
   its clubs (with tokens' hashes), their boxes, two seasons and a push logged for every 500
   of a box's matches (the server's MAX_BATCH).

Such a copy is a match the rules accept as it stands (the tests check each one against the
rules core and add_checked's rows); what it does not keep is the wear of a box's face from
one match to the next (each copy's header carries its pool match's face).
"""

import datetime
import glob
import hashlib
import json
import os
import random
import time

from storegen import T0, match_items
from ttt_history import full_game, ttt_header

from scorebox.league import tokens
from scorebox.league.clubs import league_store
from scorebox.league.keep import HOME
from scorebox.league.server import MAX_BATCH
from scorebox.store import figures, pgrefs
from scorebox.store.checks import check
from scorebox.store.rows import TABLES as ID_TABLES

TABLES = [t.name for t in ID_TABLES]  # the tables whose rows are numbered here

CLUBS, BOXES = 40, 5  # 200 boxes
POOL = 10_000  # matches played and checked; the others are copies of them
CHUNK = 100_000  # copies loaded in one transaction
FIRST = (
    "Ann Ben Cat Dan Eve Fay Gus Hal Ivy Jon Kim Lea Max Nia Oli Pat Quin Ray Sue Tom Uma Vic Wes Zoe"
).split()  # each club's archers: these names with the club's number
# The league's seasons: its matches are played from storegen's T0 (late May 2026) for SPAN
# seconds, whatever their count; the second season holds the bench's today (the pages'
# default season).
SPAN = 180 * 86400
SEASONS = (
    ("Summer 2026", datetime.date(2026, 5, 1), datetime.date(2026, 8, 31)),
    ("Autumn 2026", datetime.date(2026, 9, 1), datetime.date(2026, 12, 31)),
)
HEAVY = (
    "matches",
    "match_archers",
    "games",
    "turns",
    "arrows",
    "archer_matches",
    "archer_results",
    "archer_games",
    "archer_opponents",
    "archer_arrows",
    "archer_claims",
)


def club_name(c):
    return "Club %02d" % (c + 1)


def box_uid(c, b):
    return "e66142%02x%08x" % (c, b)


def roster(c):
    return ["%s %02d" % (n, c + 1) for n in FIRST]


def inputs_hash(count, pool=POOL):
    """What the generated league depends on: this generator's code and its parts' (the
    matches' model, the store's schema and archers' figures, the league's tables and what
    they keep: a change made in place, without a new version, counts too), and the sizes."""
    from scorebox.league import db, keep
    from scorebox.league import tables as league_tables
    from scorebox.store import migrate, tables

    h = hashlib.sha256(("%d %d %d %d" % (count, pool, CLUBS, BOXES)).encode())
    here = os.path.dirname(os.path.abspath(__file__))
    paths = [os.path.join(here, f) for f in ("leaguegen.py", "storegen.py", "corpus.py", "ttt_history.py")]
    migrations = [
        sorted(glob.glob(os.path.join(s.scripts, "**", "*.py"), recursive=True)) for s in (migrate.STORE, db.LEAGUE)
    ]
    parts = [tables.__file__, figures.__file__, db.__file__, keep.__file__, league_tables.__file__]
    for path in paths + parts + sum(migrations, []):
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def generate(url, count, pool=POOL, clubs=CLUBS, boxes=BOXES, seed=26, log=None):
    """Fill the new database at url with a league of `count` matches; returns the seconds."""
    t0 = time.perf_counter()
    say = log or (lambda msg: None)
    store, league = league_store(url)
    try:
        boxes = _clubs(store, league, clubs, boxes)
        for name, first, last in SEASONS:
            league.add_season(name, first, last)
        pool = min(pool, count)
        _pool(store, league, boxes, pool, seed)
        say("%d matches played and stored (%.0f s)" % (pool, time.perf_counter() - t0))
        if count > pool:
            Copies(store, league, boxes, seed).load(count - pool, say)
        say("%d matches (%.0f s)" % (count, time.perf_counter() - t0))
        _pushes(store)
        store.db.pg.execute("ANALYZE")
    finally:
        store.close()
    return time.perf_counter() - t0


def _clubs(store, league, clubs, per_club):
    """The league's clubs, their archers, their boxes claimed and met; [(club, uid)] for
    each box."""
    boxes = []
    for c in range(clubs):
        for name in roster(c):
            store.add_archer(name)
        _, token_id, token_hash = tokens.make()
        league.add_club(club_name(c), token_id, token_hash)
        cid = league.club_by_token(token_id)[0]
        uids = [box_uid(c, b) for b in range(per_club)]
        league.claim_boxes(cid, uids)
        for uid in uids:
            store.device(uid, "league-1m")
            boxes.append((c, uid))
    return boxes


def _pool(store, league, boxes, pool, seed):
    """`pool` matches played, checked and stored as a push stores them (kept by the league as
    they are), spread over the boxes (each box's own storegen series, with its club's
    archers; one in ten a Try-Tac-Toe game)."""
    each, extra = divmod(pool, len(boxes))
    for i, (c, uid) in enumerate(boxes):
        n = each + (i < extra)
        items = [item for _, item in match_items(n, seed=seed * 1000 + i, devices=[uid], roster=roster(c))]
        for k in range(0, n, 10):  # a Try-Tac-Toe game in place of every tenth
            number, header, _, _ = items[k]
            players = [roster(c)[j] for j in random.Random(number * 7 + i).sample(range(len(FIRST)), 3)]
            g = full_game(seed=seed + i * 100 + k, players=(tuple(players[:2]), (players[2],)))
            items[k] = (number, ttt_header(g, header["clock"]), list(g.events), {"confirmed": True})
        for k in range(0, n, MAX_BATCH):
            got, _ = store.add_checked(uid, [check(*item) for item in items[k : k + MAX_BATCH]], on_stored=league.keep)
            if not all(g is True for g in got):
                raise RuntimeError("the league refused generated matches: %s" % got[:3])


class Copies:
    """The pool's matches played again on the league's boxes (the module's step 2)."""

    def __init__(self, store, league, boxes, seed):
        self.store, self.league, self.db, self.boxes = store, league, store.db.pg, boxes
        self.rnd = random.Random(seed)
        db = self.db
        self.device = dict(db.execute("SELECT uid, id FROM devices").fetchall())
        self.archer = dict(db.execute("SELECT name, id FROM archers").fetchall())
        self.number, self.clock = {uid: 0 for _, uid in boxes}, {uid: T0 for _, uid in boxes}
        for uid, number, clock in db.execute(
            "SELECT d.uid, max(m.number), max(m.started) FROM matches m JOIN devices d ON d.id = m.device_id "
            "GROUP BY d.uid"
        ):
            self.number[uid], self.clock[uid] = number, clock
        # the pool: each match's id, header, games and turns
        self.pool = db.execute(
            "SELECT m.id, m.header, "
            "(SELECT count(*) FROM games g WHERE g.match_id = m.id), "
            "(SELECT count(*) FROM games g JOIN turns t ON t.game_id = g.id WHERE g.match_id = m.id) "
            "FROM matches m ORDER BY m.id"
        ).fetchall()
        self.next = {t: db.execute("SELECT coalesce(max(id), 0) FROM " + t).fetchone()[0] for t in TABLES}
        self.first = self.next["matches"] + 1

    def load(self, count, say):
        gap = SPAN * len(self.boxes) // count  # a box's mean seconds from one match to the next
        self.gaps = (max(1, gap // 5), max(2, gap * 9 // 5))
        db = self.db
        db.execute("SET work_mem = '256MB'")
        db.execute("SET maintenance_work_mem = '512MB'")
        self._pool_tables()
        kept = self._drop_keys()
        t0 = time.perf_counter()
        done = 0
        while done < count:
            n = min(CHUNK, count - done)
            with db.transaction():
                self._chunk(n)
            done += n
            say("%d copies loaded (%.0f s)" % (done, time.perf_counter() - t0))
        for t in TABLES:  # the identity sequences on past the ids given here
            db.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), (SELECT max(id) FROM " + t + "))", (t,))
        t0 = time.perf_counter()
        for sql in kept:
            db.execute(sql)
        for table, column, parent, _ in pgrefs.REFS:
            unmatched = db.execute(pgrefs.unmatched(table, column, parent)).fetchone()[0]
            if unmatched:
                raise RuntimeError("%d %s refer to no row of %s: the load is wrong" % (unmatched, table, parent))
        db.execute("ANALYZE")
        say("keys and indexes made again (%.0f s)" % (time.perf_counter() - t0))
        t0 = time.perf_counter()
        last = self.next["matches"]
        for first in range(self.first, last + 1, CHUNK):
            with db.transaction():
                figures.fill(self.store.db, first, min(first + CHUNK - 1, last))
        say("the copies' archer figures filled (%.0f s)" % (time.perf_counter() - t0))
        t0 = time.perf_counter()
        for first in range(self.first, last + 1, CHUNK):
            with db.transaction():
                self.league.keep(first, min(first + CHUNK - 1, last))
        say("the league's records of them kept (%.0f s)" % (time.perf_counter() - t0))
        for t in ("copies", "pool_matches", "pool_archers", "pool_games", "pool_turns", "pool_arrows"):
            db.execute("DROP TABLE " + t)

    def _pool_tables(self):
        """The pool's rows, each game, turn and arrow by its place in its match, each archer
        by their side (0: the match's first side, HOME) and place on it."""
        home = "(%s)" % ", ".join("'%s'" % side for side in HOME)
        for sql in (
            "CREATE TABLE copies (id BIGINT, pool BIGINT, device_id BIGINT, number BIGINT, "
            "started DOUBLE PRECISION, header TEXT, games BIGINT, turns BIGINT, side0 BIGINT[], side1 BIGINT[])",
            "CREATE TABLE pool_matches AS SELECT * FROM matches",
            "CREATE TABLE pool_archers AS SELECT x.*, CASE WHEN x.side IN %s THEN 0 ELSE 1 END AS archer_side "
            "FROM match_archers x" % home,
            "CREATE TABLE pool_games AS SELECT g.match_id AS pool, "
            "g.id - min(g.id) OVER (PARTITION BY g.match_id) AS place, g.number, g.first, g.winner, g.reason, "
            "g.rounds FROM games g",
            "CREATE TABLE pool_turns AS SELECT g.match_id AS pool, "
            "t.id - min(t.id) OVER (PARTITION BY g.match_id) AS place, "
            "g.id - min(g.id) OVER (PARTITION BY g.match_id) AS game_place, t.number, t.round, t.side, "
            "x.archer_side, x.position + 1 AS archer_place "
            "FROM turns t JOIN games g ON g.id = t.game_id "
            "JOIN pool_archers x ON x.match_id = g.match_id AND x.archer_id = t.archer_id",
            "CREATE TABLE pool_arrows AS SELECT g.match_id AS pool, "
            "r.turn_id - min(t.id) OVER (PARTITION BY g.match_id) AS turn_place, "
            "r.number, r.square, r.value, r.called, r.x_hit, r.outcome "
            "FROM arrows r JOIN turns t ON t.id = r.turn_id JOIN games g ON g.id = t.game_id",
        ):
            self.db.execute(sql.replace("CREATE TABLE", "CREATE UNLOGGED TABLE"))

    def _drop_keys(self):
        """Drop the heavy tables' keys and indexes, and the foreign keys from or to them, and
        turn the reference checks off; the statements that make them again, keys first,
        foreign keys last, checks on again."""
        db = self.db
        cons = db.execute(
            "SELECT conrelid::regclass::text, conname, contype, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE (conrelid::regclass::text = ANY(%s) AND contype IN ('p', 'u', 'f')) "
            "OR (confrelid::regclass::text = ANY(%s) AND contype = 'f')",
            (list(HEAVY), list(HEAVY)),
        ).fetchall()
        owned = {name for _, name, _, _ in cons}
        idx = db.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s)", (list(HEAVY),)
        ).fetchall()
        again = []
        for kind in ("f", "p", "u"):
            for table, name, contype, sql in cons:
                if contype == kind:
                    db.execute('ALTER TABLE %s DROP CONSTRAINT "%s"' % (table, name))
                    again.append('ALTER TABLE %s ADD CONSTRAINT "%s" %s' % (table, name, sql))
        for name, sql in idx:
            if name not in owned:
                db.execute('DROP INDEX "%s"' % name)
                again.append(sql)
        for table in sorted({ref[0] for ref in pgrefs.REFS}):  # turns' and arrows' reference checks
            db.execute("ALTER TABLE %s DISABLE TRIGGER USER" % table)
            again.append("ALTER TABLE %s ENABLE TRIGGER USER" % table)
        fks = [s for s in again if " FOREIGN KEY " in s]
        return [s for s in again if s not in fks] + fks

    def _chunk(self, n):
        """n copies: their matches rows and archers by COPY, their games, turns and arrows
        from the pool's on the server."""
        db, rnd = self.db, self.rnd
        db.execute("TRUNCATE copies")
        with db.cursor().copy(
            "COPY copies (id, pool, device_id, number, started, header, games, turns, side0, side1) FROM STDIN"
        ) as copy:
            for _ in range(n):
                c, uid = self.boxes[rnd.randrange(len(self.boxes))]
                pid, header, games, turns = self.pool[rnd.randrange(len(self.pool))]
                h = json.loads(header)
                names = rnd.sample(roster(c), len(h["archers"][0]) + len(h["archers"][1]))
                h["archers"] = [names[: len(h["archers"][0])], names[len(h["archers"][0]) :]]
                self.clock[uid] = h["clock"] = self.clock[uid] + rnd.randrange(*self.gaps)
                self.number[uid] += 1
                self.next["matches"] += 1
                ids = [[self.archer[name] for name in side] for side in h["archers"]]
                copy.write_row(
                    (
                        self.next["matches"],
                        pid,
                        self.device[uid],
                        self.number[uid],
                        h["clock"],
                        json.dumps(h, sort_keys=True),
                        self.next["games"],
                        self.next["turns"],
                        ids[0],
                        ids[1],
                    )
                )
                self.next["games"] += games
                self.next["turns"] += turns
        now = time.time()
        db.execute(
            "INSERT INTO matches SELECT c.id, c.device_id, c.number, c.started, m.options, c.header, m.log, "
            "m.extras, m.winner, m.wins_a, m.wins_b, m.draws, m.finished, %s "
            "FROM copies c JOIN pool_matches m ON m.id = c.pool",
            (now,),
        )
        db.execute(
            "INSERT INTO match_archers SELECT c.id, x.side, x.position, "
            "CASE x.archer_side WHEN 0 THEN c.side0[x.position + 1] ELSE c.side1[x.position + 1] END, "
            "x.distance, x.shaft_mm FROM copies c JOIN pool_archers x ON x.match_id = c.pool"
        )
        db.execute(
            "INSERT INTO games SELECT c.games + 1 + g.place, c.id, g.number, g.first, g.winner, g.reason, g.rounds "
            "FROM copies c JOIN pool_games g ON g.pool = c.pool"
        )
        db.execute(
            "INSERT INTO turns SELECT c.turns + 1 + t.place, c.games + 1 + t.game_place, t.number, t.round, t.side, "
            "CASE t.archer_side WHEN 0 THEN c.side0[t.archer_place] ELSE c.side1[t.archer_place] END "
            "FROM copies c JOIN pool_turns t ON t.pool = c.pool"
        )
        db.execute(
            "INSERT INTO arrows SELECT c.turns + 1 + r.turn_place, r.number, r.square, r.value, r.called, r.x_hit, "
            "r.outcome FROM copies c JOIN pool_arrows r ON r.pool = c.pool"
        )


def _pushes(store):
    """A push logged for every MAX_BATCH of a box's matches, as the server logs them."""
    store.db.pg.execute(
        "INSERT INTO league_pushes (club_id, push_id, pushed, remote, sent, stored, held, status, outcome) "
        "SELECT b.club_id, md5(d.uid || ':' || p.k), p.last, '127.0.0.1', p.n, p.n, 0, 200, "
        "'stored ' || p.n || ', held already 0' FROM (SELECT device_id, (number - 1) / {n} AS k, count(*) AS n, "
        "max(started) AS last FROM matches GROUP BY 1, 2) AS p "
        "JOIN devices d ON d.id = p.device_id JOIN league_boxes b ON b.uid = d.uid ORDER BY p.last".format(n=MAX_BATCH)
    )
