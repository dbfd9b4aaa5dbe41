"""The store's errors, by kind: a caller tells them apart by class, never by their text.

Every one is a StoreError (and so a ScoreboxError: the CLI prints its one line, exit
status 2); str() says what happened and what to do.
"""

from scorebox.errors import ScoreboxError


class StoreError(ScoreboxError):
    """The store cannot do what was asked; str() says why."""


class NoStore(StoreError):
    """A command that reads was given a store that is not there (none is made for it)."""

    def __init__(self, path):
        super().__init__("no store at %s: check --db, or run scorebox sync first" % path)


class NotAStore(StoreError):
    """The file is not a Scorebox store, or not a sound one."""


class SchemaMismatch(NotAStore):
    """The store was made by a newer scorebox: this one cannot read it."""


class StoreLocked(StoreError):
    """Another writer held the store longer than a command waits; str() names it."""


class CannotWrite(StoreError):
    """The store, or its folder, cannot be written; nothing was stored."""


class StoreFull(CannotWrite):
    """The disk is full: nothing was stored."""


class NotFound(StoreError):
    """No such match, archer or box in the store."""


class Refused(StoreError):
    """What was given is not taken: a match the rules refuse, a name the box cannot show."""
