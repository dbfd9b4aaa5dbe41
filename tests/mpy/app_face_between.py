"""TTB-16's new-face offer between matches, on the virtual Pico (run by test_app_face_between.py):

    micropython tests/mpy/app_face_between.py FLASH_FILE

One-game matches with face_games 2, keyed on the keypad: the face's games carry over in the
box's store, so the third match opens on the new-face prompt (the match before it ended on
the face's second game, and no game follows in that match to ask after). OK logs NEW_FACE
as the match's first event and the count starts again; BACK keeps the face and plays on,
and the next match asks again. A power cut on the prompt comes back to it. A Try-Tac-Toe
game has no face: it opens on its own play screen. Prints one JSON line of what was seen.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import json
import sys

from flashbox import FlashBox

from box.keys import code
from scorebox_core.games.ttb.rules import NEW_FACE

# The game of tests/mpy/app_screens.py, keyed to its end: A claims 5, 1 and 9, B 3; B flips
# 5, A claims 2 and flips 3 (the top row), B's last turn. One game: the match is over.
GAME = "5 A B 1 A 3 A A 7 C 1 B 9 A A 5 # A # 0 0 2 A A 3 # A 4 A A 6 D"
# New match, rules: custom, down to the face row, 4 -> 2, OK (to Start), start (TTB-16: face_games 2).
SETUP = "# 6 6 8 8 8 8 8 8 8 8 8 4 4 # #"


class Box(FlashBox):
    def screen(self):
        return type(self.app.screen).__name__

    def expect(self, cond, what):
        if not cond:
            raise RuntimeError("%s (on %s)" % (what, self.screen()))

    def open_match(self):
        """A one-game match with face_games 2; the screen it opens on and the face's games then."""
        self.expect(self.app.screen is self.app.home, "not at home before a match")
        self.keys(SETUP)
        m = self.app.session.match
        self.expect(m is not None and m.opts.face_games == 2 and m.opts.games == 1, "the match's options")
        return self.screen(), m.face.games

    def finish(self):
        """The game to its end, the result confirmed by both sides, back home. The match's
        journal events and the face's games in the store after it."""
        self.keys(GAME)
        self.expect(self.app.session.match.over(), "the game did not end the match")
        n = self.app.session.number
        self.keys("# # #")  # game result -> match result; A, B confirm -> history
        self.expect(self.app.screen is self.app.history, "not in history after confirming")
        self.keys("*")
        _, events, extra = self.app.journal.read_match(n)
        self.expect(extra.get("confirmed") == [True, True], "the result is not confirmed")
        return events, self.app.store.get("face_games")


def main(path):
    box = Box(path)
    got = {}
    got["m1"] = box.open_match()
    got["m1_end"] = box.finish()
    got["m2"] = box.open_match()
    got["m2_end"] = box.finish()
    # Match 3 opens on a face with two games: the prompt, before the first arrow.
    got["m3"] = box.open_match()
    box.keys("#")  # OK: a new face is up
    m = box.app.session.match
    got["m3_ok"] = (box.screen(), box.app.journal.open_match()[2], m.face.games)
    got["m3_end"] = box.finish()
    got["m4"] = box.open_match()
    got["m4_end"] = box.finish()
    got["m5"] = box.open_match()
    box.keys("*")  # BACK: the old face stays up
    m = box.app.session.match
    got["m5_back"] = (box.screen(), box.app.journal.open_match()[2], m.face.games)
    got["m5_end"] = box.finish()
    # Match 6 asks again (the face is still worn); the power goes off on the prompt.
    got["m6"] = box.open_match()
    box.boot()
    got["m6_resumed"] = (box.screen(), box.app.journal.open_match()[2])
    box.keys("#")
    got["m6_ok"] = (box.screen(), box.app.journal.open_match()[2], box.app.session.match.face.games)
    got["m6_end"] = box.finish()
    # Match 7 wears the new face to two games; match 8 asks, and a held * goes home (the match
    # stays open), Resume asks again, BACK keeps the face. Then a Try-Tac-Toe game on the worn
    # face: it has no face of its own, nothing is asked.
    got["m7"] = box.open_match()
    got["m7_end"] = box.finish()
    got["m8"] = box.open_match()
    box.d.long(code("*"))
    got["m8_home"] = box.screen()
    box.keys("#")  # Resume (home's first row while a match is open)
    got["m8_resumed"] = (box.screen(), box.app.journal.open_match()[2])
    box.keys("*")  # BACK: keep the face
    got["m8_back"] = box.screen()
    box.finish()
    box.keys("# 6 6 6 # #")  # New match, rules: TryTacToe, to Start, start
    app = box.app
    got["ttt"] = (app.screen is app.play, app.session.game.NAME == "Try-Tac-Toe", app.journal.open_match()[2])
    got["new_face"] = NEW_FACE
    print(json.dumps(got))


main(sys.argv[1])
