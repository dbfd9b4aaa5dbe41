"""A club's token: `sbl1.ID.SECRET`, shown once when the club is added. The league keeps ID
(which club) and only an Argon2id hash of SECRET (argon2-cffi's PasswordHasher, its
defaults: RFC 9106's low-memory choice), so a copy of the database gives no club's token."""

import hashlib
import hmac
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

PREFIX = "sbl1"
_hasher = PasswordHasher()


def make():
    """(token, its public id, the hash of its secret) for a new club."""
    token_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
    return "%s.%s.%s" % (PREFIX, token_id, secret), token_id, _hasher.hash(secret)


def split(token):
    """(id, secret) of a token of this form, else None."""
    parts = (token or "").split(".")
    if len(parts) != 3 or parts[0] != PREFIX or not parts[1] or not parts[2]:
        return None
    return parts[1], parts[2]


def verify(token_hash, secret):
    try:
        return _hasher.verify(token_hash, secret)
    except (VerificationError, InvalidHashError):
        return False


class Verifier:
    """verify() that remembers the secrets it found right, as their SHA-256 by the hash they
    matched, so that a club's next request (a push is several) costs a look-up, not Argon2's
    deliberate work again. A secret not remembered, a wrong one too, is always checked by
    Argon2; a club given a new token has a new hash, checked anew."""

    def __init__(self):
        self.known = {}

    def verify(self, token_hash, secret):
        digest = hashlib.sha256(secret.encode()).digest()
        known = self.known.get(token_hash)
        if known is not None and hmac.compare_digest(known, digest):
            return True
        if not verify(token_hash, secret):
            return False
        self.known[token_hash] = digest
        return True
