"""Try-Tac-Toe's surface for the registry (scorebox_core/games.py): what shared code asks of
a game, under the names every game gives (tests/pc/test_registry.py); its Game of two
matches is what one match record of the journal holds. Only names: the modules it names are
loaded when asked for (games.part), the rules with the board's 30 KB of tables."""

ID = "try-tac-toe"  # the match header's `game` (rules.GAME)
NAME = "Try-Tac-Toe"
CODE = "TTT"  # in a line of `scorebox matches`
SHOTS = "moves"  # what that line counts (marks and misses): the key of the store's match row
SCORE = "score"  # the key of the two numbers its result record is told by: the game score, X-O (TTT-6)
SIDES = "XO"

# The game's modules: RULES gives options(d), replay(events, opts, archers, face, lenient),
# result(game) and finished(box store, game); SCRIPT is_script(lines)
# and read_lines(lines); SNAPSHOT snapshot(game), the JSON of `scorebox replay --json`.
RULES = "scorebox_core.ttt.rules"
SCRIPT = "scorebox_core.ttt.script"
SNAPSHOT = "scorebox_core.ttt.snapshot"
# The PC's store: STORE's rows(match), what it writes of a match, and shots(log), what
# `scorebox matches` counts (None: the store counts its arrows rows).
STORE = "scorebox_core.ttt.store"
# The box: the match screens (app attribute -> module, class; its sibling screens hang off
# its play screen); PLAY's enter(app, skipped) opens or resumes a game; HISTORY's lines() and
# open_result() are the history's detail; SETUP's Setup gives the New match screen its rows.
SCREENS = {"play": ("box.tttplay", "Play")}
PLAY = "box.tttplay"
HISTORY = "box.ttthistory"
PRESETS = ("TryTacToe",)  # its choice of the New match screen's rules row (after the first's)
LET_GO = True  # its modules go when its game is closed on the box: the menus do without its tables
SETUP = "box.tttsetup"
# The PC (scorebox.report): BOARD's replay_text(game), the terminal board of `scorebox
# replay`; SHOW's show_lines(stored game, its header), `scorebox show`.
BOARD = "scorebox.report.ttt_board"
SHOW = "scorebox.report.ttt_moves"
# REPORT, FACE, WEAR and STATS as Tic Tac BOW's surface says; its figures are its own
# (shapes made, placements blocked), its face does not wear.
REPORT = "scorebox.report.ttt_report"
FACE = "scorebox.report.ttt_face"
WEAR = None
STATS = "scorebox.report.ttt_stats"
