"""The club's roster: the archers the store knows, what `scorebox archers` changes and what
sync sends to the box (docs/sync.md, "The roster").

An archer is one row of the archers table whatever the case of the name: names are kept as
typed and compared case-insensitively ("ann" finds Ann). Matches point at archers by id,
so a rename is one row and the history follows it. A retired archer keeps every match and
statistic but leaves the box's list. Names are held to what the box can show and key
(box/store.py: printable ASCII, at most 12 characters); names that came in with matches
from a box are kept whatever they are. An archer imported from a member list keeps their
full name beside the box's name made from it (`full_name`, NULL when the two are one).
"""

import difflib
import time
import unicodedata

from scorebox.store.db import StoreError
from scorebox.text import csv_rows, full_name, printable
from scorebox_core.ttb.rules import SIDES, rotation

MAX_NAME = 12  # characters the box keeps of a name (box/store.py NAME_MAX)
BOX_MAX = 200  # names the box keeps (box/store.py ROSTER_MAX): its heap holds them and more
# The names of unnamed sides: the box's A v B (both games), a script's X v O (Try-Tac-Toe);
# "-" is the box's "no 2nd archer". None of them is an archer.
PLACEHOLDERS = ("A", "B", "X", "O")
FULL_MAX = 60  # characters of a full name kept on the PC
IMPORT_MAX = 50000  # names in one member list: a club's, with room to spare (memory stays small)
# Letters the box's plain ASCII spells out where Unicode's decomposition has no accent to drop.
_SPELT = str.maketrans(
    {
        "ß": "ss",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "Th",
        "ı": "i",
        "\u2018": "'",
        "\u2019": "'",
        "\u2013": "-",
    }
)


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
    if name == "-" or name.upper() in PLACEHOLDERS:
        return "%r is what the box calls an unnamed side" % name
    return None


def clean(name):
    """A name as typed, without the spaces around it; StoreError says why the box cannot take it."""
    name = name.strip() if isinstance(name, str) else ""
    why = problem(name)
    if why:
        raise StoreError(why)
    return name


def plain(name):
    """name in the box's plain ASCII, spaces collapsed: accents dropped ("Zoë" -> "Zoe"), a few
    letters spelt out ("ß" -> "ss"); None when a character has no such spelling."""
    out = []
    for ch in unicodedata.normalize("NFKD", " ".join(name.split()).translate(_SPELT)):
        if 32 <= ord(ch) < 127:
            out.append(ch)
        elif not unicodedata.combining(ch):
            return None
    return " ".join("".join(out).split())


def box_name(first, last, taken, numbered):
    """The box's name for an archer called first last (plain ASCII): the whole name when it
    fits the box, else the first name and as much of the last name's start as fits ("Alexandra
    M", "Alexandra Mo"), else numbered ("Alexandra M2"); never one in taken (casefolded
    names). numbered: {base: the next number}, kept across calls so that many names with one
    base cost no more than few. None when the box takes no name made from it ("A", "-")."""
    if not last and " " in first:
        first, last = first.rsplit(" ", 1)
    whole = full_name(first, last)
    if len(whole) <= MAX_NAME and problem(whole):
        return None
    given = first[: MAX_NAME - 2].rstrip()
    tries = [whole] + [full_name(given, last[:k]) for k in range(1, len(last) + 1)]
    for name in tries:
        if len(name) <= MAX_NAME and problem(name) is None and name.casefold() not in taken:
            return name
    base = full_name(given, last[:1]) if last else whole[:MAX_NAME]
    n = numbered.get(base.casefold(), 2)
    while True:
        name = base[: MAX_NAME - len(str(n))].rstrip() + str(n)
        n += 1
        if problem(name) is None and name.casefold() not in taken:
            numbered[base.casefold()] = n
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
    """[(name, retired, matches, last match started, full name or None)] by name, placeholders
    left out."""
    rows = db.execute(
        "SELECT a.name, a.retired, count(m.id), max(m.started), a.full_name FROM archers a "
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


class MemberList:
    """What importing a club's member list (a CSV file, text.csv_rows) does: new archers as
    (full name, box name), retired ones back, and counts of the rest. Read in one pass with
    the roster held once by name: time and memory in proportion to the names."""

    SHOWN = 10  # refused lines quoted; the rest are counted

    def __init__(self, db, path):
        self.new, self.back = [], []  # [(full name, box name)], [(id, name)]
        self.known = self.repeated = 0  # on the roster already; a name given again in the file
        self.refused, self.refused_count = [], 0  # [(line, why)] of the first SHOWN
        known, taken = {}, set()
        for aid, name, retired, full in db.execute("SELECT id, name, retired, full_name FROM archers"):
            taken.add(name.casefold())
            for key in (full or name, name):
                known.setdefault(key.casefold(), (aid, name, retired))
        seen, numbered, count = set(), {}, 0
        for line, first, last in csv_rows(path, StoreError):
            full = full_name(first, last)
            if not full:
                continue
            count += 1
            if count > IMPORT_MAX:
                raise StoreError("%s: more than %d names: not a club's member list" % (path, IMPORT_MAX))
            first, last = plain(first), plain(last)
            boxed = first is not None and last is not None and full_name(first, last)  # its plain ASCII
            if printable(full) != full:
                self._refuse(line, "%r has a control character" % full)
            elif len(full) > FULL_MAX:
                self._refuse(line, "%r is %d characters: a full name has %d at most" % (full, len(full), FULL_MAX))
            elif not boxed:
                self._refuse(
                    line, "%r has no plain-ASCII spelling: `scorebox archers add` a name the box can show" % full
                )
            else:
                keys = {full.casefold(), boxed.casefold()}
                if keys & seen:
                    self.repeated += 1
                    continue
                seen |= keys
                row = known.get(full.casefold()) or known.get(boxed.casefold())
                if row and row[2]:
                    self.back.append(row[:2])
                elif row:
                    self.known += 1
                else:
                    box = box_name(first, last, taken, numbered)
                    if box is None:
                        self._refuse(line, problem(boxed))
                        continue
                    taken.add(box.casefold())
                    self.new.append((full, box))

    def _refuse(self, line, why):
        self.refused_count += 1
        if len(self.refused) < self.SHOWN:
            self.refused.append((line, why))

    def made(self):
        """How many new archers get a box name other than their name."""
        return sum(full != box for full, box in self.new)

    def save(self, db):
        now = time.time()
        db.executemany(
            "INSERT INTO archers (name, added, full_name) VALUES (?, ?, ?)",
            [(box, now, None if full == box else full) for full, box in self.new],
        )
        db.executemany("UPDATE archers SET retired = 0 WHERE id = ?", [(aid,) for aid, _ in self.back])


def import_csv(db, path, confirmed=False):
    """The MemberList of a CSV file, read inside one write transaction (what it adds is what
    the store lacks) and saved there, all or nothing, unless it made a box name from a longer
    name and is not confirmed: .saved says which."""

    def run():
        got = MemberList(db, path)
        got.saved = confirmed or not got.made()
        if got.saved:
            got.save(db)
        return got

    return _write(db, run)


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
    """Add the names on a box that the store lacks (never drops them), BOX_MAX at most (what
    a box holds: a box that lists more is not a box's list); returns (added, left out). A name
    the store has, retired or not, is left as it is: a retired archer stays retired and the
    box's next list leaves them out (#21 item 3); a name from before a rename is the renamed
    archer's (store/db.py maps their matches)."""

    def run():
        have = {r[0].casefold() for r in db.execute("SELECT name FROM archers UNION SELECT old FROM archer_renames")}
        added, left = [], []
        for name in names:
            name = name.strip() if isinstance(name, str) else ""
            if problem(name) is None and name.casefold() not in have:
                have.add(name.casefold())
                (added if len(added) < BOX_MAX else left).append(name)
        now = time.time()
        db.executemany("INSERT INTO archers (name, added) VALUES (?, ?)", [(n, now) for n in added])
        return added, left

    return _write(db, run)


def not_on_roster(db, names):
    """One line for names that are not on the roster, each with the nearest that are; None
    when all are."""
    missing = [n for n in names if find(db, n) is None]
    if not missing:
        return None
    known = {}
    for name, full in db.execute("SELECT name, full_name FROM archers"):
        if name not in PLACEHOLDERS:
            known.setdefault(name.casefold(), name)
            if full:
                known.setdefault(full.casefold(), name)
    said = []
    for name in missing:
        near = difflib.get_close_matches(name.casefold(), list(known), n=5, cutoff=0.6)
        near = list(dict.fromkeys(known[k] for k in near))[:3]
        said.append("%r (%s)" % (name, "nearest: " + ", ".join(near) if near else "no name near it"))
    return "not on the roster: %s; check the spelling, or --add adds them as new archers" % "; ".join(said)


# --- who shot a match ------------------------------------------------------------------------
def name_match(db, match_id, names, add=True):
    """Set who shot a stored match: names for side A's archers, then side B's, as many as the
    match has, in order. Each turn's archer follows the rotation (TTB-2). A name not on the
    roster is added, or with add=False refused with the nearest names (#21 item 10: a typo
    made a new archer). Returns the sides' names as stored."""
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
    missing = None if add else not_on_roster(db, names)
    if missing:
        raise StoreError(missing)

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
