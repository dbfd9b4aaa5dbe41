"""The report's side asks the registry (issue 23 item 1): the HTML report, `scorebox stats`,
the face-wear log and `scorebox face` take each game's parts from its surface (REPORT,
STATS, WEAR, FACE), so a game added to the registry joins them without an edit. Run on a
real store holding both games (tests/support/bothstore.py)."""

import pytest
from bothstore import both_games

from scorebox import cli
from scorebox.games import registry as pc_games
from scorebox.report import face, html
from scorebox.store.access import open_store
from scorebox_core import games

pytest_plugins = ("pgserver",)  # module_store_at: a file of SQLite's, then a PostgreSQL database


@pytest.fixture(scope="module")
def store(module_store_at):
    s = open_store(both_games(module_store_at))
    yield s
    s.close()


def test_the_reports_list_names_each_game_from_its_surface(store):
    data = html.build(store)
    assert data["game_names"] == {g.CODE.lower(): g.NAME for g in games.every()}
    listed = {data["game_names"][e["g"]] for e in data["recent"]}
    assert listed == {g.NAME for g in games.every()}  # each game's REPORT entry(), keyed by its code
    page = html.render(data)
    title = "Scorebox club report: %s</title>" % " and ".join(g.NAME for g in games.every())
    assert title in page
    for g in games.every():
        if pc_games.of(g).WEAR is None:  # a game whose face does not wear is in no face-wear log
            continue
        log = pc_games.part(g, "WEAR").face_log(store)
        assert log and data["faces"] == log


def test_stats_takes_each_games_own_figures_by_its_code(store, capsys):
    own = [g for g in games.every() if pc_games.of(g).STATS]
    assert own  # Try-Tac-Toe's figures are its own (shapes, blocks)
    for g in own:
        figures = pc_games.part(g, "STATS").compute(store)
        assert figures
        assert cli.main(["stats", "--" + g.CODE.lower(), "--db", store.path]) == 0
        assert capsys.readouterr().out.splitlines() == pc_games.part(g, "STATS").lines(figures)[1:]
    assert cli.main(["stats", "--db", store.path]) == 0
    out = capsys.readouterr().out.splitlines()
    for g in own:  # after the arrows' table, each game's own
        lines = pc_games.part(g, "STATS").lines(pc_games.part(g, "STATS").compute(store))
        assert "\n".join(lines) in "\n".join(out)


def test_face_offers_every_games_face_and_draws_it_by_its_surface():
    names = ["".join(c for c in g.ID if c.isalnum()) for g in games.every()]
    assert list(face.FACES) == names == ["tictacbow", "trytactoe"]  # the names the command has always taken
    for name, g in zip(names, games.every()):
        assert face.draw(name, 600) == pc_games.part(g, "FACE").draw(600)
        assert ('data-face="%s"' % name) in face.face_svg(name, 600)
