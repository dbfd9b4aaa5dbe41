"""Tic Tac BOW on the box, its package the surface for the box's registry (box/games): the
match screens (play.py), the history's detail (history.py), the New match screen's rows
(setup.py)."""

SCREENS = {
    "play": ("box.games.ttb.play", "Play"),
    "review": ("box.games.ttb.play", "Review"),
    "game_over": ("box.games.ttb.play", "GameOver"),
    "face": ("box.games.ttb.play", "FacePrompt"),
    "match_over": ("box.games.ttb.play", "MatchOver"),
}
PLAY = "box.games.ttb.play"
HISTORY = "box.games.ttb.history"
SETUP = "box.games.ttb.setup"
LET_GO = False  # its modules stay after its match (box/session.py close)
