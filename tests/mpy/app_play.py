"""Whole matches keyed through the real firmware on the virtual Pico (run by micropython).

    micropython tests/mpy/app_play.py FLASH_FILE CORPUS_FILE [measure]

CORPUS_FILE holds realistic matches, one a line, made on the PC by tests/support/corpus.py
(corpus_lines), so that only the box's own code is in the heap here. For each match it
keys in, on the keypad, what a scorer would: home -> new match -> the arrows (a square key
only when the framed square is not the one hit) -> game results -> both confirmations.
It checks that the journal holds exactly the events of the reference match, and prints one
JSON line of statistics: keys per arrow, display bytes per key, the live heap peak, the
time from key event to frame, allocation per key.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import gc
import json
import sys
import time

from box.keys import code
from scorebox_core.games.ttb import rules

gc.collect()
BASE = gc.mem_alloc()  # what the harness itself holds before the app is made

VALUE_KEY = "DCBA"  # value 0-3 -> key


class Stats:
    def __init__(self):
        self.keys_setup = 0
        self.keys_play = 0
        self.keys_games = 0  # game result -> next game, new face
        self.keys_confirm = 0
        self.arrows = 0
        self.events = 0
        self.live_peak = 0
        self.us_sum = 0
        self.us_n = 0
        self.us_min = 1 << 30
        self.alloc = 0
        self.alloc_keys = 0


def boot(path, st=None):
    from box.app import App
    from vpico.board import Board
    from vpico.drive import Driver

    b = Board(path=path)
    app = App(b, strict=True)
    if st is not None:
        app.collect = False  # measure what each key leaves in the heap
        # Time each key event to its frame sent (screen, rules, journal, render).
        on_key = app.on_key

        def timed(ev, now):
            t0 = time.ticks_us()
            on_key(ev, now)
            dt = time.ticks_diff(time.ticks_us(), t0)
            st.us_sum += dt
            st.us_n += 1
            if dt < st.us_min:
                st.us_min = dt

        app.on_key = timed
    drv = Driver(app, b)
    return b, app, drv


def press(drv, st, keys, phase, measure):
    for ch in keys:
        k = code(ch)
        if measure:
            gc.collect()
            if phase == "play":
                gc.disable()  # what an arrow's key leaves in the heap: garbage and what it keeps
            a0 = gc.mem_alloc()
        drv.press(k)
        if measure:
            if phase == "play":
                st.alloc += gc.mem_alloc() - a0
                st.alloc_keys += 1
                gc.enable()
            gc.collect()
            live = gc.mem_alloc() - BASE
            if live > st.live_peak:
                st.live_peak = live
        if phase == "setup":
            st.keys_setup += 1
        elif phase == "play":
            st.keys_play += 1
        elif phase == "games":
            st.keys_games += 1
        else:
            st.keys_confirm += 1


def keys_for(app, ev):
    """The keys a scorer presses for event ev on the play or review screen."""
    play = app.play
    calling = play.calling and app.screen is play  # the review screen ends a call run
    if ev == rules.UNDO:
        return "**" if calling else "*"  # the first * leaves the called shots
    k = ev >> 6
    if k == rules.MISS:
        return "0"
    sq = ev >> 2 & 15
    pre = "" if play.sel == sq else str(sq)
    can = play._callable
    if k == rules.CALLED:
        ad = "A" if ev & 1 else "D"
        if calling:
            return pre + ad  # sq can be flipped: framing it keeps the calls on
        return pre + "#" + ad
    if calling and pre and not can(sq):
        return pre + VALUE_KEY[ev & 3]  # framing a square that cannot be flipped ends the calls
    return pre + ("#" if calling else "") + VALUE_KEY[ev & 3]


class Mismatch(Exception):
    pass


def parse(line):
    """(mode, games, [(event, note)]) from a corpus line."""
    words = line.split()
    steps = []
    for w in words[2:]:
        ev, note = w.split(",")
        steps.append((int(ev), note))
    return words[0], int(words[1]), steps


def play_match(drv, seed, line, st, measure=False):
    app = drv.app
    mode, games, steps = parse(line)
    if app.screen is not app.home:
        raise Mismatch("not at home before match %d" % seed)
    setup = "#"
    if mode == rules.HARD5:
        setup += "6"
    if games == 3:
        setup += "86"
    setup += "##"
    press(drv, st, setup, "setup", measure)
    offer = steps and steps[0][0] == rules.NEW_FACE  # a worn face: the new-face offer first (TTB-16)
    if type(app.screen).__name__ != ("FacePrompt" if offer else "Play"):
        raise Mismatch("match %d did not start: %s" % (seed, type(app.screen).__name__))
    skip = False
    for ev, _note in steps:
        if skip:
            skip = False
            continue
        if ev == rules.NEW_FACE and type(app.screen).__name__ == "FacePrompt":
            press(drv, st, "#", "games", measure)  # the offer as the match opens -> yes
            continue
        if ev == rules.NEW_FACE:
            press(drv, st, "##", "games", measure)  # game result -> new face? -> yes
            skip = True  # the face screen also starts the next game
            continue
        if ev == rules.NEW_GAME:
            press(drv, st, "#", "games", measure)
            continue
        press(drv, st, keys_for(app, ev), "play", measure)
        if ev < 256:
            st.arrows += 1
    m = app.session.match
    want = [ev for ev, _ in steps]
    if m.log != want:
        raise Mismatch("match %d: box has %r, reference %r" % (seed, m.log, want))
    if app.screen is not app.game_over:
        raise Mismatch("match %d: not at the game result" % seed)
    n = app.session.number
    press(drv, st, "###", "confirm", measure)  # game result -> match result; A, B confirm
    if app.screen is not app.history:
        raise Mismatch("match %d: not in history after confirming" % seed)
    h, events, x = app.journal.read_match(n)
    if events != want or x.get("confirmed") != [True, True] or not x.get("result"):
        raise Mismatch("match %d: journal has %r %r" % (seed, events, x))
    press(drv, st, "*", "confirm", measure)  # back home
    st.events += len(want)


def main(argv):
    path, corpus = argv[0], argv[1]
    measure = len(argv) > 2 and argv[2] == "measure"
    st = Stats()
    b, app, drv = boot(path, st if measure else None)
    count = 0
    with open(corpus) as f:
        for line in f:
            if line.strip():
                play_match(drv, count, line, st, measure)
                count += 1
    keys_all = st.keys_setup + st.keys_play + st.keys_games + st.keys_confirm
    out = {
        "matches": count,
        "arrows": st.arrows,
        "events": st.events,
        "keys_arrows": st.keys_play,
        "keys_games": st.keys_games,
        "keys_all": keys_all,
        "keys_per_arrow": st.keys_play / st.arrows,
        "keys_per_arrow_all": keys_all / st.arrows,
        "display_bytes": b.display.bytes_sent,
        "display_bytes_per_key": b.display.bytes_sent / keys_all,
        "key_events": app.events,
        "live_heap_peak": st.live_peak,
        "key_to_frame_us_min": st.us_min if st.us_n else 0,
        "key_to_frame_us_mean": st.us_sum / st.us_n if st.us_n else 0,
        "alloc_bytes_per_play_key": st.alloc / st.alloc_keys if st.alloc_keys else 0,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
