"""A club's token: `sbl1.ID.SECRET`, shown once when the club is added. The league keeps ID
(which club) and only a hash of SECRET, so a copy of its database gives no club's token.

The hash is SHA-256 (hashlib): SECRET is 256 random bits (secrets.token_urlsafe(32)), so no
search, however fast each try, comes near it; a slow hash made for passwords people choose
would add nothing but its cost, paid at each club's first request and at every wrong
token's."""

import hashlib
import hmac
import secrets

PREFIX = "sbl1"
SHA256 = "sha256:"


def make():
    """(token, its public id, the hash of its secret) for a new club."""
    token_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
    return "%s.%s.%s" % (PREFIX, token_id, secret), token_id, hashed(secret)


def hashed(secret):
    return SHA256 + hashlib.sha256(secret.encode()).hexdigest()


def split(token):
    """(id, secret) of a token of this form, else None."""
    parts = (token or "").split(".")
    if len(parts) != 3 or parts[0] != PREFIX or not parts[1] or not parts[2]:
        return None
    return parts[1], parts[2]


def verify(token_hash, secret):
    """Whether secret is the one token_hash was made from."""
    return hmac.compare_digest(token_hash, hashed(secret))
