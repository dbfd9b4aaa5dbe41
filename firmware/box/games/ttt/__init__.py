"""Try-Tac-Toe on the box, its package the surface for the box's registry (box/games): its
play screen (play.py; its sibling screens hang off it), the history's detail (history.py),
the New match screen's rows (setup.py)."""

SCREENS = {"play": ("box.games.ttt.play", "Play")}
PLAY = "box.games.ttt.play"
HISTORY = "box.games.ttt.history"
SETUP = "box.games.ttt.setup"
LET_GO = True  # its modules go when its game is closed: the menus do without its tables
