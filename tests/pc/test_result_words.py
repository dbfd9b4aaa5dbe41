"""A match's result reads the same on every screen and export of the PC, for both games (a
Try-Tac-Toe team game too): sync's summary, `scorebox matches`, `scorebox show`, the desk's
list and match page, the report and matches.csv all say text.said's words, worked out here
from the rules core: 'A wins 2-0' (Tic Tac BOW's games won), 'X wins 14-11' (Try-Tac-Toe's
game score, TTT-6), 'draw 0-0'."""

import csv
import re

from bothstore import both_games
from ttt_history import full_game, ttt_header

from scorebox import cli
from scorebox.report import html
from scorebox.store.access import open_store
from scorebox.store.checks import check, check_match
from scorebox.sync.summary import Summary
from scorebox.web.app import create_app
from scorebox_core import games


def _words(m):
    """The words of a stored match's result, from its replay by the rules core."""
    played = check_match(m["header"], m["log"])
    rules = games.part(games.of(m["header"]), "RULES").result(played)  # the record the box keeps
    winner = rules["winner"]
    score = rules.get("wins") or rules.get("score")
    if winner is None:
        return "open"
    return ("draw" if winner == "draw" else "%s wins" % winner) + " %d-%d" % tuple(score)


def test_a_result_reads_the_same_on_every_surface_of_both_games(tmp_path, capsys):
    path = both_games(str(tmp_path / "club.sqlite"))
    store = open_store(path)
    try:
        stored = [store.load_match(r["id"]) for r in store.matches()]
        entries = {e["id"]: e["res"] for e in html.build(store)["recent"]}
    finally:
        store.close()
    want = {m["id"]: _words(m) for m in stored}
    game = {m["id"]: games.of(m["header"]).ID for m in stored}
    assert list(want.values()) == ["B wins 0-1", "A wins 1-0", "draw 0-0", "O wins 48-72", "X wins 116-57"]
    assert set(game.values()) == {"tictacbow", "try-tac-toe"}
    assert any(len(m["names"][0]) > 1 for m in stored if game[m["id"]] == "try-tac-toe")  # a team game
    assert entries == want  # the report

    capsys.readouterr()
    assert cli.main(["matches", "--db", path]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    for line in lines:  # `scorebox matches`
        mid = int(line.split()[0])
        assert "  %s " % want[mid] in line, line

    desk = create_app(path, workdir=str(tmp_path / "work")).test_client()
    listed = desk.get("/matches").get_data(as_text=True)
    for mid, words in want.items():
        assert cli.main(["show", str(mid), "--db", path]) == 0  # `scorebox show`
        assert capsys.readouterr().out.splitlines()[-1] == "Result: " + words
        page = desk.get("/matches/%d" % mid).get_data(as_text=True)  # the desk's match page
        assert '<span id="result">%s</span>' % words in page
        assert page.count("Result: " + words) == 1  # its turn by turn, as show
        assert re.search(r'<a href="/matches/%d">.*?<td>%s</td>' % (mid, re.escape(words)), listed, re.S)

    assert cli.main(["export", "--db", path, "--out", str(tmp_path / "out")]) == 0
    with open(tmp_path / "out" / "matches.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    keys = {m["key"]: m["id"] for m in stored}
    assert {keys[r["match"]]: r["result"] for r in rows} == want  # matches.csv


def test_sync_summary_says_the_result_in_the_same_words():
    g = full_game(3)  # a Try-Tac-Toe team game: Ann and Cy (X) v Bo (O)
    s = Summary()
    s.add_new(1, check(1, ttt_header(g, 1790100001), list(g.log)).extras, len(g.log))
    assert s.new == [(1, "O wins 48-72 (%d events)" % len(g.log))]  # was "X wins 0-0": Tic Tac BOW's wins read
