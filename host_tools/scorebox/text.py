"""Text for the terminal: names from the store printed safely, counts in words, dates.

Here, beside errors.py, so that every layer that prints may use it (sync's `matches`,
the store's `boxes`, the reports)."""

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
