"""The debouncer fed only the changes of the key down, each at its time (box/keys.py; what
boards/pico.py does after the flash stalled the CPU, issue 22 item 5): the same events as
sampled every ms, on CPython (any key script, hypothesis) and on MicroPython (fixed scripts).
Before, a key pressed and let go between two calls was lost, and so were a long press and the
repeats that came due while nobody called."""

import keys_cases
import keys_sparse
import mpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from box.keys import BACK, K5, KSTAR, NONE, UP


def test_a_tap_between_two_calls_counts():
    s = keys_sparse.SCRIPTS[0]
    assert keys_sparse.sparse(keys_cases.new(), s) == keys_sparse.every_ms(keys_cases.new(), s) != []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 1200), st.sampled_from((NONE, K5, KSTAR, BACK, UP))), max_size=12))
def test_any_script_gives_the_same_events(steps):
    t = 0
    script = [(0, NONE)]
    for dt, key in steps:
        t += dt
        if key != script[-1][1]:
            script.append((t, key))
    assert keys_sparse.sparse(keys_cases.new(), script) == keys_sparse.every_ms(keys_cases.new(), script)


@pytest.mark.micropython
def test_on_micropython():
    r = mpy.run(["tests/mpy/keys_sparse.py"])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == len(keys_sparse.SCRIPTS)
    for line, s in zip(lines, keys_sparse.SCRIPTS):
        want = keys_sparse.every_ms(keys_cases.new(), s)
        assert line == "%r %r" % (want, want), line
