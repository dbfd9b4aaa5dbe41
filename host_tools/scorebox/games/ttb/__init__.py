"""Tic Tac BOW on the PC: the terminal board and show, the report's entry and replay, the
printable face and its wear (game.py, its surface)."""
