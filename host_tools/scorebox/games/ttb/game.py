"""Tic Tac BOW's surface for the PC's registry (scorebox/games/registry.py): the terminal
board and show, the report's entry and figures, the printable face and its wear."""

BOARD = "scorebox.games.ttb.board"
SHOW = "scorebox.games.ttb.show"
REPORT = "scorebox.games.ttb.report"
FACE = "scorebox.games.ttb.face"
WEAR = "scorebox.games.ttb.wear"  # TTB-16: its faces wear
STATS = None  # its figures are the store's arrows tables (report/stats.py)
