"""Try-Tac-Toe's surface for the PC's registry (scorebox/games/registry.py): the terminal
board and moves, the report's entry and figures, the printable face, its own figures (shapes
made and blocked)."""

BOARD = "scorebox.games.ttt.board"
SHOW = "scorebox.games.ttt.show"
REPORT = "scorebox.games.ttt.report"
FACE = "scorebox.games.ttt.face"
WEAR = None  # its face does not wear
STATS = "scorebox.games.ttt.stats"
