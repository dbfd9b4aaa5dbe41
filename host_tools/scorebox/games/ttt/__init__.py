"""Try-Tac-Toe on the PC: the terminal board and moves, the report's entry and replay, the
printable face, its own figures (game.py, its surface)."""
