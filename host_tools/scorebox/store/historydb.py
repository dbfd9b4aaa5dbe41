"""An export's reads and an import's writes in the store (store/export.py writes the files and
reads them back): the Store's methods for `scorebox export` and `scorebox import`."""

import base64
from itertools import groupby

from sqlalchemy import bindparam, func, insert, literal_column, select, update

from scorebox.store import sql
from scorebox.store.tables import (
    archer_renames,
    archers,
    arrows,
    devices,
    games,
    match_archers,
    matches,
    quarantine,
    turns,
)

a, d, m, x = archers, devices, matches, match_archers


def _sides(*names):
    """x.side IN these, written into the statement (no parameter to expand at each run)."""
    return x.c.side.in_([literal_column("'%s'" % n) for n in names])


# The arrows in play order as the tables are read, matches first (SQLite's CROSS JOIN: its
# planner would read the arrows first, then sort them all).
_PLAYED = sql.cross_join(m, games, games.c.match_id == m.c.id)
_PLAYED = sql.cross_join(_PLAYED, turns, turns.c.game_id == games.c.id)
_PLAYED = sql.cross_join(_PLAYED, arrows, arrows.c.turn_id == turns.c.id)
_ARROWS = (
    select(
        d.c.uid.concat(literal_column("'/'")).concat(m.c.number),
        games.c.number,
        turns.c.round,
        turns.c.number,
        turns.c.side,
        a.c.name,
        arrows.c.number,
        arrows.c.square,
        arrows.c.value,
        arrows.c.called,
        arrows.c.x_hit,
        arrows.c.outcome,
    )
    .select_from(_PLAYED.join(d, d.c.id == m.c.device_id).outerjoin(a, a.c.id == turns.c.archer_id))
    .order_by(m.c.id, games.c.number, turns.c.number, arrows.c.number)
)


def _names(sides):
    """The JSON array of a match's names on sides, in their order."""
    names = (
        select(a.c.name)
        .select_from(x.join(a, a.c.id == x.c.archer_id))
        .where(x.c.match_id == m.c.id, _sides(*sides))
        .order_by(x.c.position)
        .correlate(m)
        .subquery("names")
    )
    return select(sql.json_array(names.c.name)).scalar_subquery()


_MATCHES = (
    select(
        d.c.uid,
        m.c.number,
        m.c.started,
        m.c.winner,
        m.c.wins_a,
        m.c.wins_b,
        m.c.draws,
        m.c.finished,
        m.c.imported,
        m.c.header,
        m.c.log,
        m.c.extras,
        _names(("A", "X")),
        _names(("B", "O")),
        select(func.count()).select_from(games).where(games.c.match_id == m.c.id).scalar_subquery(),
        select(func.count())
        .select_from(games.join(turns, turns.c.game_id == games.c.id).join(arrows, arrows.c.turn_id == turns.c.id))
        .where(games.c.match_id == m.c.id)
        .scalar_subquery(),
    )
    .select_from(m.join(d, d.c.id == m.c.device_id))
    .order_by(m.c.id)
)
_DEVICES = select(d.c.uid, d.c.name, d.c.firmware, d.c.first_seen, d.c.last_seen).order_by(d.c.id)
# no column keeps the order renames came in: their times
_RENAMES = select(archer_renames.c.old, archer_renames.c.archer_id, archer_renames.c.renamed).order_by(
    archer_renames.c.renamed
)
_ROSTER = select(a.c.id, a.c.name, a.c.full_name, a.c.retired, a.c.added, a.c.club).order_by(a.c.id)
_QUARANTINE = (
    select(d.c.uid, quarantine.c.file, quarantine.c.offset, quarantine.c.data, quarantine.c.imported)
    .select_from(quarantine.join(d, d.c.id == quarantine.c.device_id))
    .order_by(quarantine.c.id)
)
_UIDS = select(d.c.uid)
_BOX = select(d.c.id).where(d.c.uid == bindparam("uid")).scalar_subquery()
_KNOWN_BOX = (
    update(d)
    .where(d.c.uid == bindparam("uid"))
    .values(
        firmware=func.coalesce(d.c.firmware, bindparam("firmware")),
        first_seen=sql.least(d.c.first_seen, bindparam("first_seen")),
        last_seen=sql.greatest(d.c.last_seen, bindparam("last_seen")),
        name=func.coalesce(d.c.name, bindparam("name")),
    )
)
_NEW_BOX = (
    update(d)
    .where(d.c.uid == bindparam("uid"))
    .values(
        firmware=bindparam("firmware"),
        first_seen=bindparam("first_seen"),
        last_seen=bindparam("last_seen"),
        name=bindparam("name"),
    )
)
_OLD_NAMES = select(archer_renames.c.old)
_ADD = insert(a).values(
    name=bindparam("name"),
    retired=bindparam("retired"),
    added=bindparam("added"),
    full_name=bindparam("full_name"),
    club=bindparam("club"),
)
_ARCHER_ID = select(a.c.id).where(a.c.name == bindparam("name"))
_RENAMED = insert(archer_renames).values(
    old=bindparam("old"), archer_id=bindparam("archer_id"), renamed=bindparam("renamed")
)
# the matches imported at one time, in one statement
_IMPORTED = (
    update(m)
    .where(m.c.device_id == _BOX, m.c.number.in_(bindparam("numbers", expanding=True)))
    .values(imported=bindparam("imported"))
)
_MATCH_NAMES = (
    select(m.c.id, a.c.name)
    .select_from(m.outerjoin(x, x.c.match_id == m.c.id).outerjoin(a, a.c.id == x.c.archer_id))
    .where(m.c.device_id == _BOX, m.c.number == bindparam("number"))
    .order_by(_sides("B", "O"), x.c.position)
)
_PIECE_IMPORTED = (
    update(quarantine)
    .where(
        quarantine.c.file == bindparam("file"),
        quarantine.c.offset == bindparam("offset"),
        quarantine.c.device_id == _BOX,
    )
    .values(imported=bindparam("imported"))
)


class HistoryDB:
    """A part of the Store (self.db is its connection; `with self.transaction():` one write
    transaction)."""

    # --- what an export reads ---------------------------------------------------------------
    def match_records(self):
        """Each match in store order: (device, number, started, winner, wins_a, wins_b, draws,
        finished, imported, header JSON, log JSON, extras JSON, side A's names JSON, side B's,
        games, arrows)."""
        return sql.run(self.db, _MATCHES)

    def arrow_batches(self, size=20000):
        """Every arrow (export.ARROW_COLUMNS) in play order, in lists of up to size rows."""
        cur = sql.run(self.db, _ARROWS)
        while True:
            rows = cur.fetchmany(size)
            if not rows:
                return
            yield rows

    def device_records(self):
        return [
            {"uid": u, "name": n, "firmware": f, "first_seen": a, "last_seen": b}
            for u, n, f, a, b in sql.run(self.db, _DEVICES)
        ]

    def archer_records(self):
        """The roster (store/roster.py): every archer, retired or not, with the names they had
        before a rename (which a box may still key, and which the store maps to them)."""
        was = {}
        for old, aid, t in sql.run(self.db, _RENAMES):
            was.setdefault(aid, []).append({"old": old, "renamed": t})
        return [
            {"name": n, "full_name": f, "retired": r, "added": t, "was": was.get(i, []), "club": c}
            for i, n, f, r, t, c in sql.run(self.db, _ROSTER)
        ]

    def quarantine_records(self):
        return [
            {"device": u, "file": f, "offset": o, "data": base64.b64encode(d).decode("ascii"), "imported": t}
            for u, f, o, d, t in sql.run(self.db, _QUARANTINE)
        ]

    # --- what an import writes --------------------------------------------------------------
    def device_ids(self):
        """The ids of the boxes the store has met."""
        return {r[0] for r in sql.run(self.db, _UIDS)}

    def import_device(self, d, known):
        """A box's record from an export: known (seen here before), the earliest and the
        latest of both records and its name here; else the file's."""
        sql.run(
            self.db,
            _KNOWN_BOX if known else _NEW_BOX,
            {
                "firmware": d.get("firmware"),
                "first_seen": d["first_seen"],
                "last_seen": d["last_seen"],
                "name": d.get("name"),
                "uid": d["uid"],
            },
        )

    def import_roster(self, roll):
        """An export's roster [(name, retired, added, [(old name, renamed)], full name, home
        club)]: archers the store lacks (any case), as named, retired and added there, a
        guest with their club; the names they had before a rename, unless the store maps
        them already."""

        if not roll:
            return
        with self.transaction():
            renamed = {r[0].casefold() for r in sql.run(self.db, _OLD_NAMES)}
            for name, retired, added, was, full, club in roll:
                row = self.find_archer(name)
                if row is None:
                    sql.run(
                        self.db,
                        _ADD,
                        {"name": name, "retired": retired, "added": added, "full_name": full, "club": club},
                    )
                    # by its name (unique), not lastrowid: sqlite3's, which psycopg has not
                    aid = sql.run(self.db, _ARCHER_ID, {"name": name}).fetchone()[0]
                else:
                    aid = row[0]
                for old, t in was:
                    if old.casefold() not in renamed:
                        renamed.add(old.casefold())
                        sql.run(self.db, _RENAMED, {"old": old, "archer_id": aid, "renamed": t})

    def keep_import_times(self, uid, times):
        """Set when matches of box uid were first imported: [(imported, number)]."""
        if not times:
            return
        with self.transaction():
            for t, same in groupby(sorted(times, key=lambda r: r[0]), key=lambda r: r[0]):
                sql.run(self.db, _IMPORTED, {"imported": t, "uid": uid, "numbers": [n for _, n in same]})

    def match_names(self, uid, number):
        """(store id, [side A's names, then B's, as the store names them]) of match number
        of box uid."""
        rows = sql.run(self.db, _MATCH_NAMES, {"uid": uid, "number": number}).fetchall()
        return rows[0][0], [n for _, n in rows if n is not None]

    def import_quarantine(self, uid, name, offset, raw, imported):
        """A quarantined piece from an export, with its import time; whether it was new."""
        if not self.add_quarantine(uid, [(name, offset, raw)]):
            return False
        sql.run(self.db, _PIECE_IMPORTED, {"imported": imported, "file": name, "offset": offset, "uid": uid})
        return True
