"""The writer of a batch of checked matches (checks.Checked) into the SQLite store's tables."""

import itertools
import time

from scorebox_core import games
from scorebox_core.sides import rotation


class Rows:
    """The rows of a batch of matches, written with one executemany per table. Row ids
    are given here, not by SQLite, so that children can name their parents; this runs
    inside Store.add_checked's write transaction, so nobody else takes an id meanwhile."""

    def __init__(self, db):
        self.db = db
        # Names are one archer whatever their case (store/roster.py): "ann" on a box is Ann; a
        # name an archer had before a rename is still theirs, unless another archer has it now.
        self.archer_ids = {n.casefold(): i for n, i in db.execute("SELECT old, archer_id FROM archer_renames")}
        self.archer_ids.update(
            (n.casefold(), i) for n, i in db.execute("SELECT name, id FROM archers ORDER BY id DESC")
        )
        self.new_archers = []
        self.next = {t: db.execute("SELECT COALESCE(MAX(id), 0) FROM " + t).fetchone()[0] for t in TABLES}
        self.matches, self.match_archers, self.games, self.turns = [], [], [], []
        self.arrows = []  # per game: (turn ids, numbers in turn, events, outcomes), zipped on write
        self.now = time.time()

    def _id(self, table):
        self.next[table] += 1
        return self.next[table]

    def _archer(self, name):
        aid = self.archer_ids.get(name.casefold())
        if aid is None:
            aid = self.archer_ids[name.casefold()] = self._id("archers")
            self.new_archers.append((aid, name))
        return aid

    def add(self, dev, c):
        mid = self._id("matches")
        self.matches.append((mid, dev) + c.row + (self.now,))
        ids = ([], [])
        for side in (0, 1):
            for pos, name in enumerate(c.archers[side]):
                aid = self._archer(name)
                ids[side].append(aid)
                self.match_archers.append((mid, c.sides[side], pos, aid, c.distance[side], c.shaft_mm[side]))
        done = [0, 0]  # turns completed per side, across games: the archer rotation (TTB-2)
        for gno, (first, winner, reason, rounds, turns, events, outcomes) in enumerate(c.games, 1):
            gid = self._id("games")
            self.games.append((gid, mid, gno, first, winner, reason, rounds))
            tids, nums = [], []
            for tno, (side, n) in enumerate(turns, 1):
                tid = self._id("turns")
                self.turns.append(
                    (tid, gid, tno, (tno + 1) // 2, c.sides[side], ids[side][rotation(done[side], len(ids[side]))])
                )
                done[side] += 1
                tids += [tid] * n
                nums += range(1, n + 1)
            self.arrows.append((tids, nums, events, outcomes))

    def write(self):
        db = self.db
        db.executemany("INSERT INTO archers (id, name) VALUES (?, ?)", self.new_archers)
        db.executemany("INSERT INTO matches VALUES (%s)" % ", ".join("?" * 14), self.matches)
        db.executemany("INSERT INTO match_archers VALUES (?, ?, ?, ?, ?, ?)", self.match_archers)
        db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", self.games)
        db.executemany("INSERT INTO turns VALUES (?, ?, ?, ?, ?, ?)", self.turns)
        # An arrow goes in as its event and outcome; SQLite takes the columns apart, so
        # no Python runs per arrow (the layout of an event: ARROWS below).
        db.executemany(ARROW_INSERT, itertools.chain.from_iterable(zip(*a) for a in self.arrows))


TABLES = ("archers", "matches", "games", "turns")
# The games, turns and arrows tables hold the rows of a game that gives them (its STORE's
# rows()): the registry's first's, whose rules say how an arrow event is laid out.
ARROWS = games.part(games.every()[0], "RULES")
ARROW_INSERT = (
    "INSERT INTO arrows VALUES (?1, ?2, NULLIF(?3 >> 2 & 15, 0), "
    "CASE WHEN ?3 >> 6 = %(hit)d THEN ?3 & 3 ELSE 0 END, CASE WHEN ?3 >> 6 = %(called)d THEN 1 ELSE 0 END, "
    "CASE WHEN ?3 >> 6 = %(called)d THEN ?3 & 1 END, "
    "CASE ?4 %(outcomes)s END)"
    % {
        "hit": ARROWS.HIT,
        "called": ARROWS.CALLED,
        "outcomes": " ".join("WHEN %d THEN '%s'" % kv for kv in enumerate(ARROWS.OUTCOMES)),
    }
)
