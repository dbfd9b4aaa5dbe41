"""The box's own storage figure agrees with the PC's (issue 22; issue 21, item 14): 256
bytes a match, or the box's own larger average, never above the flash over 256. Six
short matches on the box's VM (tests/mpy/journal_capacity.py): before, its figure went
from 5,408 to 11,008 (128 bytes a match, the floor of their measured average), while
`scorebox sync` and `scorebox doctor` said 5,408."""

import json

import mpy
import pytest

from scorebox.device import space

pytestmark = pytest.mark.micropython


def test_the_box_counts_matches_as_the_pc_does():
    r = mpy.run(["tests/mpy/journal_capacity.py"], heapsize="4m")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
    reports = [json.loads(line.split(" ", 1)[1]) for line in r.stdout.splitlines() if line.startswith("SPACE ")]
    assert len(reports) == 7
    for sp in reports:
        assert sp["matches_left"] == space.matches_fit(sp), sp  # the box's screen says what the PC says
