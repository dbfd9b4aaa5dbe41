"""What only the tests ask of a store."""

from scorebox.store.errors import Refused


def add_match(store, uid, number, header, log, extras=None):
    """Check one match by replaying it, then store it (Store.add_matches for one): False when
    (uid, number) is stored already; Refused, raised, when the rules refuse it."""
    (got,) = store.add_matches(uid, [(number, header, log, extras)])
    if isinstance(got, Refused):
        raise got
    return got
