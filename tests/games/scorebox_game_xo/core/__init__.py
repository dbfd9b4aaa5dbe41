"""Noughts and Crosses' core: its rules, script, snapshot and store rows (game.py, its surface)."""
