"""boards/keypad.py on the MicroPython unix port, over a fake `rp2` whose state machine's FIFO
the checks fill (run by tests/both/test_pico_keypad.py): the 16 readings to a key code, wired
either way round; each change's time from the scan count (mod 16384) on the board's clock;
what the interrupt's handler put in the ring; a ring not read for too long. The checks print
`ok NAME`, and the script ends with ALL OK or exits with status 1 (tests/mpy/verdict.py).
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

from verdict import done, want


class _SM:
    def __init__(self, id, prog, freq=0, set_base=None, in_base=None):
        self.fifo = []
        self.handler = None
        self.args = (freq, set_base, in_base)

    def exec(self, instr):
        pass

    def irq(self, handler, hard=False):
        self.handler = handler

    def active(self, on):
        pass

    def rx_fifo(self):
        return len(self.fifo)

    def get(self):
        return self.fifo.pop(0)

    def push(self, readings, scan):
        """What the PIO program pushes at scan number `scan` (1 the first), then its interrupt."""
        self.fifo.append(readings << 14 | (-scan & 0x3FFF))
        self.handler(self)


class _PIO:
    IN_LOW = 0
    JOIN_RX = 2


class _RP2:
    PIO = _PIO
    StateMachine = _SM

    @staticmethod
    def asm_pio(**kw):
        return lambda f: f


sys.modules["rp2"] = _RP2

from boards import keypad  # noqa: E402
from box.keys import NONE  # noqa: E402

IDLE = 0xFFFF
IRQS = (lambda: 1, lambda state: None)


def down(row_slot, col_slot):
    """The readings with one place down (its column low while its row is driven)."""
    return IDLE & ~(1 << (12 - 4 * row_slot + col_slot))


def check_codes():
    want(keypad.key_of(IDLE) == NONE, "idle")
    kp = keypad.Keypad((6, 7, 8, 9), (10, 11, 12, 13), None, None, 0, IRQS)
    want(kp.sm.args[0] == 50_000, kp.sm.args)
    got = [kp.codes[keypad.key_of(down(r, c))] for r in range(4) for c in range(4)]
    want(got == list(range(16)), got)
    # The plug turned round (docs/hardware.md): R1 on GP13 ... C1 on GP9.
    kp = keypad.Keypad((13, 12, 11, 10), (9, 8, 7, 6), None, None, 0, IRQS)
    want(kp.codes[keypad.key_of(down(3, 3))] == 0, "R1 C1 is the key 1")
    want(kp.codes[keypad.key_of(down(0, 0))] == 15, "R4 C4 is the key D")
    # Two keys down: the first in the scan's order, as the CPU's scan.
    want(keypad.key_of(down(1, 2) & down(2, 0)) == 6, "two keys")
    print("ok codes")


def check_times():
    kp = keypad.Keypad((6, 7, 8, 9), (10, 11, 12, 13), None, None, 1000, IRQS)
    sm = kp.sm
    sm.push(IDLE, 1)  # the first scan: at the start
    kp.read(1001)
    want(kp.log == [[NONE, 1000]], kp.log)
    kp.log = []
    # Three changes in a stall the board reads only after it, at 1900 ms on its clock.
    sm.push(down(1, 1), 501)
    sm.push(IDLE, 581)
    sm.push(down(0, 0), 701)
    kp.read(1900)
    want(kp.log == [[5, 1500], [NONE, 1580], [0, 1700]], kp.log)
    kp.log = []
    # 40 s later: the count went round twice; the change is placed by the board's clock.
    sm.push(IDLE, 40_801)
    kp.read(41_805)
    want(kp.log == [[NONE, 41_800]], kp.log)
    kp.log = []
    # The PIO's clock 3 ms ahead of the board's (scan k at 1000 + k - 1 - 3): a change is
    # never placed in the future, and the start moves so that the next is placed as it ran.
    sm.push(down(0, 1), 41_903 - 1000 + 1 + 3)
    kp.read(41_903)
    sm.push(IDLE, 42_000 - 1000 + 1 + 3)
    kp.read(42_010)
    want(kp.log == [[1, 41_903], [NONE, 42_000]], kp.log)
    print("ok times")


def check_ring():
    kp = keypad.Keypad((6, 7, 8, 9), (10, 11, 12, 13), None, None, 0, IRQS)
    for i in range(keypad._RING + 6):  # 70 changes, never read: the oldest 6 are gone
        kp.sm.push(down(0, 0) if i % 2 else IDLE, 10 * i + 1)
    kp.read(10 * keypad._RING + 100)
    want(len(kp.log) == keypad._RING and kp.log[0][1] == 60 and kp.log[-1][1] == 690, kp.log[:2])
    print("ok ring")


def check_interrupts_back_on():
    """A Ctrl-C from the PC is raised at the VM's next branch, which may fall in read()'s drain
    while the interrupts are off: they must come back on, or the REPL that follows never hears
    the USB again (mpremote then hangs: seen on the emulated Pico, issue 22)."""
    off = []
    kp = keypad.Keypad(
        (6, 7, 8, 9), (10, 11, 12, 13), None, None, 0, (lambda: off.append(1), lambda state: off.clear())
    )
    kp.sm.fifo.append(IDLE << 14)

    def interrupted():
        raise KeyboardInterrupt

    kp.sm.get = interrupted
    try:
        kp.read(5)
    except KeyboardInterrupt:
        pass
    want(off == [], "the interrupts are on again after a Ctrl-C in the drain: %r" % off)
    print("ok interrupts")


check_codes()
check_times()
check_ring()
check_interrupts_back_on()
done()
