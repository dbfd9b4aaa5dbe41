"""What only the tests ask of a store."""

from scorebox.store.errors import Refused


def add_match(store, uid, number, header, log, extras=None):
    """Check one match by replaying it, then store it (Store.add_matches for one): False when
    (uid, number) is stored already; Refused, raised, when the rules refuse it."""
    (got,) = store.add_matches(uid, [(number, header, log, extras)])
    if isinstance(got, Refused):
        raise got
    return got


def sqlite_steps(store, fn):
    """SQLite's virtual machine steps fn takes on the store's connection: a cost a test can
    compare, where seconds would be noise."""
    n = [0]

    def count():
        n[0] += 1

    store.db.set_progress_handler(count, 1)
    try:
        fn()
    finally:
        store.db.set_progress_handler(None, 0)
    return n[0]
