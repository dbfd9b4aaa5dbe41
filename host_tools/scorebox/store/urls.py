"""A store named by a URL (a PostgreSQL server) rather than a file: told apart, and shown in
messages without its password. Apart from access.py, which loads postgres.py, so that
postgres.py can use these without an import cycle."""

import re

SCHEMES = ("postgresql://", "postgres://")


def is_url(where):
    """Whether a --db names a PostgreSQL store rather than a file."""
    return isinstance(where, str) and where.startswith(SCHEMES)


def shown(url):
    """A store's URL without its password, for messages."""
    url = re.sub(r"^(\w+://[^:/@]*):[^@/]*@", r"\1@", url)
    return re.sub(r"([?&]password=)[^&]*", r"\1...", url)
