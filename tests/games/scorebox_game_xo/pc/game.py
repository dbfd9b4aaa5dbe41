"""Noughts and Crosses' PC surface (scorebox/games/registry.py): the terminal board, the
match shown arrow by arrow, the report's entry and replay, the printable face, its figures."""

BOARD = "scorebox_game_xo.pc.board"
SHOW = "scorebox_game_xo.pc.show"
REPORT = "scorebox_game_xo.pc.report"
FACE = "scorebox_game_xo.pc.face"
WEAR = None  # its face is not worn game by game
STATS = "scorebox_game_xo.pc.stats"
