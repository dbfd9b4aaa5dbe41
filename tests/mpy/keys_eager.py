"""The debouncer as the app makes it (box/keys.py, press_ms=0: a press counts at its first
edge, a release once stable; issue 22): cases run unchanged on CPython and MicroPython, each
read every ms and only at its changes (tests/both/test_keys_eager.py compares them).

`micropython tests/mpy/keys_eager.py` prints one line per case: its name, the events read
every ms (with their times), and the events read at the changes only.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import keys_cases
import keys_sparse

from box.keys import BACK, K5, K6, KSTAR, NONE, UP, Debouncer, mask


def new():
    return Debouncer(long_keys=mask(KSTAR, BACK), repeat_keys=mask(UP), press_ms=0)


CASES = dict(keys_cases.CASES)
CASES["press soon after a clean release"] = [(0, NONE), (10, K5), (50, NONE), (75, K6), (150, NONE)]
CASES["another key inside the release's bounce time"] = [(0, NONE), (10, K5), (50, NONE), (60, K6), (150, NONE)]
CASES["chatter while held"] = [(0, NONE), (10, K5), (40, NONE), (45, K5), (80, NONE), (99, K5), (140, NONE)]


def main():
    for name in sorted(CASES):
        print("%s: %r %r" % (name, keys_cases.run(new(), CASES[name]), keys_sparse.sparse(new(), CASES[name])))


if __name__ == "__main__":
    main()
