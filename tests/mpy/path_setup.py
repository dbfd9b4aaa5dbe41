"""sys.path for the MicroPython scripts of this folder, so that each runs alone from the
repository's root: `micropython tests/mpy/app_screens.py FLASH`.

The firmware, the virtual Pico's modules and the shared test helpers are appended after
whatever MICROPYPATH gave: when a test puts the compiled .mpy build there, it still wins.
Under CPython (rules_vectors.py and keys_cases.py are imported by the tests too) it is harmless.
"""

import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_ROOT = _HERE + "/../.."
for _p in (
    _HERE,
    _ROOT + "/tests/support",
    _ROOT + "/firmware",
    _ROOT + "/firmware/lib",
    _ROOT + "/host_tools/scorebox/sim/mpy",
):
    if _p not in sys.path:
        sys.path.append(_p)
