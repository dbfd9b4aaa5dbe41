"""The emulated CircuitPython Pico's tier: CircuitPython 10.2.1's raspberry_pi_pico image on
rp2040js (docs/circuitpython.md).

Without the image and the boot ROM the tier is one skipped test whose line says how many did
not run and what to get (the rest are deselected).
"""

import os

from tierskip import skip_as_one, tier_items

from scorebox.sim.cp import emu

_HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_collection_modifyitems(config, items):
    try:
        emu.images()
        return
    except emu.Missing as e:
        why = str(e)
    skip_as_one(config, items, tier_items(items, _HERE), "tests/cp", why)
