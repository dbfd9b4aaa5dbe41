"""The club's store, one a request (Flask's g): opened when a page first asks for it and
closed when the request ends (create_app's teardown), whatever the page did meanwhile, so
that a restore swaps the file under no open connection."""

from flask import current_app, g

from scorebox.store.access import open_store


def store(create=False):
    """The request's Store. create: made when there is none yet (a club may list its
    archers before its first sync), and taken back at the end while it holds nothing."""
    if "store" not in g:
        g.store = open_store(current_app.config["STORE"], create=create)
        g.store_made = create
    return g.store


def close_store(_error=None):
    s = g.pop("store", None)
    if s is None:
        return
    if g.pop("store_made"):
        s.discard_if_empty()
    else:
        s.close()
