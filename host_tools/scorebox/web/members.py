"""The Archers page's member-list import (docs/web.md): what its forms say, read back. The
names themselves are made and checked by the command's code (store/roster.py MemberList,
text.csv_rows): the column mapping and the box names edited are its columns and boxes."""

from scorebox.errors import ScoreboxError
from scorebox.store.roster import IMPORT_MAX

FORM_PARTS = 2 * IMPORT_MAX + 100  # a preview's Save sends a full name and a box name a new archer


def columns(form):
    """(first, last or None) chosen by the mapping form, places in the file's first line
    (csv_rows checks them); None when the form chose none (the headings' own then)."""
    first, last = form.get("first", ""), form.get("last", "")
    if not first:
        return None
    try:
        return int(first), int(last) if last else None
    except ValueError:
        raise ScoreboxError("choose the name columns from the list")


def edits(form):
    """{full name: box name} of the Save form's rows (full0, box0, full1, box1, ...)."""
    out = {}
    for i in range(IMPORT_MAX):
        full = form.get("full%d" % i)
        if full is None:
            break
        out[full] = form.get("box%d" % i, "")
    return out
