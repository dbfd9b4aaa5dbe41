"""The desk's Push page (issue 26): `scorebox push` from a button on the club's desk, to the
league's server on a real PostgreSQL (pgserver.py), from club A's SQLite store of both games
(leagueclubs.py): what was sent, a refusal in words, and the token kept nowhere."""

import base64
import os
import re
import threading

import pytest
from leagueclubs import add_club, clubs, league_count, running

from scorebox.web.app import create_app
from scorebox.web.serve import listen

pytest_plugins = ("pgserver",)
CHROMIUM = "/usr/bin/chromium"


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


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no system Chromium (make test installs it)")
def test_the_push_button_in_chromium(pg_url, tmp_path, capsys):
    """The button itself: the desk's server on a free port, its Push page in Chromium."""
    playwright = pytest.importorskip("playwright.sync_api")
    a, _ = clubs(tmp_path)
    token = add_club(capsys, pg_url, "Archers of A")
    server, desk = listen(a, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with running(pg_url) as address, playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page()
                page.set_default_timeout(20000)
                page.goto(desk)
                with page.expect_navigation():
                    page.click("nav >> text=Push")
                page.fill("input[name=url]", address)
                page.fill("input[name=token]", token)
                with page.expect_navigation():
                    page.click("button:text('Push')")
                assert page.inner_text("p.msg.ok") == "5 new matches sent to the league; 0 matches it had already"
                assert page.input_value("input[name=url]") == address and page.input_value("input[name=token]") == ""
                page.fill("input[name=token]", "sbl1.0000000000000000.wrong")
                with page.expect_navigation():
                    page.click("button:text('Push')")
                assert page.inner_text("p.msg.error").startswith("the league refused (401): not a club's token")
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    assert league_count(pg_url) == 5
