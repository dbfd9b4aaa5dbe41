"""A club's token kept as a hash (league/tokens.py): the SHA-256 of its 256 random bits,
checked against the right secret only."""

from scorebox.league import tokens


def test_a_token_is_kept_as_the_sha256_of_its_secret():
    token, token_id, token_hash = tokens.make()
    prefix, tid, secret = token.split(".")
    assert (prefix, tid) == (tokens.PREFIX, token_id) and len(secret) >= 43  # 32 random bytes
    assert token_hash.startswith(tokens.SHA256) and len(token_hash) == len(tokens.SHA256) + 64
    assert secret not in token_hash
    assert tokens.split(token) == (token_id, secret)
    assert tokens.verify(token_hash, secret)
    other = tokens.make()[0].split(".")[2]
    for wrong in (other, secret[:-1], secret + "x", "", secret.upper() if secret != secret.upper() else other):
        assert not tokens.verify(token_hash, wrong)
    assert not tokens.verify("not a hash", secret)
