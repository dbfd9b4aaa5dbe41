"""The report's older matches by month, and its games count, with Try-Tac-Toe games among
Tic Tac BOW matches: a Try-Tac-Toe game is one match and, once over, one game, won by X or O
as the list shows it (TTT-6: its row's wins are its two matches, not games)."""

import re

import pytest
from handmatches import SCRIPTS, T0, fill, match_of
from storehelp import add_match
from ttt_history import full_game, ttt_header

from scorebox import cli
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)  # module_store_at: a file of SQLite's, then a PostgreSQL database
BOX = "e6614103e7a1b2c3"
OCTOBER = 1792000000  # 2026-10-14; the hand matches are on 2026-09-21 (handmatches.T0)


@pytest.fixture(scope="module")
def club(tmp_path_factory, module_store_at):
    folder = tmp_path_factory.mktemp("months")
    path = module_store_at
    store = fill(open_store(path, create=True))  # three Tic Tac BOW matches in September
    sept, x1, x2 = full_game(3), full_game(6), full_game(1)  # won by O, X, X (seed 1: X wins on the sum, TTT-6)
    assert (sept.winner(), x1.winner(), x2.winner()) == (1, 0, 0)
    assert [m.score(0) > m.score(1) for m in x2.matches] == [True, False]  # one match each
    games = [(sept, T0 + 36000), (x1, OCTOBER), (x2, OCTOBER + 60)]
    for n, (g, clock) in enumerate(games, 1):
        assert add_match(store, BOX, n, ttt_header(g, clock), g.log) is True
    open_game = full_game(6)
    assert add_match(store, BOX, 4, ttt_header(open_game, OCTOBER + 120), open_game.log[:9]) is True  # in match 1
    store.close()
    out = str(folder / "report.html")
    assert cli.main(["report", "--db", path, "--out", out, "--replays", "0"]) == 0  # every match in the months
    return open(out, encoding="utf-8").read()


def month_rows(html):
    table = html.split("<h2>Older matches by month</h2>", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><td>([^<]*)</td>((?:<td class=\"n\">\d+</td>){5})", table)
    return {mo: [int(n) for n in re.findall(r">(\d+)<", cells)] for mo, cells in rows}


def test_ttt_games_counted_once(club):
    ttb = [match_of(s) for s in SCRIPTS]
    games = sum(m.wins[0] + m.wins[1] + m.draws for m in ttb)
    won = [sum(m.result() == side for m in ttb) for side in (0, 1)]
    draws = sum(m.result() not in (0, 1, None) for m in ttb)
    # matches, games, first side (A / X) won, second (B / O) won, drawn
    assert month_rows(club) == {
        "2026-10": [3, 2, 2, 0, 0],  # two X wins and a game still in its first match
        "2026-09": [4, games + 1, won[0], won[1] + 1, draws],  # the Tic Tac BOW matches and O's win
    }


def test_games_figure_counts_a_ttt_game_once(club):
    ttb_games = sum(len(match_of(s).games) for s in SCRIPTS)
    assert re.search(r'<div class="kpi"><b>(\d+)</b>games</div>', club).group(1) == str(ttb_games + 4)
