"""Noughts and Crosses' core surface (scorebox_core/games): only names, the same every game
gives; the modules it names load when asked for."""

ID = "noughts"  # the match header's `game`
NAME = "Noughts and Crosses"
CODE = "NAC"  # in a line of `scorebox matches`
SHOTS = "arrows"  # what that line counts: one arrow a turn
SCORE = "squares"  # the result record's two numbers: the squares each side marked
SIDES = "XO"
PRESETS = ("Noughts",)  # its rule set on the New match screen

RULES = "scorebox_game_xo.core.rules"
SCRIPT = "scorebox_game_xo.core.script"
SNAPSHOT = "scorebox_game_xo.core.snapshot"
STORE = "scorebox_game_xo.core.store"  # the PC only
