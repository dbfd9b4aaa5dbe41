"""The debouncer read only at the changes of the key down (box/keys.py), as boards/pico.py reads
it after the flash stalled the CPU: the same events as read every ms. Run unchanged on CPython
and MicroPython (tests/both/test_keys_sparse.py): one line per script, the events of each way.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import keys_cases

from box import keys
from box.keys import NONE


def sparse(deb, samples):
    """samples as keys_cases.run's; update() called only at each change (and the end), then
    again at that time while it has events, as the board's loop polls."""
    out = []
    end = samples[-1][0] + 3000
    for t, raw in samples + [(end, NONE)]:
        ev = deb.update(raw, t)
        while ev:
            out.append((keys.kind(ev), keys.NAMES[keys.key(ev)]))
            ev = deb.update(raw, t)
    return out


def every_ms(deb, samples):
    return [(kind, name) for _, kind, name in keys_cases.run(deb, samples)]


# Taps while the CPU was stalled (80 ms held, 120 ms apart), a long press, a held repeat key, a
# two-meaning key tapped and a 20 ms bounce: each as a list of (ms, key code) changes.
SCRIPTS = [
    [(0, NONE), (10, 13), (90, NONE), (210, 7), (290, NONE), (410, 0), (490, NONE)],
    [(0, NONE), (5, keys.KSTAR), (905, NONE), (1000, keys.BACK), (1100, NONE)],
    [(0, NONE), (5, keys.UP), (1200, NONE), (1300, keys.UP), (1319, NONE)],
    [(0, NONE), (5, keys.K5), (12, NONE), (15, keys.K5), (40, NONE), (45, keys.K6), (64, NONE)],
]


def main():
    for s in SCRIPTS:
        print(every_ms(keys_cases.new(), s), sparse(keys_cases.new(), s))


if __name__ == "__main__":
    main()
