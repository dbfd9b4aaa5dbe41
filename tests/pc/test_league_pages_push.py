"""The desk's Push page (issue 26): `scorebox push` from a button on the club's desk, to the
league's server on a real PostgreSQL (pgserver.py), from club A's SQLite store of both games
(leagueclubs.py): what was sent, a refusal in words, and the token kept nowhere."""

import base64
import re

import pytest
from leagueclubs import add_club, clubs, league_count, running

from scorebox.web.app import create_app

pytest_plugins = ("pgserver",)


def message(client, data):
    """Post the Push form; (kind, the page's message) on the page it leads to."""
    page = client.get("/push").get_data(as_text=True)
    data = dict(data, csrf=re.search(r'name="csrf" value="([^"]+)"', page).group(1))
    r = client.post("/push", data=data, headers={"Referer": "http://localhost/push"}, follow_redirects=True)
    assert r.status_code == 200 and r.request.path == "/push"
    kind, text = re.search(r'<p class="msg (\w+)"[^>]*>(.*?)</p>', r.get_data(as_text=True), re.S).groups()
    return kind, text


def cookie(client):
    """The session cookie's payload as text (Flask's is signed, not encrypted)."""
    raw = client.get_cookie("session").value
    body = raw.lstrip(".").split(".")[0]
    data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    if raw.startswith("."):
        import zlib

        data = zlib.decompress(data)
    return data.decode()


@pytest.fixture
def desk(pg_url, tmp_path, capsys):
    a, _ = clubs(tmp_path)
    token = add_club(capsys, pg_url, "Archers of A")
    with running(pg_url) as address:
        yield create_app(a, workdir=str(tmp_path / "work")).test_client(), address, token, pg_url


def test_push_from_the_desk_sends_the_new_matches(desk):
    client, address, token, url = desk
    assert 'href="/push"' in client.get("/matches").get_data(as_text=True)  # in the desk's menu
    assert message(client, {"url": address, "token": token}) == (
        "ok",
        "5 new matches sent to the league; 0 matches it had already",
    )
    assert league_count(url) == 5
    assert message(client, {"url": address, "token": token}) == (
        "ok",
        "0 new matches sent to the league; 5 matches it had already",
    )
    page = client.get("/push").get_data(as_text=True)
    assert 'value="%s"' % address in page  # the address is kept for the next push
    assert token not in page and token.split(".")[2] not in cookie(client)  # the token is not


def test_the_leagues_refusal_in_words(desk):
    client, address, token, url = desk
    kind, text = message(client, {"url": address, "token": token[:-3] + "abc"})
    assert kind == "error"
    assert (
        text
        == "the league refused (401): not a club&#39;s token: check the token the league gave your club; nothing stored"
    )
    kind, text = message(client, {"url": "http://league.example/", "token": token})
    assert (kind, text) == ("error", "http://league.example/: a token goes to a league only over https://")
    kind, text = message(client, {"url": address, "token": ""})
    assert (kind, text) == ("error", "give the league&#39;s address and your club&#39;s token")
    kind, text = message(client, {"url": "http://127.0.0.1:9/", "token": token})
    assert kind == "error" and text.startswith("cannot reach the league at http://127.0.0.1:9/")
    assert league_count(url) == 0
