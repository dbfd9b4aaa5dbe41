"""Try-Tac-Toe (docs/rules.md, TTT-1 to TTT-6): the board, the rules, the match script and the snapshot."""
