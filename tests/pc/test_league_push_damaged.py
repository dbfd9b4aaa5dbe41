"""`scorebox push` of a club's store holding matches whose stored log is damaged: one line
names each, the others are sent, to the league's server on a real PostgreSQL; `scorebox
export` of that store says the same in one line."""

import sqlite3

from bothstore import TTT_BOX
from handmatches import DEVICE
from leagueclubs import add_club, clubs, league_count, running

from scorebox import cli
from scorebox.commands import push

pytest_plugins = ("pgserver",)


def _damage(path):
    """A Tic Tac BOW match's log and a Try-Tac-Toe game's, cut short as a damaged disk might."""
    db = sqlite3.connect(path)
    for uid in (DEVICE, TTT_BOX):
        db.execute(
            "UPDATE matches SET log = substr(log, 1, 5) WHERE number = 2 AND "
            "device_id = (SELECT id FROM devices WHERE uid = ?)",
            (uid,),
        )
    db.commit()
    db.close()


def test_push_names_each_damaged_match_in_one_line_and_sends_the_others(pg_url, tmp_path, capsys, monkeypatch):
    a, _ = clubs(tmp_path)
    _damage(a)
    token = add_club(capsys, pg_url, "Archers of A")
    monkeypatch.setenv(push.TOKEN_ENV, token)
    with running(pg_url) as address:
        capsys.readouterr()
        assert cli.main(["push", address, "--db", a]) == 1
    out = capsys.readouterr()
    assert out.out == "3 new matches sent to the league; 0 matches it had already\n"
    lines = out.err.splitlines()
    assert len(lines) == 2, out.err
    for line, uid in zip(lines, (DEVICE, TTT_BOX)):
        assert line.startswith("match %s/2: its log in the store cannot be read (damaged: " % uid), line
        assert line.endswith("): not sent")
    assert league_count(pg_url) == 3


def test_export_of_a_damaged_match_is_one_line(tmp_path, capsys):
    a, _ = clubs(tmp_path)
    _damage(a)
    capsys.readouterr()
    assert cli.main(["export", "--db", a, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("match %s/2: its log in the store cannot be read (damaged: " % DEVICE), err
    assert err.count("\n") == 1
