"""Text for the terminal: names from the store printed safely, counts in words, dates, a
match's result in words (said: every screen and export of the PC gives it so); and the names
in a club's CSV file.

Here, beside errors.py, so that every layer may use it (sync's `matches`, the store's
`boxes` and `archers import`, the reports, `sim --roster @FILE`)."""

import contextlib
import csv
import re
import time

from scorebox_core import games
from scorebox_core.match import result_text

# C0 and C1 controls, DEL, the Unicode line and paragraph separators and the bidi overrides:
# in a name they would move the cursor, recolour, clear or reorder the terminal.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(m):
    c = ord(m.group())
    return "\\x%02x" % c if c < 0x100 else "\\u%04x" % c


def printable(text, keep_newlines=False):
    """text with every control character shown as an escape (\\x1b), as repr() shows it;
    newlines kept only where the text is the command's own lines."""
    if keep_newlines:
        return "\n".join(_CONTROL.sub(_escape, line) for line in text.split("\n"))
    return _CONTROL.sub(_escape, text)


def plural(n, word, many=None):
    """ "1 match", "2 matches": the count and the word in the right number."""
    return "%d %s" % (n, word if n == 1 else many or word + "s")


def match_name(m):
    """A stored match as a page heads it: its box's name and its number on the box ("Range 1
    #3") when the club named the box, else its key (BOX/NUMBER)."""
    return "%s #%d" % (m["box_name"], m["number"]) if m.get("box_name") else m["key"]


def some(items, most=5):
    """ "Ann, Bob and 3 more": the first few of items, and how many were left unsaid."""
    items = list(items)
    shown = ", ".join(items[:most])
    return shown + (" and %d more" % (len(items) - most) if len(items) > most else "")


def said(winner, score=None, abandoned=False):
    """A stored match's result in the words every screen and export of the PC gives it, for
    every game: 'X wins 14-11', 'draw 2-2', 'open' (no winner yet), 'abandoned'. score: the
    two numbers its game's result is told by (score_of), or None where the store has none."""
    if abandoned:
        return "abandoned"
    return result_text(winner, score if winner is not None else None)


def club_said(name, club):
    """What setting an archer's club did, in words (`scorebox archers club`, the desk's
    Archers page): club empty is this club's own."""
    if club:
        return "%s shoots for %s, as a guest: the league files %s's matches under that club" % (name, club, name)
    return "%s shoots for this club" % name


def score_of(record):
    """The two numbers a result record (a box's, or the rules core's) is told by: its game's,
    under its surface's SCORE key (Tic Tac BOW's games won, Try-Tac-Toe's game score), or None."""
    if isinstance(record, dict):
        for g in games.every():
            score = record.get(g.SCORE)
            if isinstance(score, list) and len(score) == 2 and all(isinstance(n, int) for n in score):
                return score
    return None


def told(record):
    """said() of a result record: the words of its result."""
    r = record if isinstance(record, dict) else {}
    return said(r.get("winner"), score_of(r), bool(r.get("abandoned")))


def date_text(t, fmt="%Y-%m-%d %H:%M"):
    """A time from the store as local date text: "-" when there is none, "?" when it is no
    time a calendar has (a clock of 1e300 stored before import checked it)."""
    if not t:
        return "-"
    try:
        return time.strftime(fmt, time.localtime(t))
    except (OverflowError, OSError, ValueError, TypeError):
        return "?"


# A club's CSV file: a column of whole names (the first of NAME_COLUMNS in its first line), or
# a first and a last name column (FIRST_COLUMNS, LAST_COLUMNS), which win when it has both.
# Headings are compared in any case, "_" and "-" read as spaces (docs/sync.md, "A member list").
NAME_COLUMNS = ("name", "archer", "archer name", "full name", "member")
FIRST_COLUMNS = ("first name", "firstname", "first", "given name", "given names", "forename", "forenames")
LAST_COLUMNS = ("last name", "lastname", "last", "surname", "family name")
MAX_LINE = 8192  # characters a line: a member list's line is a few hundred
MAX_TEXT = 16 * 1000 * 1000  # characters a file: some 50,000 members with every column they keep


def _lines(f, path, error):
    """f's lines, read a bounded line at a time: a line longer than MAX_LINE, a file longer
    than MAX_TEXT or one with a NUL (/dev/zero, a spreadsheet's binary file) is refused."""
    total = 0
    while True:
        line = f.readline(MAX_LINE + 2)
        if not line:
            return
        total += len(line)
        if "\x00" in line:
            raise error("%s: not a text file (a NUL character in it)" % path)
        if len(line.rstrip("\r\n")) > MAX_LINE:
            raise error("%s: a line longer than %d characters: not a member list" % (path, MAX_LINE))
        if total > MAX_TEXT:
            raise error("%s: more than %d characters: not a club's member list" % (path, MAX_TEXT))
        yield line


def _heading(cell):
    return " ".join(cell.replace("_", " ").replace("-", " ").casefold().split())


def _column(head, names):
    return next((head.index(c) for c in names if c in head), None)


def _table(path, error):
    """(line number, cells) of each row of a CSV file, its first line's first, read as a
    stream (a quoted field may hold line breaks: the number is the line a row starts on).
    error: the exception raised with the one line that says what is wrong."""
    try:
        f = open(path, encoding="utf-8-sig", newline="")
    except OSError as e:
        raise error("%s: cannot read: %s" % (path, e.strerror or e))
    with f:
        try:
            rows = csv.reader(_lines(f, path, error), strict=True)
            at = 1
            for r in rows:
                yield at, r
                at = rows.line_num + 1
        except OSError as e:
            raise error("%s: cannot read: %s" % (path, e.strerror or e))
        except UnicodeDecodeError:
            raise error("%s: not a text file (UTF-8 expected)" % path)
        except csv.Error as e:
            raise error("%s: not a CSV file: %s" % (path, e))


def _first_line(table, path, error):
    got = next(table, None)
    if got is None:
        raise error("%s: empty: a CSV file with a 'name' column expected" % path)
    return got[1]


def _found(head):
    """The columns read by default from a first line's headings: (first, last), or (name,
    None) for a column of whole names; None when there is neither."""
    keys = [_heading(h) for h in head]
    first, last = _column(keys, FIRST_COLUMNS), _column(keys, LAST_COLUMNS)
    if first is None or last is None:
        first, last = _column(keys, NAME_COLUMNS), None
    return None if first is None else (first, last)


def csv_head(path, error):
    """(the first line's headings, the columns csv_rows reads by default or None) of a
    club's CSV file: what a column mapping offers (the desk's import, docs/web.md)."""
    with contextlib.closing(_table(path, error)) as table:
        head = _first_line(table, path, error)
    return head, _found(head)


def csv_rows(path, error, listed=False, columns=None):
    """(line number, first, last) of each row of a club's CSV file, read as a stream (the
    file is never held whole): first and last from a first and a last name column, or first
    the whole name and last "" from a name column. columns: (first, last or None) chosen by
    their places in the first line, instead of by their headings. listed: a file without
    those headings and with one field a line is a list of names. error: the exception raised
    with the one line that says what is wrong; nothing is yielded past the first one."""
    with contextlib.closing(_table(path, error)) as table:
        head = _first_line(table, path, error)
        if columns is not None:
            if (
                columns[0] is None
                or columns[0] == columns[1]
                or not all(c is None or 0 <= c < len(head) for c in columns)
            ):
                raise error(
                    "%s: choose a name column, or a first and a different last name column, of its %s"
                    % (path, plural(len(head), "column"))
                )
        else:
            columns = _found(head)
        if columns is None and not (listed and len(head) <= 1):
            nor = ", nor one name a line" if listed else ""
            raise error(
                "%s: no name column in the first line (one of: %s; or a first and a last name column)%s"
                % (path, ", ".join(NAME_COLUMNS), nor)
            )
        listing = columns is None
        first, last = (0, None) if listing else columns
        if listing:  # a list of names: its first line is one
            yield 1, head[0] if head else "", ""
        for at, r in table:
            if listing and len(r) > 1:
                raise error("%s: line %d has %d fields: a list has one name a line" % (path, at, len(r)))
            yield (
                at,
                r[first] if first < len(r) else "",
                r[last] if last is not None and last < len(r) else "",
            )


def full_name(first, last):
    """A name from its parts, spaces collapsed: ("Ann ", "Smith") -> "Ann Smith"."""
    return " ".join((first + " " + last).split())


def csv_names(path, error, listed=False):
    """[(line number, name)] of a club's CSV file (csv_rows), the first and last name joined."""
    return [(line, full_name(first, last)) for line, first, last in csv_rows(path, error, listed)]
