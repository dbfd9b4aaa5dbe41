"""Noughts and Crosses shot with one arrow a turn: a game beside the built-in ones, found by
the registries by its package's name (tests/games/README.md)."""
