"""The writer of a batch of checked matches (checks.Checked) into the store's tables."""

import itertools
import time

from sqlalchemy import bindparam, case, func, literal_column, select

from scorebox.store import tables as t
from scorebox.store.sql import Each, compile_ahead, insert_made, insert_rows, next_ids, run, run_many
from scorebox_core import games
from scorebox_core.sides import rotation


class Rows:
    """The rows of a batch of matches, written with one executemany (SQLite) or COPY
    (PostgreSQL) per table. Children name their parents by ids given here: on SQLite on from
    the highest id (this runs inside Store.add_checked's write transaction, so nobody else
    takes one meanwhile); on PostgreSQL each new row is numbered -1, -2, ... here and given
    its id from its table's identity sequence as the batch is written, as many as it needs."""

    def __init__(self, db):
        self.db = db
        # Names are one archer whatever their case (store/roster.py): "ann" on a box is Ann; a
        # name an archer had before a rename is still theirs, unless another archer has it now.
        self.archer_ids = {n.casefold(): i for n, i in run(db, _RENAMED)}
        self.archer_ids.update((n.casefold(), i) for n, i in run(db, _NAMED))
        self.new_archers = []
        self.sqlite = db.dialect == "sqlite"
        self.next = {name: run(db, q).fetchone()[0] if self.sqlite else 0 for name, q in _NEXT.items()}
        self.matches, self.match_archers, self.games, self.turns = [], [], [], []
        self.arrows = []  # per game: (turn ids, numbers in turn, events, outcomes), zipped on write
        self.now = time.time()

    def _id(self, table):
        self.next[table] += 1
        return self.next[table] if self.sqlite else -self.next[table]

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
        if not self.sqlite:
            self._number()
        written = (self.new_archers, self.matches, self.match_archers, self.games, self.turns)
        for (table, columns), rows in zip(INSERTS, written):
            insert_rows(db, table, columns, rows)
        # An arrow goes in as its event and outcome; the database takes the columns apart
        # (arrow_columns), so no Python runs per arrow.
        rows = itertools.chain.from_iterable(zip(*a) for a in self.arrows)
        insert_made(db, t.arrows, ARROW_PARAMS, arrow_columns, rows)

    def _number(self):
        """The rows' own ids for the -1, -2, ... given in add: from the tables' sequences; a
        new archer's, that of the row of their name, added here unless another writer (a
        club pushing at the same time) has just added it."""
        ids = {table.name: [0] + next_ids(self.db, table, self.next[table.name]) for table in TABLES[1:]}
        m, g, tn = ids["matches"], ids["games"], ids["turns"]
        a = [0] * (len(self.new_archers) + 1)
        if self.new_archers:
            # another club's push may have added one since this one read the archers: read
            # them again under the names lock (to this transaction's end), add the others and
            # take each one's id
            self.db.lock_names()
            lowered = sorted({name.lower() for _, name in self.new_archers})
            by_name = {n.lower(): i for n, i in run(self.db, _ARCHERS_CASE_BLIND, {"names": lowered})}
            new = [name for _, name in self.new_archers if name.lower() not in by_name]  # as SQLite numbers them
            run_many(self.db, _ADD_ARCHER, [{"name": n} for n in new])
            by_name.update((n.lower(), i) for n, i in run(self.db, _ARCHERS_NAMED, {"names": new}))
            for i, name in self.new_archers:
                a[-i] = by_name[name.lower()]
            self.new_archers = []  # in the store already

        def real(i, given):
            return given[-i] if i < 0 else i

        self.new_archers = [(real(i, a), name) for i, name in self.new_archers]
        self.matches = [(real(r[0], m),) + r[1:] for r in self.matches]
        self.match_archers = [(real(r[0], m),) + r[1:3] + (real(r[3], a),) + r[4:] for r in self.match_archers]
        self.games = [(real(r[0], g), real(r[1], m)) + r[2:] for r in self.games]
        self.turns = [(real(r[0], tn), real(r[1], g)) + r[2:5] + (real(r[5], a),) for r in self.turns]
        self.arrows = [([tn[-i] for i in tids],) + tuple(rest) for tids, *rest in self.arrows]


_ADD_ARCHER = Each(lambda insert: insert(t.archers).values(name=bindparam("name")).on_conflict_do_nothing())
_ARCHERS_CASE_BLIND = select(t.archers.c.name, t.archers.c.id).where(
    func.lower(t.archers.c.name).in_(bindparam("names", expanding=True))
)
_ARCHERS_NAMED = select(t.archers.c.name, t.archers.c.id).where(
    t.archers.c.name.in_(bindparam("names", expanding=True))
)


def compile_rows(dialect_name):
    """Compile what a Rows runs, ahead (sql.compile_ahead): a new Rows reads the names and the
    highest ids, write() inserts each table's rows."""
    read = (_RENAMED, _NAMED, *_NEXT.values())
    compile_ahead(dialect_name, read, INSERTS, ((t.arrows, ARROW_PARAMS, arrow_columns),))


_RENAMED = select(t.archer_renames.c.old, t.archer_renames.c.archer_id)
_NAMED = select(t.archers.c.name, t.archers.c.id).order_by(t.archers.c.id.desc())
TABLES = (t.archers, t.matches, t.games, t.turns)
_NEXT = {table.name: select(func.coalesce(func.max(table.c.id), 0)) for table in TABLES}
# write()'s tables in the order it fills them (parents first), each with its columns
INSERTS = ((t.archers, ("id", "name")),) + tuple(
    (table, tuple(table.c.keys())) for table in (t.matches, t.match_archers, t.games, t.turns)
)
# The games, turns and arrows tables hold the rows of a game that gives them (its STORE's
# rows()): the registry's first's, whose rules say how an arrow event is laid out.
ARROWS = games.part(games.every()[0], "RULES")


ARROW_PARAMS = (("turn", int), ("number", int), ("event", int), ("outcome", int))  # an arrow as written


def _n(v):
    return literal_column(str(int(v)))


def arrow_columns(p):
    """An arrows row's columns made of its parameters: turn, number, event (the rules'
    layout: kind in bits 6-7, square in 2-5, value or the X's hit in 0-1) and outcome (an
    index into the rules' OUTCOMES)."""
    event = p["event"]
    kind = event.op(">>")(_n(6))
    return {
        "turn_id": p["turn"],
        "number": p["number"],
        "square": func.nullif(event.op(">>")(_n(2)).op("&")(_n(15)), _n(0)),
        "value": case((kind == _n(ARROWS.HIT), event.op("&")(_n(3))), else_=_n(0)),
        "called": case((kind == _n(ARROWS.CALLED), _n(1)), else_=_n(0)),
        "x_hit": case((kind == _n(ARROWS.CALLED), event.op("&")(_n(1)))),
        "outcome": case(*((p["outcome"] == _n(i), literal_column("'%s'" % o)) for i, o in enumerate(ARROWS.OUTCOMES))),
    }
