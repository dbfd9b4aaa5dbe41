"""The report is a file a club mails round (issue 21 item 14): its header printed the store's
path on the PC that made it (`from /home/someone/.local/share/scorebox/scorebox.sqlite`).
It says the store's name only, and no folder of the PC is anywhere in the page, for a store
given with --db and for the user's own, holding both games."""

import os

import pytest
from handmatches import fill
from storehelp import add_match
from ttt_history import full_game, ttt_header

from scorebox import cli
from scorebox.store.sqlite import Store


def store_with_both_games(path):
    store = fill(Store(path))  # Tic Tac BOW matches
    g = full_game(3)
    add_match(store, "e6614103e7a1b2c3", 1, ttt_header(g, 1900000000), g.log)  # and a Try-Tac-Toe game
    store.close()


def folders(path):
    """Every folder above path, as the page might spell it: /a/b/c, /a/b, ... and each name."""
    out, head = [], os.path.dirname(os.path.abspath(path))
    while head not in ("/", ""):
        out.append(head)
        head = os.path.dirname(head)
    return out


def check(html, store_path):
    assert "by <code>scorebox report</code> from %s</div>" % os.path.basename(store_path) in html
    for folder in folders(store_path):
        if len(folder) > 4:  # not "/tmp" alone: that could be any text
            assert folder not in html, folder
    assert '"g":"ttt"' in html and '"g":"ttb"' in html  # both games are in it


def test_a_store_given_with_db_is_named_not_located(tmp_path, capsys):
    path = str(tmp_path / "the treasurer's laptop" / "club.sqlite")
    os.makedirs(os.path.dirname(path))
    store_with_both_games(path)
    out = str(tmp_path / "report.html")
    assert cli.main(["report", "--db", path, "--out", out]) == 0
    with open(out, encoding="utf-8") as f:
        html = f.read()
    check(html, path)
    assert "laptop" not in html
    assert "report: %s" % out in capsys.readouterr().out  # the terminal still says where the file is


def test_the_users_own_store_is_named_not_located(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "private-data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    from scorebox.store.access import default_path

    path = default_path()
    if not path.startswith(str(tmp_path)):
        pytest.skip("the user data folder does not follow XDG_DATA_HOME here: %s" % path)
    os.makedirs(os.path.dirname(path))
    store_with_both_games(path)
    out = str(tmp_path / "report.html")
    assert cli.main(["report", "--out", out]) == 0
    with open(out, encoding="utf-8") as f:
        html = f.read()
    check(html, path)
    assert "private-data" not in html
