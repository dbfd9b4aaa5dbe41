"""Sync frames with a valid CRC and a hostile inside, decoded on the box's VM with a small
heap (tests/mpy/frames_hostile.py) and on CPython: always a FrameError."""

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_hostile_frames_end_as_frame_errors_on_a_small_heap():
    r = mpy.run(["tests/mpy/frames_hostile.py"], heapsize="64k")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
