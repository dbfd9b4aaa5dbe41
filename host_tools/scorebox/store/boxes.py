"""A box's name, as a club gives it (`scorebox boxes`): `matches`, `show`, the
report and `doctor` say it where one is set. And its capacity as its last sync read it
(Store.box_spaces), in words for the Boxes page and `scorebox boxes`."""

from scorebox.store.errors import Refused
from scorebox.text import printable

MAX_NAME = 24  # characters of a box's name: it heads a column of `matches`


def clean(name):
    """A box's name as given, trimmed; Refused says why one cannot be taken."""
    name = name.strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise Refused("a box's name is 1-%d printable characters, not %s" % (MAX_NAME, printable(repr(name))))
    return name


NOT_KNOWN = "not known yet"  # no sync has read the box's space since the store kept it (migration 7)


def capacity(space):
    """ "about 5,504 more matches (1,384 of 1,408 KB free)", from Store.box_spaces' figures
    of a box (None: NOT_KNOWN)."""
    if space is None:
        return NOT_KNOWN
    free, total, fit = space
    out = "about %s more matches" % format(fit, ",")
    if free is not None and total is not None:
        out += " (%s of %s KB free)" % (format(free // 1024, ","), format(total // 1024, ","))
    return out
