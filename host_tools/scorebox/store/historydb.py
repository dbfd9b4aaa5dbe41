"""An export's reads and an import's writes in the SQLite store (store/export.py writes the
files and reads them back): the Store's methods for `scorebox export` and `scorebox import`."""

import base64

_ARROWS_SQL = (
    "SELECT d.uid || '/' || m.number, g.number, t.round, t.number, t.side, a.name, r.number, r.square, r.value, "
    "r.called, r.x_hit, r.outcome FROM matches m CROSS JOIN games g ON g.match_id = m.id "
    "CROSS JOIN turns t ON t.game_id = g.id CROSS JOIN arrows r ON r.turn_id = t.id "
    "JOIN devices d ON d.id = m.device_id LEFT JOIN archers a ON a.id = t.archer_id "
    "ORDER BY m.id, g.number, t.number, r.number"
)

_MATCHES_SQL = (
    "SELECT d.uid, m.number, m.started, m.winner, m.wins_a, m.wins_b, m.draws, m.finished, m.imported, "
    "m.header, m.log, m.extras, "
    "(SELECT json_group_array(name) FROM (SELECT a.name FROM match_archers x JOIN archers a ON a.id = x.archer_id "
    " WHERE x.match_id = m.id AND x.side IN ('A', 'X') ORDER BY x.position)), "
    "(SELECT json_group_array(name) FROM (SELECT a.name FROM match_archers x JOIN archers a ON a.id = x.archer_id "
    " WHERE x.match_id = m.id AND x.side IN ('B', 'O') ORDER BY x.position)), "
    "(SELECT count(*) FROM games g WHERE g.match_id = m.id), "
    "(SELECT count(*) FROM games g JOIN turns t ON t.game_id = g.id JOIN arrows r ON r.turn_id = t.id "
    " WHERE g.match_id = m.id) "
    "FROM matches m JOIN devices d ON d.id = m.device_id ORDER BY m.id"
)


class HistoryDB:
    """A part of the SQLite Store (self.db is its connection; `with self.transaction():`
    one write transaction)."""

    # --- what an export reads ---------------------------------------------------------------
    def match_records(self):
        """Each match in store order: (device, number, started, winner, wins_a, wins_b, draws,
        finished, imported, header JSON, log JSON, extras JSON, side A's names JSON, side B's,
        games, arrows)."""
        return self.db.execute(_MATCHES_SQL)

    def arrow_batches(self, size=20000):
        """Every arrow (export.ARROW_COLUMNS) in play order, in lists of up to size rows."""
        cur = self.db.execute(_ARROWS_SQL)
        while True:
            rows = cur.fetchmany(size)
            if not rows:
                return
            yield rows

    def device_records(self):
        return [
            {"uid": u, "name": n, "firmware": f, "first_seen": a, "last_seen": b}
            for u, n, f, a, b in self.db.execute(
                "SELECT uid, name, firmware, first_seen, last_seen FROM devices ORDER BY id"
            )
        ]

    def archer_records(self):
        """The roster (store/roster.py): every archer, retired or not, with the names they had
        before a rename (which a box may still key, and which the store maps to them)."""
        was = {}
        for old, aid, t in self.db.execute("SELECT old, archer_id, renamed FROM archer_renames ORDER BY rowid"):
            was.setdefault(aid, []).append({"old": old, "renamed": t})
        return [
            {"name": n, "full_name": f, "retired": r, "added": t, "was": was.get(i, []), "club": c}
            for i, n, f, r, t, c in self.db.execute(
                "SELECT id, name, full_name, retired, added, club FROM archers ORDER BY id"
            )
        ]

    def quarantine_records(self):
        return [
            {"device": u, "file": f, "offset": o, "data": base64.b64encode(d).decode("ascii"), "imported": t}
            for u, f, o, d, t in self.db.execute(
                "SELECT d.uid, q.file, q.offset, q.data, q.imported FROM quarantine q "
                "JOIN devices d ON d.id = q.device_id ORDER BY q.id"
            )
        ]

    # --- what an import writes --------------------------------------------------------------
    def device_ids(self):
        """The ids of the boxes the store has met."""
        return {r[0] for r in self.db.execute("SELECT uid FROM devices")}

    def import_device(self, d, known):
        """A box's record from an export: known (seen here before), the earliest and the
        latest of both records and its name here; else the file's."""
        if known:
            self.db.execute(
                "UPDATE devices SET firmware = COALESCE(firmware, ?), first_seen = min(first_seen, ?), "
                "last_seen = max(last_seen, ?), name = COALESCE(name, ?) WHERE uid = ?",
                (d.get("firmware"), d["first_seen"], d["last_seen"], d.get("name"), d["uid"]),
            )
        else:
            self.db.execute(
                "UPDATE devices SET firmware = ?, first_seen = ?, last_seen = ?, name = ? WHERE uid = ?",
                (d.get("firmware"), d["first_seen"], d["last_seen"], d.get("name"), d["uid"]),
            )

    def import_roster(self, roll):
        """An export's roster [(name, retired, added, [(old name, renamed)], full name, home
        club)]: archers the store lacks (any case), as named, retired and added there, a
        guest with their club; the names they had before a rename, unless the store maps
        them already."""

        if not roll:
            return
        with self.transaction():
            renamed = {r[0].casefold() for r in self.db.execute("SELECT old FROM archer_renames")}
            for name, retired, added, was, full, club in roll:
                row = self.find_archer(name)
                if row is None:
                    self.db.execute(
                        "INSERT INTO archers (name, retired, added, full_name, club) VALUES (?, ?, ?, ?, ?)",
                        (name, retired, added, full, club),
                    )
                    # by its name (unique), not lastrowid: sqlite3's, which psycopg has not
                    aid = self.db.execute("SELECT id FROM archers WHERE name = ?", (name,)).fetchone()[0]
                else:
                    aid = row[0]
                for old, t in was:
                    if old.casefold() not in renamed:
                        renamed.add(old.casefold())
                        self.db.execute(
                            "INSERT INTO archer_renames (old, archer_id, renamed) VALUES (?, ?, ?)", (old, aid, t)
                        )

    def keep_import_times(self, uid, times):
        """Set when matches of box uid were first imported: [(imported, number)]."""
        if not times:
            return
        with self.transaction():
            self.db.executemany(
                "UPDATE matches SET imported = ? WHERE number = ? "
                "AND device_id = (SELECT id FROM devices WHERE uid = ?)",
                [(t, n, uid) for t, n in times],
            )

    def match_names(self, uid, number):
        """(store id, [side A's names, then B's, as the store names them]) of match number
        of box uid."""
        rows = self.db.execute(
            "SELECT m.id, a.name FROM matches m LEFT JOIN match_archers x ON x.match_id = m.id "
            "LEFT JOIN archers a ON a.id = x.archer_id WHERE m.device_id = (SELECT id FROM devices WHERE uid = ?) "
            "AND m.number = ? ORDER BY x.side IN ('B', 'O'), x.position",
            (uid, number),
        ).fetchall()
        return rows[0][0], [n for _, n in rows if n is not None]

    def import_quarantine(self, uid, name, offset, raw, imported):
        """A quarantined piece from an export, with its import time; whether it was new."""
        if not self.add_quarantine(uid, [(name, offset, raw)]):
            return False
        self.db.execute(
            "UPDATE quarantine SET imported = ? WHERE file = ? AND offset = ? AND "
            "device_id = (SELECT id FROM devices WHERE uid = ?)",
            (imported, name, offset, uid),
        )
        return True
