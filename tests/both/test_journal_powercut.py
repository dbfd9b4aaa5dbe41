"""Issue 3's proof: a power cut at every block write of a full match, on MicroPython's
LittleFS2, loses no committed arrow and changes nothing else (tests/mpy/journal_powercut.py
says exactly what is played and checked)."""

import pytest
from journal_support import run_script

pytestmark = pytest.mark.micropython


def check(res):
    assert res["failures"] == [], res["failures"]
    assert res["lost_arrows"] == 0
    # every operation is cut before and half done, and once after the last
    assert res["cuts"] == 2 * res["ops"] + 1
    assert res["continued"] == res["cuts"], "the journal took a new record after every cut"
    assert res["calls"] > 90  # recover, two matches (one best of 3), acks, a third begun
    return res


def test_every_write_small_groups_as_on_the_pico():
    """Groups of 700 bytes, progsize 256 as the Pico mounts its flash: small group files
    live inline in LittleFS's metadata, and the cuts fall on a new group file being
    started and an acknowledged one being deleted."""
    res = check(run_script("journal_powercut.py", 700, 0, 256)[1])
    assert res["erases"] >= 5 and res["programs"] >= 80, res


def test_every_write_of_a_full_match_in_a_mature_journal():
    """20 matches already kept, default 16 KiB groups, progsize 256: the newest file spans
    two blocks and every arrow copies its last block, as on a box in use."""
    res = check(run_script("journal_powercut.py", 16384, 20, 256)[1])
    assert res["erases"] >= 90 and res["programs"] >= 150, res


def test_every_write_with_small_program_pieces():
    """The same small-group scenario with LittleFS's default progsize (32): many more,
    smaller writes to cut."""
    res = check(run_script("journal_powercut.py", 700, 0, 32)[1])
    assert res["erases"] >= 50 and res["programs"] >= 300, res
