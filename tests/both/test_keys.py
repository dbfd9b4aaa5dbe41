"""The key state machine (box/keys.py): debounce, long press, auto-repeat; CPython and MicroPython."""

import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "firmware"))

import keys_cases  # noqa: E402
import mpy  # noqa: E402

from box import keys  # noqa: E402
from box.keys import BACK, K5, KSTAR, LONG, NONE, PRESS, REPEAT, UP  # noqa: E402


def events(name):
    return keys_cases.run(keys_cases.new(), keys_cases.CASES[name])


def test_clean_press_counts_once_after_20_ms():
    assert events("clean press") == [(30, PRESS, "5")]


def test_bounce_is_ignored():
    assert events("bounce then press") == [(37, PRESS, "5")]
    assert events("glitch shorter than 20 ms") == []
    assert events("release bounce gives one press") == [(30, PRESS, "5")]


def test_long_key_short_press_fires_on_release():
    assert events("short press of a long key fires on release") == [(220, PRESS, "*")]


def test_long_press_fires_once_and_nothing_on_release():
    assert events("long press fires once while held") == [(830, LONG, "*")]


def test_auto_repeat():
    got = events("auto-repeat")
    assert got[0] == (30, PRESS, "up")
    assert got[1] == (530, REPEAT, "up")
    assert [t for t, _, _ in got[1:]] == list(range(530, 1020, 150))


def test_key_change_without_release_gives_both():
    got = events("key change without release")
    assert got == [(220, PRESS, "*"), (221, PRESS, "5")]


def test_names_and_codes_agree():
    for i, name in enumerate(keys.NAMES):
        assert keys.code(name) == i
    assert keys.code("nope") == NONE
    assert len(keys.DIGIT) == len(keys.NAMES)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 60), st.sampled_from([NONE, K5, KSTAR, UP, BACK])), max_size=40))
def test_any_reading_sequence_gives_sane_events(readings):
    """Whatever the raw readings: every event names a key that was stably down for 20 ms,
    never two PRESSes of a key without a stable release in between, LONG at most once a hold."""
    d = keys_cases.new()
    t = 0
    stable_down = {}
    last = NONE
    since = 0
    for dt, raw in readings + [(3000, NONE)]:
        for _ in range(dt):
            if raw != last:
                last, since = raw, t
            ev = d.update(raw, t)
            if ev:
                k = keys.key(ev)
                assert keys.kind(ev) in (PRESS, LONG, REPEAT)
                stable_down[k] = stable_down.get(k, 0) + 1
            w = d.wake_at()
            assert w is None or w >= since
            t += 1
    assert d.down() == NONE


def test_wake_at_lets_a_driver_skip_time():
    """Polling only at wake_at() and at reading changes gives the same events as every ms."""
    for name, samples in keys_cases.CASES.items():
        every_ms = events(name)
        d = keys_cases.new()
        out = []
        changes = samples + [(samples[-1][0] + 3000, NONE)]
        raw = NONE
        t = 0
        i = 0
        while i < len(changes):
            w = d.wake_at()
            tc, nxt = changes[i]
            if w is not None and w < tc:
                t = max(t, w)
            else:
                t, raw = tc, nxt
                i += 1
            ev = d.update(raw, t)
            if ev:
                out.append((t, keys.kind(ev), keys.NAMES[keys.key(ev)]))
        assert [(k, n) for _, k, n in out] == [(k, n) for _, k, n in every_ms], name
        # A second event found in one call comes at the next call: 1 ms later when polled every ms.
        for (t1, _, _), (t2, _, _) in zip(out, every_ms):
            assert 0 <= t2 - t1 <= 1, name


@pytest.mark.micropython
def test_same_events_on_micropython(capsys):
    r = mpy.run(["tests/mpy/keys_cases.py"])
    assert r.returncode == 0, r.stderr
    keys_cases.main()
    assert r.stdout == capsys.readouterr().out
