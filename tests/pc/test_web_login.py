"""The desk's password is guessed slowly (issue 24 item 5, web/throttle.py): after TRIES
wrong passwords from an address, its tries are refused, the right one too, until the wait
has passed; the wait doubles; another address is not held up; a right password clears the
count. The clock is the throttle's own, moved by the test: counts, never seconds waited."""

import re

import pytest
from bothstore import both_games

from scorebox.web import throttle
from scorebox.web.app import create_app


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def app(tmp_path):
    a = create_app(both_games(str(tmp_path / "c.sqlite")), password="s3cret", workdir=str(tmp_path / "w"))
    a.config["THROTTLE"].clock = a.config["CLOCK"] = Clock()
    return a


def client(app, addr="127.0.0.1"):
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = addr
    t = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").get_data(as_text=True)).group(1)
    return c, t


def login(c, t, pw):
    r = c.post("/login", data={"csrf": t, "password": pw})
    return r.status_code, r.get_data(as_text=True)


def signed_in(c):
    return c.get("/archers").status_code == 200


def test_after_the_wrong_tries_even_the_right_password_waits(app):
    c, t = client(app)
    for _ in range(throttle.TRIES):
        assert login(c, t, "guess")[1].count("wrong password") == 1
    status, page = login(c, t, "s3cret")
    assert status == 429 and "too many wrong passwords: wait 30 seconds, then try again" in page
    assert not signed_in(c)
    app.config["CLOCK"].now += 29
    assert "wait 1 second," in login(c, t, "s3cret")[1] and not signed_in(c)
    app.config["CLOCK"].now += 1
    assert login(c, t, "s3cret")[0] == 302 and signed_in(c)


def test_the_wait_doubles_and_a_right_password_clears_it(app):
    c, t = client(app)
    for _ in range(throttle.TRIES):
        login(c, t, "guess")
    clock = app.config["CLOCK"]
    clock.now += throttle.WAIT
    assert login(c, t, "guess again")[0] == 200  # counted: one more wrong one
    assert "wait 60 seconds" in login(c, t, "s3cret")[1]
    for _ in range(20):  # tries while it waits are not counted: the wait stays as it was
        login(c, t, "guess")
    clock.now += 60
    assert login(c, t, "s3cret")[0] == 302
    c2, t2 = client(app)  # the count was cleared: a wrong one is only wrong again
    assert "wrong password" in login(c2, t2, "guess")[1]
    assert login(c2, t2, "s3cret")[0] == 302


def test_another_address_is_not_held_up(app):
    c, t = client(app, "192.168.1.20")
    for _ in range(throttle.TRIES + 3):
        login(c, t, "guess")
    assert login(c, t, "s3cret")[0] == 429
    c2, t2 = client(app, "192.168.1.21")
    assert login(c2, t2, "s3cret")[0] == 302 and signed_in(c2)


def test_the_wait_has_a_ceiling():
    clock = Clock()
    th = throttle.Throttle(clock)
    for _ in range(throttle.TRIES + 50):
        th.failed("a")
    assert th.wait("a") == throttle.LONGEST
