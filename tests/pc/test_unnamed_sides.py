"""A game shot without names is no archer: Try-Tac-Toe's X v O, like Tic Tac BOW's A v B,
stays off the roster and off the list sent to the box, and a name the
box uses for an unnamed side is refused as an archer's name."""

import pytest
from storehelp import add_match
from ttt_history import full_game, ttt_header

from scorebox.store.access import open_store
from scorebox.store.errors import StoreError
from scorebox_core.games.ttb.rules import Face
from scorebox_core.games.ttb.rules import Options as TtbOptions
from scorebox_core.match import header

BOX = "e6614103e7a1b2c3"


pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database


@pytest.fixture
def store(store_at):
    s = open_store(store_at, create=True)
    g = full_game(players=(("X",), ("O",)))  # X v O: nobody named (a script names no one so)
    add_match(s, BOX, 1, ttt_header(g), g.log)
    add_match(s, BOX, 2, header(TtbOptions(), (("A",), ("B",)), (18, 18), "m", (0, 0), Face()), [5, 9])  # A v B
    add_match(s, BOX, 3, ttt_header(full_game()), full_game().log)  # Ann, Cy v Bo
    yield s
    s.close()


def test_unnamed_sides_of_both_games_are_not_on_the_roster(store):
    listed = [r[0] for r in store.archers()]
    assert listed == ["Ann", "Bo", "Cy"]
    assert sorted(store.box_names()) == ["Ann", "Bo", "Cy"]


@pytest.mark.parametrize("name", ["A", "b", "X", "o"])
def test_a_side_name_is_refused_as_an_archer(store, name):
    with pytest.raises(StoreError, match="unnamed side"):
        store.add_archer(name)
