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
import unicodedata

from scorebox.store.errors import Refused
from scorebox.text import csv_rows, full_name, printable

MAX_NAME = 12  # characters the box keeps of a name (box/store.py NAME_MAX)
BOX_MAX = 200  # names the box keeps (box/store.py ROSTER_MAX): its heap holds them and more
# The names of unnamed sides: the box's A v B (both games), a script's X v O (Try-Tac-Toe);
# "-" is the box's "no 2nd archer". None of them is an archer.
PLACEHOLDERS = ("A", "B", "X", "O")
FULL_MAX = 60  # characters of a full name kept on the PC
CLUB_MAX = 60  # characters of a guest's home club: a league club's name (league/clubs.py MAX_NAME)
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
    """A name as typed, without the spaces around it; Refused says why the box cannot take it."""
    name = name.strip() if isinstance(name, str) else ""
    why = problem(name)
    if why:
        raise Refused(why)
    return name


def home_club(club):
    """A guest archer's home club as typed, without the spaces around it: the league club's
    name (docs/league.md); None for the club's own ("" or nothing). Refused unless a line of
    text of at most CLUB_MAX characters."""
    club = club.strip() if isinstance(club, str) else ""
    if not club:
        return None
    if len(club) > CLUB_MAX or not club.isprintable():
        raise Refused("a club's name is a line of text of at most %d characters: %r" % (CLUB_MAX, club))
    return club


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


class MemberList:
    """What importing a club's member list (a CSV file, text.csv_rows) does: new archers as
    (full name, box name), retired ones back, and counts of the rest. Read in one pass with
    the roster held once by name: time and memory in proportion to the names.

    columns: (first, last or None) by their places in the file's first line, instead of by
    their headings (the desk's column mapping); boxes: {full name: box name} chosen instead of
    the names made (the desk's preview, where each is editable), held to the same rules."""

    SHOWN = 10  # refused lines quoted; the rest are counted
    SAME = 200  # names on the roster already or repeated listed, for the desk's preview

    def __init__(self, rows, path, renamed=(), columns=None, boxes=None):
        self.new, self.back = [], []  # [(full name, box name)], [(id, name)]
        self.known = self.repeated = 0  # on the roster already; a name given again in the file
        self.same = []  # [(line, full name, the roster's name or None when repeated)] of the first SAME
        self.refused, self.refused_count = [], 0  # [(line, why)] of the first SHOWN
        known, taken = {}, {n.casefold() for n in renamed}  # renamed: names archers had before a rename
        for aid, name, retired, full in rows:  # (id, name, retired, full name) of every archer
            taken.add(name.casefold())
            for key in (full or name, name):
                known.setdefault(key.casefold(), (aid, name, retired))
        held = set(taken)  # the roster's names: a chosen box name is none of them
        seen, numbered, count = set(), {}, 0
        for line, first, last in csv_rows(path, Refused, columns=columns):
            full = full_name(first, last)
            if not full:
                continue
            count += 1
            if count > IMPORT_MAX:
                raise Refused("%s: more than %d names: not a club's member list" % (path, IMPORT_MAX))
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
                    self._same(line, full, None)
                    continue
                seen |= keys
                row = known.get(full.casefold()) or known.get(boxed.casefold())
                if row and row[2]:
                    self.back.append(row[:2])
                elif row:
                    self.known += 1
                    self._same(line, full, row[1])
                else:
                    box = box_name(first, last, taken, numbered)
                    if box is None:
                        self._refuse(line, problem(boxed))
                        continue
                    taken.add(box.casefold())
                    self.new.append((full, box))
        if boxes:
            self._choose(boxes, held)

    def _choose(self, boxes, held):
        """The box names chosen for new archers instead of those made: each one the box can
        take, on no one else on the roster or in the list (any case); Refused says which not."""
        unknown = set(boxes) - {full for full, _ in self.new}
        if unknown:
            raise Refused("%r is not a new archer of this list (the roster changed?): preview it again" % min(unknown))
        new, given = [], {}
        for full, box in self.new:
            box = clean(boxes.get(full, box))
            key = box.casefold()
            if key in held:
                raise Refused("%r is on the roster already: choose another box name for %s" % (box, full))
            if key in given:
                raise Refused("%r is given to %s and %s: a box name is one archer's" % (box, given[key], full))
            given[key] = full
            new.append((full, box))
        self.new = new

    def _same(self, line, full, name):
        if len(self.same) < self.SAME:
            self.same.append((line, full, name))

    def _refuse(self, line, why):
        self.refused_count += 1
        if len(self.refused) < self.SHOWN:
            self.refused.append((line, why))

    def made(self):
        """How many new archers get a box name other than their name."""
        return sum(full != box for full, box in self.new)


def not_on_roster(names, known_rows):
    """One line for names that are not on the roster (known_rows: its (name, full name) rows),
    each with the nearest that are; None when all are."""
    rows = list(known_rows)
    on = {n.casefold() for n, _ in rows}
    missing = [n for n in names if n.strip().casefold() not in on]
    if not missing:
        return None
    known = {}
    for name, full in rows:
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
