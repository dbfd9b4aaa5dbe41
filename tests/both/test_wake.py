"""Waking the box's screen (issue #12): the key that starts a turn is not lost
(tests/mpy/app_wake.py on the MicroPython unix port)."""

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_a_turns_first_key_counts(tmp_path):
    r = mpy.run(["tests/mpy/app_wake.py", str(tmp_path / "box.flash")], heapsize="2m")
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout[-2000:] + r.stderr[-2000:]


def test_the_box_samples_the_keys_less_often_only_when_no_key_is_in_use(tmp_path):
    r = mpy.run(["tests/mpy/app_quiet.py", str(tmp_path / "box.flash")], heapsize="2m")
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout[-2000:] + r.stderr[-2000:]
