"""Issue 3's proof: a power cut at every block write of a full match, on MicroPython's
LittleFS2, loses no committed arrow and changes nothing else (tests/mpy_journal/powercut.py
says exactly what is played and checked)."""

import pytest
from journal_support import run_script

pytestmark = pytest.mark.micropython


def check(res):
    assert res["failures"] == [], res["failures"]
    assert res["lost_arrows"] == 0
    # every operation is cut before and half done, and once after the last
    assert res["cuts"] == 2 * res["ops"] + 1
    assert res["erases"] > 50 and res["programs"] > 300, res
    assert res["continued"] == res["cuts"], "the journal took a new record after every cut"


def test_every_write_of_a_full_match_small_groups():
    """Groups of 700 bytes: the cuts also fall on a new group file being started and on an
    acknowledged group file being deleted."""
    _, res = run_script("powercut.py", 700, 0)
    check(res)
    assert res["calls"] > 90


def test_every_write_of_a_full_match_in_a_mature_journal():
    """20 matches already kept, default groups: the newest file spans two blocks and every
    arrow copies its last block, as on a box in use."""
    _, res = run_script("powercut.py", 16384, 20)
    check(res)
