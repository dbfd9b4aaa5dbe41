"""The club's roster: the archers the store knows, what `scorebox archers` changes and what
sync sends to the box (docs/sync.md, "The roster").

An archer is one row of the archers table whatever the case of the name: names are kept as
typed and compared case-insensitively ("ann" finds Ann). Matches point at archers by id,
so a rename is one row and the history follows it. A retired archer keeps every match and
statistic but leaves the box's list. Names are held to what the box can show and key
(box/store.py: printable ASCII, at most 12 characters); names that came in with matches
from a box are kept whatever they are.
"""

import time

from scorebox.store.db import StoreError
from scorebox.text import csv_names
from scorebox_core.ttb.rules import SIDES, rotation

MAX_NAME = 12  # characters the box keeps of a name (box/store.py NAME_MAX)
BOX_MAX = 200  # names the box keeps (box/store.py ROSTER_MAX): its heap holds them and more
PLACEHOLDERS = ("A", "B")  # the box's names for unnamed sides; "-" is its "no 2nd archer"


def problem(name):
    """Why the box could not take this name, or None. The same test as box/store.py's."""
    if not name:
        return "a name cannot be empty"
    for ch in name:
        if ord(ch) < 32 or ord(ch) == 127:
            return "%r has a control character (%r)" % (name, ch)
    for ch in name:
        if ord(ch) > 126:
            return "%r has %r: the box shows plain ASCII letters, digits and punctuation only" % (name, ch)
    if len(name) > MAX_NAME:
        return "%r is %d characters: the box takes %d at most" % (name, len(name), MAX_NAME)
    if name in PLACEHOLDERS or name == "-" or name.casefold() in ("a", "b"):
        return "%r is what the box calls an unnamed side" % name
    return None


def clean(name):
    """A name as typed, without the spaces around it; StoreError says why the box cannot take it."""
    name = name.strip() if isinstance(name, str) else ""
    why = problem(name)
    if why:
        raise StoreError(why)
    return name


def _all(db):
    return db.execute("SELECT id, name, retired FROM archers ORDER BY id").fetchall()


def find(db, name):
    """(id, name, retired) of the archer called name in any case, or None."""
    key = name.strip().casefold()
    for row in _all(db):
        if row[1].casefold() == key:
            return row
    return None


def get(db, name):
    row = find(db, name)
    if row is None:
        raise StoreError("no archer called %r (see `scorebox archers list`)" % name)
    return row


def listing(db, retired=False):
    """[(name, retired, matches, last match started)] by name, placeholders left out."""
    rows = db.execute(
        "SELECT a.name, a.retired, count(m.id), max(m.started) FROM archers a "
        "LEFT JOIN match_archers x ON x.archer_id = a.id LEFT JOIN matches m ON m.id = x.match_id "
        "WHERE a.retired <= ? GROUP BY a.id",
        (1 if retired else 0,),
    ).fetchall()
    return sorted((r for r in rows if r[0] not in PLACEHOLDERS), key=lambda r: r[0].casefold())


def _write(db, fn):
    db.execute("BEGIN IMMEDIATE")
    try:
        got = fn()
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return got


def _add(db, name, now):
    """'added', 'back' (was retired) or 'exists: NAME'."""
    row = find(db, name)
    if row is None:
        db.execute("INSERT INTO archers (name, added) VALUES (?, ?)", (name, now))
        return "added"
    if row[2]:
        db.execute("UPDATE archers SET retired = 0 WHERE id = ?", (row[0],))
        return "back"
    return "exists: %s" % row[1]


def add(db, name):
    """Add an archer to the roster (or bring a retired one back); returns what happened."""
    name = clean(name)
    return _write(db, lambda: _add(db, name, time.time()))


def rename(db, old, new):
    """Rename an archer: every match follows (they point at the archer's row)."""
    aid, was, _ = get(db, old)
    new = clean(new)
    other = find(db, new)
    if other is not None and other[0] != aid:
        raise StoreError("%r exists already: a rename cannot join two archers" % other[1])

    def run():
        db.execute("UPDATE archers SET name = ? WHERE id = ?", (new, aid))
        if was.casefold() != new.casefold():  # a box or a later match may still say the old name
            db.execute("INSERT INTO archer_renames (old, archer_id, renamed) VALUES (?, ?, ?)", (was, aid, time.time()))

    _write(db, run)
    return was, new


def retire(db, name):
    aid, name, _ = get(db, name)
    _write(db, lambda: db.execute("UPDATE archers SET retired = 1 WHERE id = ?", (aid,)))
    return name


def import_csv(db, path):
    """Add the names of a CSV file; returns (added names, [(line, name, why skipped)]).
    All or nothing: one transaction."""
    rows = csv_names(path, StoreError)
    added, skipped = [], []

    def run():
        now = time.time()
        for line, name in rows:
            name = name.strip()
            if not name:
                continue
            why = problem(name)
            got = "skip" if why else _add(db, name, now)
            if got in ("added", "back"):
                added.append(name)
            else:
                skipped.append((line, name, why or ("%r is on the roster already (as %s)" % (name, got[8:]))))

    _write(db, run)
    return added, skipped


def box_names(db, limit=BOX_MAX):
    """What sync sends to the box: archers on the roster the box can take, the most recently
    in a match first (the box's setup screen offers them in this order), then by name."""
    rows = db.execute(
        "SELECT a.name FROM archers a LEFT JOIN match_archers x ON x.archer_id = a.id "
        "LEFT JOIN matches m ON m.id = x.match_id WHERE a.retired = 0 "
        "GROUP BY a.id ORDER BY max(coalesce(m.started, 0)) DESC, max(coalesce(x.match_id, 0)) DESC, "
        "a.name COLLATE NOCASE"
    ).fetchall()
    return [r[0] for r in rows if problem(r[0]) is None][:limit]


def merge_from_box(db, names):
    """Add the names on a box that the store lacks (never drops them); returns those added.
    A retired archer stays retired: the box's next list leaves them out; a name from
    before a rename is the renamed archer's (store/db.py maps their matches)."""
    names = [n.strip() for n in names if isinstance(n, str) and problem(n.strip()) is None]
    renamed = {r[0].casefold() for r in db.execute("SELECT old FROM archer_renames")}

    def run():
        now = time.time()
        return [n for n in names if (n.casefold() not in renamed or find(db, n)) and _add(db, n, now) == "added"]

    return _write(db, run)


# --- who shot a match ------------------------------------------------------------------------
def name_match(db, match_id, names):
    """Set who shot a stored match: names for side A's archers, then side B's, as many as the
    match has, in order. Each turn's archer follows the rotation (TTB-2). Returns the sides'
    names as stored."""
    places = db.execute(
        "SELECT side, position FROM match_archers WHERE match_id = ? ORDER BY side, position", (match_id,)
    ).fetchall()
    order = ("X", "O") if any(s == "X" for s, _ in places) else SIDES  # a Try-Tac-Toe game: X's names first
    places.sort(key=lambda p: (order.index(p[0]), p[1]))
    if len(names) != len(places):
        raise StoreError(
            "this match has %d archers (%s): give %d names, side %s's then side %s's"
            % (len(places), "+".join(str(sum(1 for s, _ in places if s == x)) for x in order), len(places), *order)
        )
    sides = {x: [n for (s, _), n in zip(places, names) if s == x] for x in order}
    if any(len(set(n.casefold() for n in v)) != len(v) for v in sides.values()):
        raise StoreError("an archer can be named once in a side")
    if set(n.casefold() for n in sides[order[0]]) & set(n.casefold() for n in sides[order[1]]):
        raise StoreError("an archer cannot shoot for both sides")

    def run():
        now = time.time()
        ids = {}
        for side in order:
            ids[side] = []
            for name in sides[side]:
                row = find(db, name)
                if row is None:
                    _add(db, clean(name), now)
                    row = find(db, name)
                ids[side].append(row[0])
        for (side, pos), _ in zip(places, names):
            db.execute(
                "UPDATE match_archers SET archer_id = ? WHERE match_id = ? AND side = ? AND position = ?",
                (ids[side][pos], match_id, side, pos),
            )
        done = {x: 0 for x in SIDES}  # turns completed per side, across games: the rotation (TTB-2)
        turns = db.execute(
            "SELECT t.id, t.side FROM turns t JOIN games g ON g.id = t.game_id WHERE g.match_id = ? "
            "ORDER BY g.number, t.number",
            (match_id,),
        ).fetchall()
        db.executemany(
            "UPDATE turns SET archer_id = ? WHERE id = ?",
            [(ids[side][rotation(_next(done, side), len(ids[side]))], tid) for tid, side in turns],
        )
        return [[find(db, n)[1] for n in sides[x]] for x in order]

    return _write(db, run)


def _next(done, side):
    n = done[side]
    done[side] += 1
    return n
