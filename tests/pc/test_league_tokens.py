"""A club's token kept as a hash (issue 26 item 2; league/tokens.py): the SHA-256 of its 256
random bits, checked against the right secret only; a club added before, whose hash is an
Argon2id one, still pushes with its token, and its hash is then replaced by the SHA-256 one
(a wrong token leaves it as it is)."""

import pytest
from argon2 import PasswordHasher
from leagueclubs import add_club, clubs, league_count, running

from scorebox.commands import push
from scorebox.errors import ScoreboxError
from scorebox.league import tokens
from scorebox.store import lock
from scorebox.store.access import open_store
from scorebox.store.postgres import WRITE_LOCK

pytest_plugins = ("pgserver",)
psycopg = pytest.importorskip("psycopg", reason="psycopg not installed: pip install -e .[test] (make does)")


def test_a_token_is_kept_as_the_sha256_of_its_secret():
    token, token_id, token_hash = tokens.make()
    prefix, tid, secret = token.split(".")
    assert (prefix, tid) == (tokens.PREFIX, token_id) and len(secret) >= 43  # 32 random bytes
    assert token_hash.startswith(tokens.SHA256) and len(token_hash) == len(tokens.SHA256) + 64
    assert secret not in token_hash and not tokens.outdated(token_hash)
    assert tokens.split(token) == (token_id, secret)
    assert tokens.verify(token_hash, secret)
    other = tokens.make()[0].split(".")[2]
    for wrong in (other, secret[:-1], secret + "x", "", secret.upper() if secret != secret.upper() else other):
        assert not tokens.verify(token_hash, wrong)
    old = PasswordHasher().hash(secret)
    assert tokens.outdated(old) and tokens.verify(old, secret) and not tokens.verify(old, other)
    assert not tokens.verify("neither kind of hash", secret)


def hash_of(url, token):
    league = open_store(url)
    try:
        q = "SELECT token_hash FROM league_clubs WHERE token_id = ?"
        return league.db.execute(q, (token.split(".")[1],)).fetchone()[0]
    finally:
        league.close()


def test_a_club_added_before_pushes_and_its_hash_is_made_sha256(pg_url, tmp_path, capsys):
    a, _ = clubs(tmp_path)
    token = add_club(capsys, pg_url, "A")
    secret = token.split(".")[2]
    argon2 = PasswordHasher().hash(secret)
    league = open_store(pg_url)
    try:
        league.db.execute("UPDATE league_clubs SET token_hash = ?", (argon2,))
    finally:
        league.close()
    with running(pg_url) as address:
        store = open_store(a)
        try:
            wrong = token[:-2] + ("xx" if token[-2:] != "xx" else "yy")
            with pytest.raises(ScoreboxError, match="not a club's token"):
                push.push(store, push.League(address, wrong))
            assert hash_of(pg_url, token) == argon2  # a wrong token changes nothing
            assert push.push(store, push.League(address, token)) == (5, 0)
            assert hash_of(pg_url, token) == tokens.hashed(secret)
            assert push.push(store, push.League(address, token)) == (0, 5)  # the new hash checks it
            with pytest.raises(ScoreboxError, match="not a club's token"):
                push.push(store, push.League(address, wrong))
        finally:
            store.close()
    assert league_count(pg_url) == 5


def test_a_right_token_is_taken_when_its_hash_cannot_be_replaced(pg_url, tmp_path, capsys, monkeypatch):
    """Another writer holding the league's write lock longer than a request waits: the club's
    old hash is not replaced then, but its right token is taken all the same (and its hash
    replaced at a later request)."""
    a, _ = clubs(tmp_path)
    token = add_club(capsys, pg_url, "A")
    argon2 = PasswordHasher().hash(token.split(".")[2])
    league = open_store(pg_url)
    try:
        league.db.execute("UPDATE league_clubs SET token_hash = ?", (argon2,))
    finally:
        league.close()
    monkeypatch.setattr(lock, "LOCK_WAIT", 1)
    with running(pg_url) as address:
        store = open_store(a)
        try:
            with psycopg.connect(pg_url, autocommit=True) as other:
                other.execute("SELECT pg_advisory_lock(%s)", (WRITE_LOCK,))
                asked = push.League(address, token).call("league/api/have", {"matches": [], "clubs": []})
                assert asked == {"have": []}
                assert hash_of(pg_url, token) == argon2
                other.execute("SELECT pg_advisory_unlock(%s)", (WRITE_LOCK,))
            assert push.push(store, push.League(address, token)) == (5, 0)
            assert hash_of(pg_url, token) == tokens.hashed(token.split(".")[2])
        finally:
            store.close()
