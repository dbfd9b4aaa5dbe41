"""Noughts and Crosses on the PC: its terminal board, show, report entry and replay, face and
figures (game.py, its surface; its templates in templates/)."""
