"""CircuitPython has no framebuf: firmware/circuitpython/lib/framebuf.py stands for it on a
CircuitPython box (docs/circuitpython.md). On the MicroPython unix port, the same random
drawing calls go to it and to MicroPython's own framebuf, and the buffers must stay the same
byte for byte (tests/mpy/cp_framebuf.py): every method the box draws with, clipped at each edge."""

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_the_same_bytes_as_micropythons_framebuf():
    r = mpy.run(["tests/mpy/cp_framebuf.py"], timeout=600)
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout[-3000:] + r.stderr[-2000:]
