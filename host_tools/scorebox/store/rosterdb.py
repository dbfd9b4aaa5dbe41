"""The roster's rows in the store (store/roster.py has the rules for names): the Store's
methods for `scorebox archers`, sync's merge with a box's list and naming a match."""

import json
import time

from sqlalchemy import bindparam, func, insert, select, union, update

from scorebox.store import figures, sql
from scorebox.store.errors import NotFound, Refused
from scorebox.store.roster import BOX_MAX, PLACEHOLDERS, MemberList, clean, home_club, not_on_roster, problem
from scorebox.store.tables import archer_renames, archers, match_archers, matches, turns
from scorebox.store.tables import games as games_table
from scorebox_core import games
from scorebox_core.sides import rotation

a, x, m = archers, match_archers, matches
# an archer's matches, a LEFT JOIN: an archer in none is listed too
_PLAYED = a.outerjoin(x, x.c.archer_id == a.c.id).outerjoin(m, m.c.id == x.c.match_id)

_ARCHERS = select(a.c.id, a.c.name, a.c.retired).order_by(a.c.id)
_ROSTER = (
    select(a.c.name, a.c.retired, func.count(m.c.id), func.max(m.c.started), a.c.full_name, a.c.club)
    .select_from(_PLAYED)
    .where(a.c.retired <= bindparam("retired"))
    .group_by(a.c.id)
)
_BOX_NAMES = (
    select(a.c.name)
    .select_from(_PLAYED)
    .where(a.c.retired == 0)
    .group_by(a.c.id)
    .order_by(
        func.max(func.coalesce(m.c.started, 0)).desc(),
        func.max(func.coalesce(x.c.match_id, 0)).desc(),
        sql.nocase(a.c.name),
    )
)
_ADD = insert(a).values(name=bindparam("name"), added=bindparam("added"))
_BACK = update(a).where(a.c.id.in_(bindparam("ids", expanding=True))).values(retired=0)
_RETIRE = update(a).where(a.c.id == bindparam("id")).values(retired=1)
_RENAME = update(a).where(a.c.id == bindparam("id")).values(name=bindparam("name"))
_SET_CLUB = update(a).where(a.c.id == bindparam("id")).values(club=bindparam("club"))
_RENAMED = insert(archer_renames).values(
    old=bindparam("old"), archer_id=bindparam("archer_id"), renamed=bindparam("renamed")
)
_GUESTS = select(a.c.name, a.c.club).where(a.c.club.is_not(None))
_OLD_NAMES = select(archer_renames.c.old)
_MEMBERS = select(a.c.id, a.c.name, a.c.retired, a.c.full_name)
_NAMES = select(a.c.name, a.c.full_name)
_KNOWN = union(select(a.c.name), select(archer_renames.c.old))

_PLACES = select(x.c.side, x.c.position).where(x.c.match_id == bindparam("match_id")).order_by(x.c.side, x.c.position)
_HEADER = select(m.c.header).where(m.c.id == bindparam("match_id"))
_PLACE = (
    update(x)
    .where(x.c.match_id == bindparam("match_id"), x.c.side == bindparam("side"), x.c.position == bindparam("position"))
    .values(archer_id=bindparam("archer_id"))
)
_TURNS = (
    select(turns.c.id, turns.c.side)
    .select_from(turns.join(games_table, games_table.c.id == turns.c.game_id))
    .where(games_table.c.match_id == bindparam("match_id"))
    .order_by(games_table.c.number, turns.c.number)
)
# a match's turns of one archer, in one statement
_TURNS_ARCHER = update(turns).where(turns.c.id.in_(bindparam("ids", expanding=True))).values(archer_id=bindparam("aid"))


class RosterDB:
    """A part of the Store (self.db is its connection; `with self.transaction():` one write
    transaction)."""

    def find_archer(self, name):
        """(id, name, retired) of the archer called name in any case, or None."""
        key = name.strip().casefold()
        for row in sql.run(self.db, _ARCHERS):
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
        rows = sql.run(self.db, _ROSTER, {"retired": 1 if retired else 0}).fetchall()
        return sorted((r for r in rows if r[0] not in PLACEHOLDERS), key=lambda r: r[0].casefold())

    def _add_archer(self, name, now):
        """'added', 'back' (was retired) or 'exists: NAME'."""
        self.db.lock_names()  # no other writer adds the name meanwhile (a club's push: rows.py)
        row = self.find_archer(name)
        if row is None:
            sql.run(self.db, _ADD, {"name": name, "added": now})
            return "added"
        if row[2]:
            sql.run(self.db, _BACK, {"ids": [row[0]]})
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
            sql.run(self.db, _RENAME, {"name": new, "id": aid})
            if was.casefold() != new.casefold():  # a box or a later match may still say the old name
                sql.run(self.db, _RENAMED, {"old": was, "archer_id": aid, "renamed": time.time()})
            if was != new:
                self.log_renamed(aid, was, new)  # in each event of theirs (eventsdb.py)
        return was, new

    def set_club(self, name, club):
        """A guest archer's home club (store/roster.py's home_club: None, the club's own), which
        `scorebox push` tells the league (docs/league.md); returns (name, club)."""
        aid, name, _ = self._archer(name)
        if name in PLACEHOLDERS:  # every match's unnamed side would be that club's
            raise Refused("%r is what the box calls an unnamed side, not an archer" % name)
        club = home_club(club)
        with self.transaction():
            sql.run(self.db, _SET_CLUB, {"club": club, "id": aid})
        return name, club

    def guest_clubs(self):
        """{casefolded name: home club} of the archers of another club (the names are one
        archer whatever their case)."""
        rows = sql.run(self.db, _GUESTS)
        return {n.casefold(): c for n, c in rows}

    def retire_archer(self, name):
        aid, name, _ = self._archer(name)
        with self.transaction():
            sql.run(self.db, _RETIRE, {"id": aid})
        return name

    def import_members(self, path, confirmed=False, columns=None, boxes=None, preview=False):
        """The MemberList of a CSV file, read inside one write transaction (what it adds is
        what the store lacks) and saved there, all or nothing, unless it made a box name from a
        longer name and is not confirmed, or it is a preview: .saved says which. columns,
        boxes: MemberList's (the desk's column mapping and box names edited)."""

        with self.transaction():
            # A name an archer had before a rename still files a box's matches under them
            # (store/rows.py) unless another archer has it: a derived name is never one of those.
            renamed = [r[0] for r in sql.run(self.db, _OLD_NAMES)]
            rows = sql.run(self.db, _MEMBERS)
            got = MemberList(rows, path, renamed, columns, boxes)
            got.saved = not preview and (confirmed or not got.made())
            if got.saved:
                now = time.time()
                sql.insert_rows(
                    self.db,
                    archers,
                    ("name", "added", "full_name"),
                    [(box, now, None if full == box else full) for full, box in got.new],
                )
                if got.back:
                    sql.run(self.db, _BACK, {"ids": [aid for aid, _ in got.back]})
            return got

    def box_names(self, limit=BOX_MAX):
        """What sync sends to the box: archers on the roster the box can take, the most
        recently in a match first (the box's setup screen offers them in this order), then by
        name."""
        rows = sql.run(self.db, _BOX_NAMES).fetchall()
        return [r[0] for r in rows if problem(r[0]) is None][:limit]

    def merge_from_box(self, names):
        """Add the names on a box that the store lacks (never drops them), BOX_MAX at most
        (what a box holds: a box that lists more is not a box's list); returns (added, left
        out). A name the store has, retired or not, is left as it is: a retired archer stays
        retired and the box's next list leaves them out; a name from before a
        rename is the renamed archer's (store/rows.py maps their matches)."""

        with self.transaction():
            have = {r[0].casefold() for r in sql.run(self.db, _KNOWN)}
            added, left = [], []
            for name in names:
                name = name.strip() if isinstance(name, str) else ""
                if problem(name) is None and name.casefold() not in have:
                    have.add(name.casefold())
                    (added if len(added) < BOX_MAX else left).append(name)
            now = time.time()
            sql.insert_rows(self.db, archers, ("name", "added"), [(n, now) for n in added])
            return added, left

    # --- who shot a match ------------------------------------------------------------------
    def name_match(self, match_id, names, add=True):
        """Set who shot a stored match: names for side A's archers, then side B's, as many as
        the match has, in order. Each turn's archer follows the rotation (TTB-2). A name not on
        the roster is added, or with add=False refused with the nearest names (a
        typo made a new archer). Returns the sides' names as stored."""
        db = self.db
        places = sql.run(db, _PLACES, {"match_id": match_id}).fetchall()
        header = sql.run(db, _HEADER, {"match_id": match_id}).fetchone() or ("{}",)
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
        missing = None if add else not_on_roster(names, sql.run(db, _NAMES))
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
                sql.run(db, _PLACE, {"archer_id": ids[side][pos], "match_id": match_id, "side": side, "position": pos})
            done = {x: 0 for x in order}  # turns completed per side, across games: the rotation (TTB-2)
            shot = {}  # archer id: the ids of the turns they shoot
            for tid, side in sql.run(db, _TURNS, {"match_id": match_id}).fetchall():
                shot.setdefault(ids[side][rotation(_next(done, side), len(ids[side]))], []).append(tid)
            for aid, tids in shot.items():
                sql.run(db, _TURNS_ARCHER, {"aid": aid, "ids": tids})
            figures.fill(db, match_id, match_id)
            return [[self.find_archer(n)[1] for n in sides[x]] for x in order]


def _next(done, side):
    n = done[side]
    done[side] += 1
    return n
