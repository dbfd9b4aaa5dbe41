"""The key's frame sooner (issue 22): a press counts at its first edge, and the Start key's
frame goes out before the roster's rewrite, with the match already in the journal, in both
games (tests/mpy/app_key_latency.py on the MicroPython unix port, the virtual Pico)."""

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_key_frames_sooner(tmp_path):
    r = mpy.run(["tests/mpy/app_key_latency.py", str(tmp_path / "box.flash")], heapsize="2m")
    assert r.returncode == 0 and r.stdout.strip() == "ALL OK", r.stdout[-2000:] + r.stderr[-2000:]
