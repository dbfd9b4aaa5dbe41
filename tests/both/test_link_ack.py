"""ACK takes only the numbers LIST gives (issue 13, item 7), on the box's VM with its own
journal (tests/mpy/link_ack.py): an unconfirmed, open or unknown match is refused, a
number acknowledged already is taken again. Before, an unconfirmed match was freed."""

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_ack_takes_only_listed_matches():
    r = mpy.run(["tests/mpy/link_ack.py"], heapsize="4m")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
