"""The journal reader's Fold run over a group's bytes, as the reader runs it: every match it
makes, each record fed, then its close (tests of the reader's splits over damage)."""

from scorebox_core import records as R
from scorebox_core.journal import Fold


def fold(data, first=None, upto=None):
    """Every match a Fold makes of data, and the fold."""
    f = Fold(first, upto)
    out = []
    for off, end, t, v in R.scan_bytes(bytes(data)):
        m = f.feed(off, end, t, v)
        while m is not None:
            out.append(m)
            m = f.more()
    m = f.close()
    while m is not None:
        out.append(m)
        m = f.more()
    return out, f
