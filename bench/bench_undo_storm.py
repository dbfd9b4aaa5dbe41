"""Undo storms (issue 21, item 9): long games keyed with a slip undone at every turn or move
(tests/support/undo_storms.py), through the rules core and the PC's reading of a stored game.
While an undo replayed the game under way, their time grew with the game's length squared.

- Tic Tac BOW: a 44 KB script, one game of misses with no round limit, every turn `M U M M M`,
  read as `scorebox replay` reads it (CPython and MicroPython).
- Try-Tac-Toe: match 1 with no move limit, 30 marks, 6,000 misses, then 6,900 misses undone
  and keyed again (19,830 events: an import takes at most 20,000 a match): folded (CPython;
  MicroPython as the box resumes it), stored, then `show`, `report`, `stats` and an export
  imported into a new store.
"""

import os
import shutil
import tempfile
import time

from bench_rules import run_mpy
from ttt_history import ttt_header
from undo_storms import ttb_lines, ttt_events

from scorebox.games.ttt import stats as ttt_stats
from scorebox.report import html, show
from scorebox.store import export
from scorebox.store.sqlite import Store
from scorebox_core.games.ttb.script import read_lines
from scorebox_core.games.ttt.rules import Game

TTB_CHARS = 44000
TTT_MISSES, TTT_SLIPS = 6000, 6900


def seconds(f):
    t0 = time.perf_counter()
    f()
    return round(time.perf_counter() - t0, 3)


def cpython(lines, events):
    out = {
        "undo_storm_replay_seconds_ttb": seconds(lambda: read_lines(lines)),
        "undo_storm_replay_seconds_ttt": seconds(lambda: Game.replay(events)),
    }
    work = tempfile.mkdtemp(prefix="bench-undo-storm-")
    try:
        store = Store(os.path.join(work, "store.sqlite"))
        if store.add_matches("e6614103e7a1b2c3", [(1, ttt_header(Game()), events, None)]) != [True]:
            raise RuntimeError("the store refused the storm")
        match = store.load_match("1")
        out["undo_storm_show_seconds_ttt"] = seconds(lambda: show.show_lines(match))
        out["undo_storm_report_seconds_ttt"] = seconds(lambda: html.write(store, os.path.join(work, "report.html")))
        out["undo_storm_stats_seconds_ttt"] = seconds(lambda: ttt_stats.compute(store))
        export.export(store, os.path.join(work, "export"), "json")
        data = export.read_matches_file(os.path.join(work, "export"))[1]
        fresh = Store(os.path.join(work, "imported.sqlite"))
        out["undo_storm_import_seconds_ttt"] = seconds(lambda: export.import_history(fresh, data))
        if fresh.count() != 1:
            raise RuntimeError("the import refused the storm")
        fresh.close()
        store.close()
    finally:
        shutil.rmtree(work)
    return out


def micropython(lines, events):
    got = run_mpy("bench/mpy/undo_storm.py", {"ttb": lines, "ttt": events})
    return {
        "undo_storm_replay_seconds_ttb_mpy": round(got["ttb_us"] / 1e6, 3),
        "undo_storm_replay_seconds_ttt_mpy": round(got["ttt_us"] / 1e6, 3),
        "undo_storm_heap_bytes_ttb_mpy": got["ttb_heap"],
        "undo_storm_heap_bytes_ttt_mpy": got["ttt_heap"],
    }


def run():
    lines, events = ttb_lines(TTB_CHARS), ttt_events(TTT_MISSES, TTT_SLIPS)
    return {**cpython(lines, events), **micropython(lines, events)}
