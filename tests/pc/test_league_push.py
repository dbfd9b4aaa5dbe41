"""Clubs send their matches to the league (issue 26, item 3): `scorebox league add-club`,
`scorebox serve --league`'s server on a real PostgreSQL (pgserver.py), `scorebox push` from
two clubs' SQLite stores, one holding both games: incremental, idempotent, resumable after
a cut connection, every push logged, the token never printed and kept only as a hash."""

import pytest
from leagueclubs import B_BOX, add_club, clubs, league_count, rows, running

from scorebox import cli
from scorebox.commands import push
from scorebox.errors import ScoreboxError
from scorebox.league import tokens
from scorebox.league.db import LeagueDB
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)


def pushed(capsys, monkeypatch, address, path, token):
    monkeypatch.setenv(push.TOKEN_ENV, token)
    capsys.readouterr()
    code = cli.main(["push", address, "--db", path])
    out = capsys.readouterr()
    assert token not in out.out + out.err  # never printed
    return code, out.out.strip(), out.err.strip()


def test_two_clubs_push_both_games(pg_url, tmp_path, capsys, monkeypatch):
    a, b = clubs(tmp_path)
    token_a, token_b = add_club(capsys, pg_url, "Archers of A"), add_club(capsys, pg_url, "Bowmen of B")
    assert token_a.startswith("sbl1.") and token_a != token_b
    with running(pg_url) as address:
        assert pushed(capsys, monkeypatch, address, a, token_a) == (
            0,
            "5 new matches sent to the league; 0 matches it had already",
            "",
        )
        assert pushed(capsys, monkeypatch, address, b, token_b)[:2] == (
            0,
            "6 new matches sent to the league; 0 matches it had already",
        )
        # again: nothing new, nothing sent twice
        assert (
            pushed(capsys, monkeypatch, address, a, token_a)[1]
            == "0 new matches sent to the league; 5 matches it had already"
        )
    assert league_count(pg_url) == 11
    league = open_store(pg_url)
    try:
        games = {m["game"] for m in league.matches()}
        assert games == {"tictacbow", "try-tac-toe"}
        log = LeagueDB(league).pushes()
        assert [(p["club"], p["sent"], p["stored"], p["status"]) for p in log] == [
            ("Archers of A", 5, 5, 200),
            ("Bowmen of B", 6, 6, 200),
        ]  # the third push sent nothing: the league had every match
        secret = token_a.split(".")[2]
        stored = league.db.execute("SELECT token_id, token_hash FROM league_clubs").fetchall()
        assert all(h.startswith(tokens.SHA256) and secret not in h for _, h in stored)
    finally:
        league.close()


def test_a_push_sends_only_the_new_matches(pg_url, tmp_path, capsys, monkeypatch):
    a, b = clubs(tmp_path)
    token = add_club(capsys, pg_url, "B")
    with running(pg_url) as address:
        assert pushed(capsys, monkeypatch, address, b, token)[1].startswith("6 new matches")
        s = open_store(b)
        from storegen import match_items

        seventh = list(match_items(7, devices=[B_BOX]))[-1][1]
        assert s.add_matches(B_BOX, [seventh]) == [True]
        s.close()
        assert (
            pushed(capsys, monkeypatch, address, b, token)[1]
            == "1 new match sent to the league; 6 matches it had already"
        )
    assert league_count(pg_url) == 7


class CutAfter(push.League):
    """The league's client whose connection is cut after its nth push has reached the server:
    the server stored that push, the client never read the answer."""

    def __init__(self, url, token, n):
        super().__init__(url, token)
        self.n = n

    def call(self, path, data):
        got = super().call(path, data)
        if path.endswith("push"):
            self.n -= 1
            if self.n == 0:
                raise push.Cut("connection reset")
        return got


def test_a_push_cut_short_goes_on_where_it_stopped(pg_url, tmp_path, capsys, monkeypatch):
    _, b = clubs(tmp_path)
    token = add_club(capsys, pg_url, "B")
    with running(pg_url) as address:
        store = open_store(b)
        try:
            with pytest.raises(push.Cut, match="2 matches stored before the cut: push again"):
                push.push(store, CutAfter(address, token, 2), batch=2)
            assert league_count(pg_url) == 4  # the second batch arrived, its answer did not
            sent = []

            class Counting(push.League):
                def call(self, path, data):
                    if path.endswith("push"):
                        sent.extend((m["device"], m["number"]) for m in data["matches"])
                    return super().call(path, data)

            assert push.push(store, Counting(address, token), batch=2) == (2, 4)
        finally:
            store.close()
    assert sent == [(B_BOX, 5), (B_BOX, 6)]  # only what had not arrived
    assert league_count(pg_url) == 6
    assert sorted((m["device"], m["number"]) for m in rows(b)) == sorted(
        (m["device"], m["number"]) for m in open_store(pg_url).matches()
    )


def test_push_needs_a_token_and_https(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(push.TOKEN_ENV, raising=False)
    assert cli.main(["push", "https://league.example/", "--db", str(tmp_path / "x.sqlite")]) == 2
    assert "no token: give --token, or set SCOREBOX_LEAGUE_TOKEN" in capsys.readouterr().err
    assert cli.main(["push", "http://league.example/", "--token", "sbl1.a.b"]) == 2
    assert capsys.readouterr().err.strip() == "http://league.example/: a token goes to a league only over https://"


def test_the_league_runs_on_postgresql_only(tmp_path, capsys):
    assert cli.main(["league", "add-club", "A", "--db", str(tmp_path / "club.sqlite")]) == 2
    assert "a league runs on PostgreSQL: give --db postgresql://" in capsys.readouterr().err
    assert not (tmp_path / "club.sqlite").exists()


def test_a_club_name_is_added_once(pg_url, capsys):
    add_club(capsys, pg_url, "A")
    assert cli.main(["league", "add-club", "A", "--db", pg_url]) == 2
    assert capsys.readouterr().err.strip() == "the league has a club named A already"


def test_scorebox_serve_league(pg_url, tmp_path, capsys, monkeypatch):
    """The command itself, in a process of its own, as a league runs it."""
    import os
    import subprocess
    import sys

    _, b = clubs(tmp_path)
    token = add_club(capsys, pg_url, "B")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    argv = [
        sys.executable,
        "-c",
        "import sys; from scorebox.cli import main; sys.exit(main())",
        "serve",
        "--league",
        "--db",
        pg_url,
        "--port",
        "0",
    ]
    proc = subprocess.Popen(argv + ["--no-browser"], stdout=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert line.startswith("the league's server: http://127.0.0.1:"), line
        address = line.split()[3]
        assert pushed(capsys, monkeypatch, address, b, token)[1].startswith("6 new matches")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert league_count(pg_url) == 6


def test_serve_league_needs_postgresql(tmp_path, capsys):
    assert cli.main(["serve", "--league", "--db", str(tmp_path / "club.sqlite"), "--port", "0"]) == 2
    assert "a league runs on PostgreSQL: give --db postgresql://" in capsys.readouterr().err


def test_a_redirect_is_refused_and_the_token_goes_nowhere_else():
    """The review's case: a league (or a proxy, or a typo) answering 302 to another host over
    plain http. urllib followed it with the token's header; the push now refuses it."""
    import http.server
    import threading

    seen = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # the league's address: sends the client elsewhere
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.2:%d/steal" % self.server.server_port)
            self.end_headers()

        def do_GET(self):  # where it was sent: must never hear the token
            seen.append(self.headers.get("Authorization"))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        league = push.League("http://127.0.0.1:%d/" % srv.server_port, "sbl1.abcd.SECRET")
        with pytest.raises(ScoreboxError, match=r"the league refused \(302\)"):
            league.call("league/api/have", {"matches": []})
    finally:
        srv.shutdown()
        srv.server_close()
    assert seen == []
