"""`scorebox push` has its token tried first, on its own, while it opens the club's store and
reads its matches (issue 26 item 5, push_seconds_1000; commands/push.py's League.try_token):
the server's Argon2 check of the token then overlaps the command's own work. The league's
server in a thread on the test session's PostgreSQL (pgserver.py), the command run whole
(cli.main), club A's store holding both games. A refused token and an unreachable league are
still one line each, exit status 2, nothing stored."""

import threading

from leagueclubs import add_club, clubs, league_count, running

from scorebox import cli
from scorebox.commands import push
from scorebox.league import server, tokens
from scorebox.store.sqlite import Store

pytest_plugins = ("pgserver",)
WAIT = 10  # seconds the store's opening waits for the token's check to have begun


def test_the_token_is_checked_while_the_store_is_read(pg_url, tmp_path, capsys, monkeypatch):
    """The store is opened only once the server has begun the token's check (the check waits
    for nobody: before, the store was read first and the question came after it); one Argon2
    check for the whole command; the first question asks about no match, the next about
    every match of both games, then the push."""
    checking, order, asked = threading.Event(), [], []

    def verify(token_hash, secret, verify=tokens.verify):
        order.append("token checked")
        checking.set()
        return verify(token_hash, secret)

    def opened(store, path, *args, opened=Store.__init__, **kw):
        order.append("store opened" if checking.wait(WAIT) else "store opened before the token's check")
        return opened(store, path, *args, **kw)

    def held(store, league, club, data, held=server.held):
        asked.append(len(data["matches"]))
        return held(store, league, club, data)

    a, _ = clubs(tmp_path)  # made before the patches: its stores opened as they are
    token = add_club(capsys, pg_url, "A")
    monkeypatch.setattr(tokens, "verify", verify)
    monkeypatch.setattr(Store, "__init__", opened)
    monkeypatch.setattr(server, "held", held)
    monkeypatch.setenv(push.TOKEN_ENV, token)
    with running(pg_url) as address:
        assert cli.main(["push", address, "--db", a]) == 0
    assert capsys.readouterr().out.startswith("5 new matches sent to the league")
    assert order == ["token checked", "store opened"]
    assert asked == [0, 5]
    assert league_count(pg_url) == 5


def test_a_wrong_token_is_one_line_and_nothing_is_stored(pg_url, tmp_path, capsys, monkeypatch):
    a, _ = clubs(tmp_path)
    token = add_club(capsys, pg_url, "A")
    monkeypatch.setenv(push.TOKEN_ENV, token[:-2] + ("xx" if token[-2:] != "xx" else "yy"))
    with running(pg_url) as address:
        assert cli.main(["push", address, "--db", a]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.splitlines() == [
        "the league refused (401): not a club's token: check the token the league gave your club; nothing stored"
    ]
    assert league_count(pg_url) == 0


def test_an_unreachable_league_is_one_line(pg_url, tmp_path, capsys, monkeypatch):
    a, _ = clubs(tmp_path)
    monkeypatch.setenv(push.TOKEN_ENV, add_club(capsys, pg_url, "A"))
    with running(pg_url) as address:
        pass  # its port, free again
    assert cli.main(["push", address, "--db", a]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("cannot reach the league at %s: " % address)
    assert league_count(pg_url) == 0
