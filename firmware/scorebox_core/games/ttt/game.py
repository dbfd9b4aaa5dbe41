"""Try-Tac-Toe's surface for the registry (scorebox_core/games): what shared code asks of
a game, under the names every game gives (tests/pc/test_registry.py); its Game of two
matches is what one match record of the journal holds. Only names: the modules it names are
loaded when asked for (games.part), the rules with the board's 30 KB of tables."""

ID = "try-tac-toe"  # the match header's `game` (rules.GAME)
NAME = "Try-Tac-Toe"
CODE = "TTT"  # in a line of `scorebox matches`
SHOTS = "moves"  # what that line counts (marks and misses): the key of the store's match row
SCORE = "score"  # the key of the two numbers its result record is told by: the game score, X-O (TTT-6)
SIDES = "XO"
PRESETS = ("TryTacToe",)  # its rule set, after the first game's on the New match screen

# The game's modules: RULES gives options(d), replay(events, opts, archers, face, lenient),
# result(game) and finished(box store, game); SCRIPT is_script(lines)
# and read_lines(lines); SNAPSHOT snapshot(game), the JSON of `scorebox replay --json`.
RULES = "scorebox_core.games.ttt.rules"
SCRIPT = "scorebox_core.games.ttt.script"
SNAPSHOT = "scorebox_core.games.ttt.snapshot"
# The PC's store: STORE's rows(match), what it writes of a match, and shots(log), what
# `scorebox matches` counts (None: the store counts its arrows rows).
STORE = "scorebox_core.games.ttt.store"
