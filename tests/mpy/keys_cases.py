"""Key state machine cases, run unchanged on CPython and MicroPython (outputs compared).

`micropython tests/mpy/keys_cases.py` prints one line per case: its name and the events seen.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

from box import keys
from box.keys import BACK, K5, KSTAR, LONG, NONE, PRESS, REPEAT, UP, Debouncer, mask


def run(deb, samples):
    """samples: (time ms, raw key) readings; every ms in between is sampled too (as a 1 ms loop)."""
    out = []
    t_prev, raw = samples[0]
    for t_next, nxt in samples[1:] + [(samples[-1][0] + 3000, NONE)]:
        for t in range(t_prev, t_next):
            ev = deb.update(raw, t)
            if ev:
                out.append((t, keys.kind(ev), keys.NAMES[keys.key(ev)]))
        t_prev, raw = t_next, nxt
    return out


def new():
    return Debouncer(long_keys=mask(KSTAR, BACK), repeat_keys=mask(UP))


CASES = {
    "clean press": [(0, NONE), (10, K5), (100, NONE)],
    "bounce then press": [(0, NONE), (10, K5), (12, NONE), (14, K5), (15, NONE), (17, K5), (120, NONE)],
    "glitch shorter than 20 ms": [(0, NONE), (10, K5), (25, NONE)],
    "release bounce gives one press": [(0, NONE), (10, K5), (100, NONE), (103, K5), (105, NONE)],
    "short press of a long key fires on release": [(0, NONE), (10, KSTAR), (200, NONE)],
    "long press fires once while held": [(0, NONE), (10, KSTAR), (2500, NONE)],
    "auto-repeat": [(0, NONE), (10, UP), (1000, NONE)],
    "key change without release": [(0, NONE), (10, KSTAR), (200, K5), (400, NONE)],
}


def main():
    for name in sorted(CASES):
        print("%s: %r" % (name, run(new(), CASES[name])))
    print("kinds", PRESS, LONG, REPEAT)


if __name__ == "__main__":
    main()
