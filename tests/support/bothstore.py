"""A store holding both games, for the tests of every command on it (issue 21): Tic Tac
BOW's three matches written by hand (handmatches.py), two whole Try-Tac-Toe games
(ttt_history.py, TTT-6) from a box of their own, and as many generated Tic Tac BOW
matches (storegen.py) as asked."""

from handmatches import fill
from storegen import match_items
from storehelp import add_match
from ttt_history import full_game, ttt_header

from scorebox.store.access import open_store

TTT_BOX = "e66141030c0ffee1"  # the Try-Tac-Toe games' box


def both_games(path, more=0):
    """Make the store at path (a new file, or an empty PostgreSQL database's URL: store/access.py);
    returns path."""
    s = fill(open_store(path, create=True))
    for n, seed in ((1, 3), (2, 11)):
        g = full_game(seed)
        assert add_match(s, TTT_BOX, n, ttt_header(g, 1790100000 + n), list(g.log)) is True
    items = {}
    for uid, item in match_items(more):
        items.setdefault(uid, []).append(item)
    for uid, got in items.items():
        assert all(r is True for r in s.add_matches(uid, got))
    s.close()
    return path
