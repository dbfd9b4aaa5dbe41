"""The emulated CircuitPython Pico's tier: CircuitPython 10.2.1's raspberry_pi_pico image on
rp2040js (docs/circuitpython.md).

Without the image and the boot ROM the tier is one skipped test whose line says what to get
(the rest are deselected).
"""

import os

import pytest

from scorebox.sim.cp import emu

_HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_collection_modifyitems(config, items):
    try:
        emu.images()
        return
    except emu.Missing as e:
        why = str(e)
    ours = [it for it in items if str(it.path).startswith(_HERE + os.sep)]
    if ours:
        ours[0].add_marker(pytest.mark.skip(reason=why))
        config.hook.pytest_deselected(items=ours[1:])
        items[:] = [it for it in items if it not in ours[1:]]
