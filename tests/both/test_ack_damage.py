"""A damaged acknowledgement file is quarantined once and rewritten (issue 13, item 19), on
the box's VM (tests/mpy/ack_damage.py). Before, every boot copied it to the quarantine
again."""

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_a_damaged_ack_file_is_quarantined_once():
    r = mpy.run(["tests/mpy/ack_damage.py"], heapsize="4m")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
