"""A box's name, as a club gives it (`scorebox boxes`, issue 12): `matches`, `show`, the
report and `doctor` say it where one is set."""

from scorebox.store.errors import Refused
from scorebox.text import printable

MAX_NAME = 24  # characters of a box's name: it heads a column of `matches`


def clean(name):
    """A box's name as given, trimmed; Refused says why one cannot be taken."""
    name = name.strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise Refused("a box's name is 1-%d printable characters, not %s" % (MAX_NAME, printable(repr(name))))
    return name
