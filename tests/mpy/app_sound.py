"""The app's beeps on the virtual Pico (run by test_app_sound.py):

    micropython tests/mpy/app_sound.py FLASH_FILE

A best-of-1 match keyed to its end: a buzz for each entry refused, a chirp for each flip,
a long tone for the arrow that ends the match, nothing for other arrows. Then the same
match with the sound off in Settings: no beep at all. Every tone within 2-4 kHz. Prints
`ALL OK`, or the checks that failed and exits with status 1 (tests/mpy/verdict.py).
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

from verdict import done, want

from box.app import App
from box.games.ttb import play
from box.keys import code
from vpico import board as vboard
from vpico.drive import Driver


def match(path, sound):
    b = vboard.Board(path=path)
    app = App(b, strict=True)
    d = Driver(app, b)

    def keys(s):
        for ch in s.split():
            d.press(code(ch))

    def tones():
        return [(f, ms) for _, f, ms in b.beeps]

    if not sound:
        keys("8 8 8 #")  # Settings
        keys("8 8 8 6")  # the Sound row: off
        want(app.store.get("sound") is False, 'app.store.get("sound") is False')
        keys("#")  # saved, home
    keys("# # #")  # New match (standard, best of 1), to Start, start
    want(app.screen is app.play, "app.screen is app.play")
    # The game of tests/mpy/app_screens.py: A claims 5 and 1 and 9, B 3; then B flips 5.
    keys("5 A B 1 A 3 A A 7 C 1 B 9 A A 5 #")
    want(b.beeped == 0, b.beeps)  # arrows that score, claim, lock: no sound
    keys("A")  # B's called shot hits the X of A's square 5: a flip
    if sound:
        want(tones() == [play.FLIP], b.beeps)
    keys("#")  # the flip ended the calls; # at the framed square, which cannot be flipped: refused
    keys("0 0 2 A A 3 # A")  # B misses twice; A claims 2, then flips 3 (the top row is A's)
    keys("4 A A 6")  # B's last turn (equal turns): no sound
    if sound:
        want(tones() == [play.FLIP, play.REFUSED, play.FLIP], b.beeps)
    keys("D")  # the arrow that ends the game, and with it the match (best of 1)
    want(
        app.screen is app.game_over and app.session.match.over(),
        "app.screen is app.game_over and app.session.match.over()",
    )
    if sound:
        want(tones() == [play.FLIP, play.REFUSED, play.FLIP, play.MATCH_END], b.beeps)
        at = b.beeps[-1][0]  # while the key was down (the Driver holds it 80 ms, then waits 120 ms)
        want(b.clock.now - 200 <= at <= b.clock.now - 120, (at, b.clock.now))
    else:
        want(b.beeped == 0, b.beeps)
    vboard.unmount(b.root)
    b.bdev.close()
    return b.beeped


def refusals(path):
    """Entries refused before the rules see them (no square framed) buzz too."""
    b = vboard.Board(path=path)
    app = App(b, strict=True)
    d = Driver(app, b)
    for k in "# # #".split():
        d.press(code(k))
    app.play.sel = 0  # as after a resume with no square guessed
    d.press(code("A"))
    want(b.beeps and b.beeps[-1][1:] == play.REFUSED, b.beeps)
    d.press(code("*"))  # undo with nothing to undo: refused by the rules core
    want(b.beeped == 2 and b.beeps[-1][1:] == play.REFUSED, b.beeps)
    vboard.unmount(b.root)
    b.bdev.close()


def tones_in_band():
    """Every tone within 2-4 kHz, where a piezo sounder is loud (docs/hardware.md), and
    Try-Tac-Toe's the same as Tic Tac BOW's."""
    from box.games.ttt import play as tttplay

    for t in (play.REFUSED, play.FLIP, play.MATCH_END, tttplay.REFUSED, tttplay.MATCH_END):
        want(2000 <= t[0] <= 4000, t)
    want((tttplay.REFUSED, tttplay.MATCH_END) == (play.REFUSED, play.MATCH_END), tttplay.REFUSED)
    want(play.REFUSED[0] < play.MATCH_END[0] < play.FLIP[0], "the refusal the lowest tone")


tones_in_band()
on = match(sys.argv[1], True)
off = match(sys.argv[1] + ".off", False)
refusals(sys.argv[1] + ".refusals")
print("beeps", on, off)
done()
