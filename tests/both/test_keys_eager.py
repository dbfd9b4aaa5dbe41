"""The app's debouncer (box/keys.py with press_ms=0, issue 22): a press counts at its first
edge, 20 ms sooner than after a full debounce; a release (and a change to another key) still
counts only once stable for 20 ms, so bounce and chatter while held give no second press. On
CPython (cases and any reading sequence, hypothesis) and on MicroPython (the same cases)."""

import keys_cases
import keys_eager
import keys_sparse
import mpy
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from box import keys
from box.keys import BACK, K5, KSTAR, LONG, NONE, PRESS, REPEAT, UP


def events(name):
    return keys_cases.run(keys_eager.new(), keys_eager.CASES[name])


def test_a_press_counts_at_its_first_edge():
    assert events("clean press") == [(10, PRESS, "5")]
    assert events("bounce then press") == [(10, PRESS, "5")]
    assert events("release bounce gives one press") == [(10, PRESS, "5")]
    assert events("chatter while held") == [(10, PRESS, "5")]


def test_a_glitch_counts_as_a_press():
    """The price of the first edge (docs/rp2.md): a reading of a few ms is a press."""
    assert events("glitch shorter than 20 ms") == [(10, PRESS, "5")]


def test_a_release_still_waits_to_be_stable():
    assert events("press soon after a clean release") == [(10, PRESS, "5"), (75, PRESS, "6")]
    # 6 down 10 ms after 5 went up: not a clean release, so 6 counts once stable.
    assert events("another key inside the release's bounce time") == [(10, PRESS, "5"), (80, PRESS, "6")]


def test_long_and_repeat_keys_count_from_the_first_edge():
    assert events("short press of a long key fires on release") == [(220, PRESS, "*")]
    assert events("long press fires once while held") == [(810, LONG, "*")]
    got = events("auto-repeat")
    assert got[0] == (10, PRESS, "up")
    assert [t for t, _, _ in got[1:]] == list(range(510, 1000, 150))
    assert {k for _, k, _ in got[1:]} == {REPEAT}
    assert events("key change without release") == [(220, PRESS, "*"), (221, PRESS, "5")]


def test_read_at_the_changes_only_gives_the_same_events():
    for name, samples in keys_eager.CASES.items():
        assert keys_sparse.sparse(keys_eager.new(), samples) == keys_sparse.every_ms(keys_eager.new(), samples), name


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 60), st.sampled_from([NONE, K5, KSTAR, UP, BACK])), max_size=40))
# 5 held 20 ms after a 1 ms *, up 20 ms, down again: its first PRESS is told as it goes up
# (it became stable while * was settling), and the 20 ms up count from there, not from the
# PRESS; hypothesis found it in a CI run.
@example(readings=[(1, KSTAR), (20, K5), (20, NONE), (1, K5)])
def test_any_reading_sequence(readings):
    """Every PRESS (of a key that is not a two-meaning one) from no key down is at the edge of
    the reading to that key, and between two PRESSes of a key the reading left it for 20 ms
    in a row; read at the changes only, the same events."""
    d = keys_eager.new()
    t = 0
    script = [(0, NONE)]
    last = NONE
    edges = set()
    run = dict.fromkeys((K5, KSTAR, UP, BACK), 0)  # key -> readings in a row up to now that were not it
    away = {}  # key -> the longest such run since its last PRESS
    for dt, raw in readings + [(3000, NONE)]:
        if raw != last:
            edges.add((t, raw))
            script.append((t, raw))
        for _ in range(dt):
            for k in run:
                run[k] = 0 if raw == k else run[k] + 1
                if k in away:
                    away[k] = max(away[k], run[k])
            was = d.down()
            ev = d.update(raw, t)
            if ev and keys.kind(ev) == PRESS and keys.key(ev) != KSTAR and keys.key(ev) != BACK:
                k = keys.key(ev)
                assert was != NONE or (t, k) in edges  # from no key down: at the edge itself
                assert k not in away or away[k] >= 20
                away[k] = run[k]  # a PRESS told after its key went up: the readings since count
            t += 1
        last = raw
    assert d.down() == NONE
    assert keys_sparse.sparse(keys_eager.new(), script) == keys_sparse.every_ms(keys_eager.new(), script)


@pytest.mark.micropython
def test_same_events_on_micropython(capsys):
    r = mpy.run(["tests/mpy/keys_eager.py"])
    assert r.returncode == 0, r.stderr
    keys_eager.main()
    assert r.stdout == capsys.readouterr().out
