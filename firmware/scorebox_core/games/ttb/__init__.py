"""Tic Tac BOW (docs/rules.md, TTB-1 to TTB-17): the rules, the match script and the board snapshot."""
