"""A club's token's form (league/tokens.py): `sbl1.ID.SECRET`, ID 16 hex digits (8 random
bytes), SECRET 43 URL-safe characters (32 random bytes); anything else is no token, whichever
part is wrong or empty; a hash of neither kind verifies nothing (False, not an error)."""

import re

import pytest

from scorebox.league import tokens


def test_a_new_token_has_its_parts_sizes():
    token, token_id, _ = tokens.make()
    assert re.fullmatch(r"sbl1\.[0-9a-f]{16}\.[A-Za-z0-9_-]{43}", token)
    assert token.split(".")[1] == token_id


def test_a_token_of_the_form_splits_into_id_and_secret():
    assert tokens.split("sbl1.0123456789abcdef.s3cr3t") == ("0123456789abcdef", "s3cr3t")


@pytest.mark.parametrize(
    "token",
    [
        None,
        "",
        "sbl1",
        "sbl1.id",
        "sbl1.id.secret.more",
        "sbl2.id.secret",
        "SBL1.id.secret",
        ".id.secret",
        "sbl1..secret",
        "sbl1.id.",
        "sbl1..",
        "xxxx..",
    ],
)
def test_anything_else_is_no_token(token):
    assert tokens.split(token) is None


def test_a_hash_of_neither_kind_verifies_nothing():
    assert tokens.verify("neither kind of hash", "secret") is False
    assert tokens.verify(tokens.hashed("secret"), "other") is False
    assert tokens.verify(tokens.hashed("secret"), "secret") is True
