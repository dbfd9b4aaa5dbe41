"""Two clubs of a league for the league's tests (issue 26): a league store on the test
session's PostgreSQL (pgserver.py) with clubs added by `scorebox league add-club`, and each
club's own SQLite store: club A's holds both games (bothstore.py), club B's generated Tic
Tac BOW matches from a box of its own."""

import contextlib
import threading

from bothstore import both_games
from storegen import match_items

from scorebox import cli
from scorebox.league import server
from scorebox.store.access import open_store
from scorebox.store.export import match_rows

B_BOX = "e6614103b0b0b0b0"


def add_club(capsys, url, name):
    """The token `scorebox league add-club` printed."""
    capsys.readouterr()
    assert cli.main(["league", "add-club", name, "--db", url]) == 0
    return capsys.readouterr().out.splitlines()[-1]


def club_b(path, count=6):
    s = open_store(path, create=True)
    assert all(r is True for r in s.add_matches(B_BOX, [item for _, item in match_items(count, devices=[B_BOX])]))
    s.close()
    return path


def clubs(tmp_path):
    """(club A's store, club B's)."""
    return both_games(str(tmp_path / "a.sqlite")), club_b(str(tmp_path / "b.sqlite"))


def rows(path):
    s = open_store(path)
    try:
        return list(match_rows(s))
    finally:
        s.close()


def league_count(url):
    s = open_store(url)
    try:
        return s.count()
    finally:
        s.close()


@contextlib.contextmanager
def running(url):
    """The league's app on a free port of this PC, in a thread of this process (Werkzeug's
    server: a test reads the store beside it); its URL. `scorebox serve --league` runs the
    same app in gunicorn's worker processes (test_league_workers.py)."""
    from werkzeug.serving import make_server

    sock, address = server.bind(url, "127.0.0.1", 0)
    with sock:
        srv = make_server("127.0.0.1", sock.getsockname()[1], server.create_app(url), threaded=True, fd=sock.fileno())
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield address
    finally:
        srv.shutdown()
        srv.server_close()
        t.join()
