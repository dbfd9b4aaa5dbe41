"""Tic Tac BOW's surface for the registry (scorebox_core/games.py): what shared code asks of
a game, under the names every game gives (tests/pc/test_registry.py). Only names: the
modules it names are loaded when asked for (games.part), so the menus list the games for
the price of this module and a match holds only its own game's code."""

ID = "tictacbow"  # the match header's `game` (its headers omit it: the registry's first)
NAME = "Tic Tac BOW"
CODE = "TTB"  # in a line of `scorebox matches`
SHOTS = "arrows"  # what that line counts: the key of the store's match row
SCORE = "wins"  # the key of the two numbers its result record is told by: the games each side won
SIDES = "AB"

# The game's modules: RULES gives options(d), replay(events, opts, archers, face, lenient),
# result(match) and finished(box store, match); SCRIPT is_script(lines)
# and read_lines(lines); SNAPSHOT snapshot(match), the JSON of `scorebox replay --json`.
RULES = "scorebox_core.ttb.rules"
SCRIPT = "scorebox_core.ttb.script"
SNAPSHOT = "scorebox_core.ttb.snapshot"
# The PC's store: STORE's rows(match), what it writes of a match, and shots(log), what
# `scorebox matches` counts (None: the store counts its arrows rows).
STORE = "scorebox_core.ttb.store"
# The box: the match screens (app attribute -> module, class); PLAY's enter(app, skipped)
# opens or resumes a match; HISTORY's lines() and open_result() are the history's detail;
# SETUP's Setup gives the New match screen this game's rows.
SCREENS = {
    "play": ("box.play", "Play"),
    "review": ("box.play", "Review"),
    "game_over": ("box.play", "GameOver"),
    "face": ("box.play", "FacePrompt"),
    "match_over": ("box.play", "MatchOver"),
}
PLAY = "box.play"
HISTORY = "box.ttbhistory"
PRESETS = ("standard", "Hard 5", "custom")  # its choices of the New match screen's rules row
LET_GO = False  # its modules stay after its match on the box (box/session.py close)
SETUP = "box.ttbsetup"
# The PC (scorebox.report): BOARD's replay_text(match), the terminal board of `scorebox
# replay`; SHOW's show_lines(stored match, its header), `scorebox show`.
BOARD = "scorebox.report.board"
SHOW = "scorebox.report.turns"
# REPORT's entry(stored match, its header), the HTML report's entry and replay of a match,
# page(store, recent), its figures on the report's page, and RENDER, its template's names;
# FACE's draw(size), the printable face of `scorebox face`; WEAR's face_log(store), the wear
# of its paper faces (TTB-16; None: a game whose face does not wear); STATS's compute(store)
# and lines(figures), its figures apart from the store's arrows tables (None: report/stats.py
# reads its figures from those tables).
REPORT = "scorebox.report.ttb_report"
FACE = "scorebox.report.ttb_face"
WEAR = "scorebox.report.faces"
STATS = None
