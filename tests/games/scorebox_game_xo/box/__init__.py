"""Noughts and Crosses on the box, its package the surface for the box's registry (box/games):
its play screens, history detail and New match rows; the names every game gives."""

SCREENS = {"play": ("scorebox_game_xo.box.play", "Play")}  # its game-over screen hangs off Play
PLAY = "scorebox_game_xo.box.play"  # enter(app, skipped)
HISTORY = "scorebox_game_xo.box.history"  # lines(), open_result()
SETUP = "scorebox_game_xo.box.setup"  # Setup: its New match rows
LET_GO = True  # its modules go when its game is closed
