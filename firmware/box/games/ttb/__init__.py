"""Tic Tac BOW on the box: the match screens, the history's detail, the New match rows (game.py,
its surface)."""
