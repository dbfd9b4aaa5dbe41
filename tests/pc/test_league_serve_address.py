"""`scorebox serve --league` prints the address of its pages, which answers with the
standings; the server's root sends a browser there; a club pushes to that same address."""

import os
import subprocess
import sys
import urllib.error
import urllib.request

from leagueclubs import add_club, clubs, league_count

from scorebox import cli
from scorebox.commands import push

pytest_plugins = ("pgserver",)


class _Kept(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # the redirect itself is what is looked at


def test_serve_league_prints_its_pages_address_and_sends_its_root_there(pg_url, tmp_path, capsys, monkeypatch):
    _, b = clubs(tmp_path)
    token = add_club(capsys, pg_url, "B")
    argv = [sys.executable, "-c", "import sys; from scorebox.cli import main; sys.exit(main())"]
    proc = subprocess.Popen(
        argv + ["serve", "--league", "--db", pg_url, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # its log of requests
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        line = proc.stdout.readline()
        address = line.split()[3]
        assert address.startswith("http://127.0.0.1:") and address.endswith("/league/"), line
        with urllib.request.urlopen(address, timeout=30) as page:
            assert page.status == 200 and b"<title>Standings - the league</title>" in page.read()
        root = address[: -len("league/")]
        try:
            urllib.request.build_opener(_Kept).open(root, timeout=30)
            raise AssertionError("the root answered without a redirect")
        except urllib.error.HTTPError as e:
            assert e.code == 302 and e.headers["Location"] == "/league/"
        monkeypatch.setenv(push.TOKEN_ENV, token)
        capsys.readouterr()
        assert cli.main(["push", address, "--db", b]) == 0
        assert capsys.readouterr().out == "6 new matches sent to the league; 0 matches it had already\n"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert league_count(pg_url) == 6
