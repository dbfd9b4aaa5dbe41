"""Noughts and Crosses on the box: its play screens, history detail and New match rows
(game.py, its surface)."""
