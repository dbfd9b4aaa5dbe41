"""The roster's rows in the SQLite store (store/roster.py has the rules for names): the
Store's methods for `scorebox archers`, sync's merge with a box's list and naming a match."""

import json
import time

from scorebox.store import figures
from scorebox.store.errors import NotFound, Refused
from scorebox.store.roster import BOX_MAX, PLACEHOLDERS, MemberList, clean, home_club, not_on_roster, problem
from scorebox_core import games
from scorebox_core.sides import rotation


class RosterDB:
    """A part of the SQLite Store (self.db is its connection; `with self.transaction():`
    one write transaction)."""

    def find_archer(self, name):
        """(id, name, retired) of the archer called name in any case, or None."""
        key = name.strip().casefold()
        for row in self.db.execute("SELECT id, name, retired FROM archers ORDER BY id"):
            if row[1].casefold() == key:
                return row
        return None

    def _archer(self, name):
        row = self.find_archer(name)
        if row is None:
            raise NotFound("no archer called %r (see `scorebox archers list`)" % name)
        return row

    def archers(self, retired=False):
        """[(name, retired, matches, last match started, full name or None, home club or
        None)] by name, placeholders left out."""
        rows = self.db.execute(
            "SELECT a.name, a.retired, count(m.id), max(m.started), a.full_name, a.club FROM archers a "
            "LEFT JOIN match_archers x ON x.archer_id = a.id LEFT JOIN matches m ON m.id = x.match_id "
            "WHERE a.retired <= ? GROUP BY a.id",
            (1 if retired else 0,),
        ).fetchall()
        return sorted((r for r in rows if r[0] not in PLACEHOLDERS), key=lambda r: r[0].casefold())

    def _add_archer(self, name, now):
        """'added', 'back' (was retired) or 'exists: NAME'."""
        row = self.find_archer(name)
        if row is None:
            self.db.execute("INSERT INTO archers (name, added) VALUES (?, ?)", (name, now))
            return "added"
        if row[2]:
            self.db.execute("UPDATE archers SET retired = 0 WHERE id = ?", (row[0],))
            return "back"
        return "exists: %s" % row[1]

    def add_archer(self, name):
        """Add an archer to the roster (or bring a retired one back); returns what happened."""
        name = clean(name)
        with self.transaction():
            return self._add_archer(name, time.time())

    def rename_archer(self, old, new):
        """Rename an archer: every match follows (they point at the archer's row)."""
        aid, was, _ = self._archer(old)
        new = clean(new)
        other = self.find_archer(new)
        if other is not None and other[0] != aid:
            raise Refused("%r exists already: a rename cannot join two archers" % other[1])

        with self.transaction():
            self.db.execute("UPDATE archers SET name = ? WHERE id = ?", (new, aid))
            if was.casefold() != new.casefold():  # a box or a later match may still say the old name
                self.db.execute(
                    "INSERT INTO archer_renames (old, archer_id, renamed) VALUES (?, ?, ?)", (was, aid, time.time())
                )
        return was, new

    def set_club(self, name, club):
        """A guest archer's home club (store/roster.py's home_club: None, the club's own), which
        `scorebox push` tells the league (docs/league.md); returns (name, club)."""
        aid, name, _ = self._archer(name)
        if name in PLACEHOLDERS:  # every match's unnamed side would be that club's
            raise Refused("%r is what the box calls an unnamed side, not an archer" % name)
        club = home_club(club)
        with self.transaction():
            self.db.execute("UPDATE archers SET club = ? WHERE id = ?", (club, aid))
        return name, club

    def guest_clubs(self):
        """{casefolded name: home club} of the archers of another club (the names are one
        archer whatever their case)."""
        rows = self.db.execute("SELECT name, club FROM archers WHERE club IS NOT NULL")
        return {n.casefold(): c for n, c in rows}

    def retire_archer(self, name):
        aid, name, _ = self._archer(name)
        with self.transaction():
            self.db.execute("UPDATE archers SET retired = 1 WHERE id = ?", (aid,))
        return name

    def import_members(self, path, confirmed=False, columns=None, boxes=None, preview=False):
        """The MemberList of a CSV file, read inside one write transaction (what it adds is
        what the store lacks) and saved there, all or nothing, unless it made a box name from a
        longer name and is not confirmed, or it is a preview: .saved says which. columns,
        boxes: MemberList's (the desk's column mapping and box names edited)."""

        with self.transaction():
            # A name an archer had before a rename still files a box's matches under them
            # (store/rows.py) unless another archer has it: a derived name is never one of those.
            renamed = [r[0] for r in self.db.execute("SELECT old FROM archer_renames")]
            rows = self.db.execute("SELECT id, name, retired, full_name FROM archers")
            got = MemberList(rows, path, renamed, columns, boxes)
            got.saved = not preview and (confirmed or not got.made())
            if got.saved:
                now = time.time()
                self.db.executemany(
                    "INSERT INTO archers (name, added, full_name) VALUES (?, ?, ?)",
                    [(box, now, None if full == box else full) for full, box in got.new],
                )
                self.db.executemany("UPDATE archers SET retired = 0 WHERE id = ?", [(aid,) for aid, _ in got.back])
            return got

    def box_names(self, limit=BOX_MAX):
        """What sync sends to the box: archers on the roster the box can take, the most
        recently in a match first (the box's setup screen offers them in this order), then by
        name."""
        rows = self.db.execute(
            "SELECT a.name FROM archers a LEFT JOIN match_archers x ON x.archer_id = a.id "
            "LEFT JOIN matches m ON m.id = x.match_id WHERE a.retired = 0 "
            "GROUP BY a.id ORDER BY max(coalesce(m.started, 0)) DESC, max(coalesce(x.match_id, 0)) DESC, "
            "a.name COLLATE NOCASE"
        ).fetchall()
        return [r[0] for r in rows if problem(r[0]) is None][:limit]

    def merge_from_box(self, names):
        """Add the names on a box that the store lacks (never drops them), BOX_MAX at most
        (what a box holds: a box that lists more is not a box's list); returns (added, left
        out). A name the store has, retired or not, is left as it is: a retired archer stays
        retired and the box's next list leaves them out; a name from before a
        rename is the renamed archer's (store/rows.py maps their matches)."""

        with self.transaction():
            have = {
                r[0].casefold()
                for r in self.db.execute("SELECT name FROM archers UNION SELECT old FROM archer_renames")
            }
            added, left = [], []
            for name in names:
                name = name.strip() if isinstance(name, str) else ""
                if problem(name) is None and name.casefold() not in have:
                    have.add(name.casefold())
                    (added if len(added) < BOX_MAX else left).append(name)
            now = time.time()
            self.db.executemany("INSERT INTO archers (name, added) VALUES (?, ?)", [(n, now) for n in added])
            return added, left

    # --- who shot a match ------------------------------------------------------------------
    def name_match(self, match_id, names, add=True):
        """Set who shot a stored match: names for side A's archers, then side B's, as many as
        the match has, in order. Each turn's archer follows the rotation (TTB-2). A name not on
        the roster is added, or with add=False refused with the nearest names (a
        typo made a new archer). Returns the sides' names as stored."""
        db = self.db
        places = db.execute(
            "SELECT side, position FROM match_archers WHERE match_id = ? ORDER BY side, position", (match_id,)
        ).fetchall()
        header = db.execute("SELECT header FROM matches WHERE id = ?", (match_id,)).fetchone() or ("{}",)
        order = tuple(games.of(json.loads(header[0])).SIDES)  # its game's sides: the first's names first
        places.sort(key=lambda p: (order.index(p[0]), p[1]))
        if len(names) != len(places):
            raise Refused(
                "this match has %d archers (%s): give %d names, side %s's then side %s's"
                % (len(places), "+".join(str(sum(1 for s, _ in places if s == x)) for x in order), len(places), *order)
            )
        sides = {x: [n for (s, _), n in zip(places, names) if s == x] for x in order}
        if any(len(set(n.casefold() for n in v)) != len(v) for v in sides.values()):
            raise Refused("an archer can be named once in a side")
        if set(n.casefold() for n in sides[order[0]]) & set(n.casefold() for n in sides[order[1]]):
            raise Refused("an archer cannot shoot for both sides")
        missing = None if add else not_on_roster(names, db.execute("SELECT name, full_name FROM archers"))
        if missing:
            raise Refused(missing)

        with self.transaction():
            now = time.time()
            ids = {}
            for side in order:
                ids[side] = []
                for name in sides[side]:
                    row = self.find_archer(name)
                    if row is None:
                        self._add_archer(clean(name), now)
                        row = self.find_archer(name)
                    ids[side].append(row[0])
            figures.take_back(db, match_id)  # its figures are its new archers' (store/figures.py)
            for (side, pos), _ in zip(places, names):
                db.execute(
                    "UPDATE match_archers SET archer_id = ? WHERE match_id = ? AND side = ? AND position = ?",
                    (ids[side][pos], match_id, side, pos),
                )
            done = {x: 0 for x in order}  # turns completed per side, across games: the rotation (TTB-2)
            turns = db.execute(
                "SELECT t.id, t.side FROM turns t JOIN games g ON g.id = t.game_id WHERE g.match_id = ? "
                "ORDER BY g.number, t.number",
                (match_id,),
            ).fetchall()
            db.executemany(
                "UPDATE turns SET archer_id = ? WHERE id = ?",
                [(ids[side][rotation(_next(done, side), len(ids[side]))], tid) for tid, side in turns],
            )
            figures.fill(db, match_id, match_id)
            return [[self.find_archer(n)[1] for n in sides[x]] for x in order]


def _next(done, side):
    n = done[side]
    done[side] += 1
    return n
