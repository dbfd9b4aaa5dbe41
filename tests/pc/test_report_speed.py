"""The report at club scale (issue 26 item 5): report_seconds_100k was 17.8 s, three quarters
of it the face-wear log (TTB-16), which read every match with its archers' names and result
and walked its events one by one in Python. bench/bench_report.py measures the seconds; these
tests count what must not grow with a match's arrows: the Python lines the face-wear log runs
per match, and SQLite's steps per match of the rows it reads. And the log's faces, read a run
of arrows at a time, are still the rules core's own, wherever a face goes up (TTB-16) and
whatever an undo takes back (TTB-15)."""

import sys

from corpus import match_events
from storegen import match_items
from storehelp import sqlite_steps

from scorebox.games.ttb import wear as faces
from scorebox.store.sqlite import Store
from scorebox_core.games.ttb import rules
from scorebox_core.match import effective

U, NG, NF = rules.UNDO, rules.NEW_GAME, rules.NEW_FACE


def club(path, n=40):
    s = Store(path)
    items = {}
    for uid, item in match_items(n, seed=5):
        items.setdefault(uid, []).append(item)
    for uid, got in items.items():
        assert all(r is True for r in s.add_matches(uid, got))
    return s


def python_lines(fn):
    """The lines of Python fn runs (sys.settrace), in every module."""
    n = [0]

    def line(frame, event, arg):
        if event == "line":
            n[0] += 1
        return line

    sys.settrace(lambda frame, event, arg: line)
    try:
        fn()
    finally:
        sys.settrace(None)
    return n[0]


def test_the_face_log_runs_no_python_per_arrow(tmp_path):
    """Before: about 1,100 lines per match here (each event in effect, and each undo, a turn of a
    Python loop; the options read anew), about 130 now, whatever the match's arrows."""
    s = club(str(tmp_path / "club.sqlite"))
    n = s.count()
    events = sum(len(m["log"]) for m in s.matches_by_box())
    lines = python_lines(lambda: faces.face_log(s))
    assert events > 60 * n  # the matches are not short: a per-arrow loop would show
    assert lines < 200 * n, "%d lines for %d matches of %d events" % (lines, n, events)


def test_the_face_log_reads_no_names(tmp_path):
    """The rows the face-wear log reads: before, each match with its two sides' names (two
    subqueries) and result (about 130 steps a match); now its header and log (about 12)."""
    s = club(str(tmp_path / "club.sqlite"))
    steps = sqlite_steps(s, lambda: list(s.matches_by_box()))
    assert steps < 40 * s.count(), steps


def _faces_of(events, opts, finished):
    log = faces.FaceLog()
    header = {"options": opts.to_dict(), "face": {"games": 0, "arrows": [0] * 9}}
    log.add({"device": "box", "key": "box/1", "started": 1, "header": header, "log": events}, finished)
    return log.faces["box"]


def _two_games():
    """(options, events) of a generated match of two games at least, with no slip and no new face."""
    for seed in range(100):
        opts, steps, _ = match_events(seed)
        base = [ev for ev, note in steps if note is None]
        if NG in base:
            return opts, base
    raise AssertionError("no match of two games in 100")


def test_faces_put_up_anywhere_in_a_match_are_the_rules_cores():
    """A face put up before a game's first arrow, during a game, after a game, twice in a row,
    and put up then taken back; arrows undone and shot again: every face's games and arrows
    as the rules core folds them (TTB-16, TTB-15), and where it went up in words."""
    opts, base = _two_games()
    g2 = base.index(NG)
    arrow = [i for i, ev in enumerate(base) if ev < 256][5]
    cases = {
        "before game 1": [NF] + base,
        "during game 1": base[:3] + [NF] + base[3:],
        "after game 1": base[:g2] + [NF] + base[g2:],
        "before game 2": base[: g2 + 1] + [NF] + base[g2 + 1 :],
        "twice": base[:3] + [NF, NF] + base[3:],
        "taken back": base[:3] + [NF, U] + base[3:],
        "arrows undone": base[:arrow] + [base[arrow], U] + base[arrow:] + [U, U],
    }
    for name, events in cases.items():
        m = rules.Match.replay(events, opts)
        finished = sum(1 for g in m.games if g.over())
        got = _faces_of(events, opts, finished)
        assert [(f["games"], f["arrows"]) for f in got] == [(f.games, f.arrows) for f in m._faces + [m.face]], name
        where = [f["where"] for f in got[1:]]
        if name == "twice":
            assert where == ["during game 1", "during game 1"]
        elif name in ("taken back", "arrows undone"):
            assert where == []
        else:
            assert where == [name], name


def test_the_events_in_effect_are_effectives():
    """The face-wear log's undo, a run between two undos at a time, is effective()'s (TTB-15)."""
    import random

    rnd = random.Random(4)
    for _ in range(500):
        log = [rnd.choice([U, U, NG, NF, 1, 5, 64, 130]) for _ in range(rnd.randrange(0, 30))]
        assert faces._in_effect(log) == effective(log), log
