"""`scorebox push` of a club's store holding matches whose stored log is damaged: one line
names each, the others are sent, to the league's server on a real PostgreSQL; the desk's
Push page shows those lines below its message; `scorebox export` of that store says the
same in one line."""

import re
import sqlite3

from bothstore import TTT_BOX
from handmatches import DEVICE
from leagueclubs import add_club, clubs, league_count, running

from scorebox import cli
from scorebox.commands import push
from scorebox.web.app import create_app as desk

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


def messages(client, data):
    """Post the desk's Push form; [(kind, message)] of the page it leads to."""
    page = client.get("/push").get_data(as_text=True)
    data = dict(data, csrf=re.search(r'name="csrf" value="([^"]+)"', page).group(1))
    r = client.post("/push", data=data, headers={"Referer": "http://localhost/push"}, follow_redirects=True)
    assert r.status_code == 200 and r.request.path == "/push"
    return re.findall(r'<p class="msg (\w+)"[^>]*>(.*?)</p>', r.get_data(as_text=True), re.S)


def test_the_desks_push_shows_each_damaged_match_below_what_it_sent(pg_url, tmp_path, capsys):
    a, _ = clubs(tmp_path)
    _damage(a)
    token = add_club(capsys, pg_url, "Archers of A")
    client = desk(a, workdir=str(tmp_path / "work")).test_client()
    with running(pg_url) as address:
        said = messages(client, {"url": address, "token": token})
    assert said[0] == ("ok", "3 new matches sent to the league; 0 matches it had already"), said
    assert [kind for kind, _ in said[1:]] == ["warning", "warning"], said
    for (_, line), uid in zip(said[1:], (DEVICE, TTT_BOX)):
        assert line.startswith("match %s/2: its log in the store cannot be read (damaged: " % uid), line
    assert league_count(pg_url) == 3


def test_export_of_a_damaged_match_is_one_line(tmp_path, capsys):
    a, _ = clubs(tmp_path)
    _damage(a)
    capsys.readouterr()
    assert cli.main(["export", "--db", a, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("match %s/2: its log in the store cannot be read (damaged: " % DEVICE), err
    assert err.count("\n") == 1
