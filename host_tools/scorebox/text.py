"""Text for the terminal: names from the store printed safely, counts in words, dates;
and the names in a club's CSV file.

Here, beside errors.py, so that every layer may use it (sync's `matches`, the store's
`boxes` and `archers import`, the reports, `sim --roster @FILE`)."""

import csv
import re
import time

# C0 and C1 controls, DEL, the Unicode line and paragraph separators and the bidi overrides:
# in a name they would move the cursor, recolour, clear or reorder the terminal (#13 item 10).
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


def date_text(t, fmt="%Y-%m-%d %H:%M"):
    """A time from the store as local date text: "-" when there is none, "?" when it is no
    time a calendar has (a clock of 1e300 stored before import checked it: #13 item 18)."""
    if not t:
        return "-"
    try:
        return time.strftime(fmt, time.localtime(t))
    except (OverflowError, OSError, ValueError, TypeError):
        return "?"


NAME_COLUMNS = ("name", "archer", "archer name", "full name", "member")  # a CSV's name column, first found


def csv_names(path, error, listed=False):
    """[(line number, name)] of a CSV file's name column: the first of NAME_COLUMNS in its
    first line. listed: a file without that heading and with one field a line is a list of
    names. error: the exception raised with the one line that says what is wrong."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.reader(f, strict=True))
    except OSError as e:
        raise error("%s: cannot read: %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise error("%s: not a text file (UTF-8 expected)" % path)
    except csv.Error as e:
        raise error("%s: not a CSV file: %s" % (path, e))
    if not rows:
        raise error("%s: empty: a CSV file with a 'name' column expected" % path)
    head = [h.strip().casefold() for h in rows[0]]
    col = next((head.index(c) for c in NAME_COLUMNS if c in head), None)
    if col is None and listed and all(len(r) <= 1 for r in rows):
        return [(i, r[0] if r else "") for i, r in enumerate(rows, 1)]
    if col is None:
        nor = ", nor one name a line" if listed else ""
        raise error("%s: no name column in the first line (one of: %s)%s" % (path, ", ".join(NAME_COLUMNS), nor))
    return [(i, r[col] if col < len(r) else "") for i, r in enumerate(rows[1:], 2)]
