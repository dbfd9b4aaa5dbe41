"""The store and sync ask the registry (issue 23 items 1 and 2): a third game added to
scorebox_core/games is checked, stored, listed, counted, exported and found by its own
rules without an edit to store/ or sync/.

The third game here is Try-Tac-Toe's rules (TTT-2 to TTT-6) under another id, code and
name, installed for the test as a game beside the built-in ones is: a `scorebox_game_*`
package on the import path, found by its name (its core only: the store needs no more).
The whole toy third game, on the box and the PC too, is tests/pc/test_third_game.py's."""

import sys

import pytest
from storehelp import add_match
from ttt_history import full_game

from scorebox.store import export
from scorebox.store.access import open_store
from scorebox.sync.storing import lost_header
from scorebox_core import games
from scorebox_core.match import header
from scorebox_core.sides import Face

pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database
BOX = "e6614103e7a1b2c3"
THIRD = "third-tac-toe"

GAME_PY = (
    '''"""A third game for tests/pc/test_registry_store.py: Try-Tac-Toe's parts under its own id."""
from scorebox_core.games.ttt.game import *  # noqa: F403

ID = "%s"
NAME = "Third-Tac-Toe"
CODE = "3TT"
RULES = "scorebox_game_third.core.rules"
'''
    % THIRD
)

RULES_PY = (
    '''"""Try-Tac-Toe's rules, its games told by the third game's id."""
from scorebox_core.games.ttt import rules
from scorebox_core.games.ttt.rules import finished, options, result  # noqa: F401


class Game(rules.Game):
    GAME = "%s"


def replay(events, opts=None, archers=None, face=None, lenient=False):
    return Game.replay(events, opts, archers, lenient)
'''
    % THIRD
)


@pytest.fixture
def third(tmp_path, monkeypatch):
    pkg = tmp_path / "scorebox_game_third"
    (pkg / "core").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "core" / "__init__.py").write_text("")
    (pkg / "core" / "game.py").write_text(GAME_PY)
    (pkg / "core" / "rules.py").write_text(RULES_PY)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "_found", None)  # looked for again, with it
    yield games.get(THIRD)
    for name in [m for m in sys.modules if m.startswith("scorebox_game_third")]:
        del sys.modules[name]


def test_a_third_game_is_stored_by_its_own_rules(third, store_at):
    g = full_game()
    h = header(g.opts, g.archers, (18, 18), "m", (70, 70), Face(), THIRD)
    store = open_store(store_at, create=True)
    try:
        assert add_match(store, BOX, 1, h, g.log) is True  # replayed by its rules: not refused
        (row,) = store.matches()
        assert row["game"] == THIRD and row["side_a"] == "Ann,Cy" and row["finished"] == 1
        assert row[third.SHOTS] == sum(len(m.moves) for m in g.matches)  # counted from its log
        assert row["winner"] == {0: "X", 1: "O"}.get(g.winner(), "draw")
        assert [m["id"] for m in store.matches_of(THIRD)] == [row["id"]]
        assert store.matches_of(games.GAMES[1][0]) == [] and store.matches_of(games.GAMES[0][0]) == []
        assert store.totals()["games"] == 1  # one game, though it keeps no games rows
        assert [r["game"] for r in export.match_rows(store)] == [THIRD]
        assert store.check() == []
    finally:
        store.close()


@pytest.mark.parametrize("gid", [g[0] for g in games.GAMES])
def test_a_lost_header_is_its_results_game(gid):
    """sync/storing.py's header for a match whose header was lost: the game whose result record
    the box kept, its sides named by their letters and '?'."""
    g = games.get(gid)
    rules = games.part(g, "RULES")
    m = rules.replay([], rules.options(), ((g.SIDES[0],), (g.SIDES[1],)))
    h = lost_header(rules.result(m))
    assert games.of(h) is g and h["archers"] == [[g.SIDES[0] + "?"], [g.SIDES[1] + "?"]]
    assert games.of(lost_header(None)) is games.every()[0]
