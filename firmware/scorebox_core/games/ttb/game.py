"""Tic Tac BOW's surface for the registry (scorebox_core/games): what shared code asks of
a game, under the names every game gives (tests/pc/test_registry.py). Only names: the
modules it names are loaded when asked for (games.part), so the menus list the games for
the price of this module and a match holds only its own game's code."""

ID = "tictacbow"  # the match header's `game` (its headers omit it: the registry's first)
NAME = "Tic Tac BOW"
CODE = "TTB"  # in a line of `scorebox matches`
SHOTS = "arrows"  # what that line counts: the key of the store's match row
SCORE = "wins"  # the key of the two numbers its result record is told by: the games each side won
SIDES = "AB"
PRESETS = ("standard", "Hard 5", "custom")  # its rule sets, the New match screen's rules row

# The game's modules: RULES gives options(d), replay(events, opts, archers, face, lenient),
# result(match) and finished(box store, match); SCRIPT is_script(lines)
# and read_lines(lines); SNAPSHOT snapshot(match), the JSON of `scorebox replay --json`.
RULES = "scorebox_core.games.ttb.rules"
SCRIPT = "scorebox_core.games.ttb.script"
SNAPSHOT = "scorebox_core.games.ttb.snapshot"
# The PC's store: STORE's rows(match), what it writes of a match, and shots(log), what
# `scorebox matches` counts (None: the store counts its arrows rows).
STORE = "scorebox_core.games.ttb.store"
