"""A league that cannot be reached is said in words on the desk's Push page and by `scorebox
push`: nothing listening at the address, a name no computer has (before: "[Errno 111]
Connection refused", "[Errno -2] Name or service not known"). Real sockets: a port bound
with nobody listening, a host name under .invalid (which never resolves)."""

import socket

import pytest

from scorebox.commands import push


def test_nothing_listening_is_said_in_words():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))  # bound, never listening: a connection to it is refused
        url = "http://127.0.0.1:%d/" % s.getsockname()[1]
        with pytest.raises(push.Cut) as e:
            push.League(url, "token").call("league/api/have", {})
    assert str(e.value) == (
        "cannot reach the league at %s: nothing answers there: check the address, and that the league's server is"
        " running" % url
    )


def test_a_name_no_computer_has_is_said_in_words():
    with pytest.raises(push.Cut) as e:
        push.League("https://no-such-league.invalid/", "token").call("league/api/have", {})
    assert str(e.value) == (
        "cannot reach the league at https://no-such-league.invalid/: no computer has that name: check the address,"
        " and this PC's network"
    )
