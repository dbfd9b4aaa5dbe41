"""Whole matches keyed through the real firmware on the virtual Pico (run by micropython).

    micropython tests/app_play.py FLASH_FILE FIRST_SEED MATCHES [measure]

For each match of the realistic corpus (tests/corpus.py) it keys in, on the keypad, what a
scorer would: home -> new match -> the arrows (square key only when the square changes) ->
game results -> both confirmations. It checks that the journal holds exactly the events of
the reference match, and prints one JSON line of statistics: keys per arrow, display bytes
per key, the live heap peak, the time from key event to frame, allocation per key.
"""

import gc
import json
import sys
import time

import corpus
import micropython
from box.keys import code
from ttb import rules

gc.collect()
BASE = gc.mem_alloc()  # what the harness itself holds before the app is made

VALUE_KEY = "DCBA"  # value 0-3 -> key


class Stats:
    def __init__(self):
        self.keys_setup = 0
        self.keys_play = 0
        self.keys_confirm = 0
        self.arrows = 0
        self.events = 0
        self.live_peak = 0
        self.us = []
        self.alloc = 0
        self.alloc_keys = 0


def boot(path, measure=False):
    from box.app import App
    from vpico.board import Board
    from vpico.drive import Driver

    b = Board(path=path)
    app = App(b, strict=True)
    drv = Driver(app, b)
    return b, app, drv


def press(drv, st, keys, phase, measure):
    app = drv.app
    for ch in keys:
        k = code(ch)
        if measure:
            gc.collect()
            a0 = micropython.mem_total()
            t0 = time.ticks_us()
            n0 = app.events
        drv.press(k)
        if measure:
            dt = time.ticks_diff(time.ticks_us(), t0)
            if app.events == n0 + 1:
                st.us.append(dt)
            if phase == "play":
                st.alloc += micropython.mem_total() - a0
                st.alloc_keys += 1
            gc.collect()
            live = gc.mem_alloc() - BASE
            if live > st.live_peak:
                st.live_peak = live
        if phase == "setup":
            st.keys_setup += 1
        elif phase == "play":
            st.keys_play += 1
        else:
            st.keys_confirm += 1


def keys_for(app, ev):
    """The keys a scorer presses for event ev on the play or review screen."""
    if ev == rules.UNDO:
        return "*"
    k = ev >> 6
    if k == rules.MISS:
        return "0"
    sq = ev >> 2 & 15
    pre = "" if app.play.sel == sq else str(sq)
    if k == rules.CALLED:
        return pre + "#" + ("A" if ev & 1 else "D")
    return pre + VALUE_KEY[ev & 3]


class Mismatch(Exception):
    pass


def play_match(drv, seed, st, measure=False):
    app = drv.app
    opts, steps, ref = corpus.match_events(seed, app.store.get("face_games"))
    if app.screen is not app.home:
        raise Mismatch("not at home before match %d" % seed)
    setup = "#"
    if opts.mode == rules.HARD5:
        setup += "6"
    if opts.games == 3:
        setup += "86"
    setup += "##"
    press(drv, st, setup, "setup", measure)
    if app.screen is not app.play:
        raise Mismatch("match %d did not start: %s" % (seed, type(app.screen).__name__))
    skip = False
    for ev, _note in steps:
        if skip:
            skip = False
            continue
        if ev == rules.NEW_FACE:
            press(drv, st, "##", "play", measure)  # game result -> new face? -> yes
            skip = True  # the face screen also starts the next game
            continue
        if ev == rules.NEW_GAME:
            press(drv, st, "#", "play", measure)
            continue
        press(drv, st, keys_for(app, ev), "play", measure)
        if ev < 256:
            st.arrows += 1
    m = app.session.match
    if m.log != ref.log:
        raise Mismatch("match %d: box has %r, reference %r" % (seed, m.log, ref.log))
    if app.screen is not app.game_over:
        raise Mismatch("match %d: not at the game result" % seed)
    n = app.session.number
    press(drv, st, "###", "confirm", measure)  # game result -> match result; A, B confirm
    if app.screen is not app.history:
        raise Mismatch("match %d: not in history after confirming" % seed)
    h, events, x = app.journal.read_match(n)
    if events != ref.log or x.get("confirmed") != [True, True] or not x.get("result"):
        raise Mismatch("match %d: journal has %r %r" % (seed, events, x))
    press(drv, st, "*", "confirm", measure)  # back home
    st.events += len(ref.log)


def main(argv):
    path, first, count = argv[0], int(argv[1]), int(argv[2])
    measure = len(argv) > 3 and argv[3] == "measure"
    b, app, drv = boot(path, measure)
    st = Stats()
    for seed in range(first, first + count):
        play_match(drv, seed, st, measure)
    keys_all = st.keys_setup + st.keys_play + st.keys_confirm
    us = sorted(st.us)
    out = {
        "matches": count,
        "arrows": st.arrows,
        "events": st.events,
        "keys_play": st.keys_play,
        "keys_all": keys_all,
        "keys_per_arrow": st.keys_play / st.arrows,
        "keys_per_arrow_all": keys_all / st.arrows,
        "display_bytes": b.display.bytes_sent,
        "display_bytes_per_key": b.display.bytes_sent / keys_all,
        "key_events": app.events,
        "live_heap_peak": st.live_peak,
        "key_to_frame_us_median": us[len(us) // 2] if us else 0,
        "key_to_frame_us_mean": sum(us) / len(us) if us else 0,
        "alloc_bytes_per_play_key": st.alloc / st.alloc_keys if st.alloc_keys else 0,
    }
    print(json.dumps(out))


main(sys.argv[1:])
