"""The battery watch (App.check_battery, docs/power.md) on MicroPython, in the app
(tests/mpy/app_power.py): no judgement on USB power, a sag now and then is not a flat battery,
three readings in a row give the low mark, hysteresis, then EMPTY: a message, no more keys
taken, and after a reboot with new batteries the match resumes with every arrow."""

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_app_low_mark_then_empty_on_micropython(tmp_path):
    r = mpy.run(["tests/mpy/app_power.py", str(tmp_path / "box.flash")], heapsize="2m")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
