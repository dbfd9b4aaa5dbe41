"""Try-Tac-Toe on the box: its play screens, the history's detail, the New match rows (game.py,
its surface)."""
