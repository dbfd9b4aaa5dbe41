"""The every-day boot's flash reads (issue 22): the box powered on again with a match kept, in
both games, counted on the virtual Pico's LittleFS (tests/mpy/boot_reads.py on the
MicroPython unix port): the extensible built-ins are searched for on the flash once, not at
every import, and the journal's recovery stats no file its listing gave the size of."""

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_boot_reads():
    r = mpy.run(["tests/mpy/boot_reads.py"], heapsize="8m")
    assert r.returncode == 0 and r.stdout.strip().endswith("ALL OK"), r.stdout[-2000:] + r.stderr[-2000:]
